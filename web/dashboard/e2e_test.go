package dashboard_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/gofiber/fiber/v2"
)

// browser finds Debian's Chromium. Without it the browser tests skip, but
// never in CI, where .ci/run installs it.
func browser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set but no chromium is installed: .ci/run installs it with apt-get install chromium")
	}
	t.Skip("chromium is not installed (apt-get install chromium): skipping the dashboard's browser tests")
	return ""
}

// session is one headless Chromium tab on a live fleetd, with what the
// page did that the test checks afterwards.
type session struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu       sync.Mutex
	requests []string // every URL the page requested
	errors   []string // uncaught JavaScript exceptions
}

func newSession(t *testing.T, e *env) *session {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Map tiles come from the test server, so the page needs no network.
	// Routes must be added before the server starts.
	e.App.Get("/test-tiles/*", func(c *fiber.Ctx) error { return c.SendStatus(fiber.StatusNoContent) })
	go func() { _ = e.App.Listener(ln) }()
	t.Cleanup(func() { _ = e.App.Shutdown() })
	s := &session{t: t, base: "http://" + ln.Addr().String()}

	if _, err := e.Core.Accounts.UpdateServer(e.users["admin"], func(srv *model.Server) error {
		srv.MapURL = s.base + "/test-tiles/{z}/{x}/{y}.png"
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(browser(t)),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancelCtx := chromedp.NewContext(alloc, chromedp.WithListener(func(ev any) {
		s.mu.Lock()
		defer s.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			s.requests = append(s.requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			msg := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				msg += " " + ex.Description
			}
			s.errors = append(s.errors, msg)
		}
	}))
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	// Starts the browser; its context must carry no deadline (chromedp.Run).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	s.ctx = ctx
	return s
}

// do runs steps with a time limit, failing the test with what was running.
func (s *session) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		s.t.Fatalf("%s: %v", what, err)
	}
}

// signIn opens start (the login form, or a page that leads there), signs
// in with the form and waits for the page the user lands on (its h1).
func (s *session) signIn(start, email, pass, landing string) {
	s.t.Helper()
	s.do("sign in as "+email,
		chromedp.Navigate(start),
		chromedp.WaitVisible(chromedp.CSS(`input[name=email]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=email]`), email),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), pass),
		chromedp.Click(chromedp.CSS(`button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("nav.nav a")), // the login page has an h1 too
		s.waitText("main h1", landing),
	)
}

// checkClean fails the test for any request the pages made outside the
// server (but to the hosts others names) and any script that threw.
func (s *session) checkClean(others ...string) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.requests {
		inside := strings.HasPrefix(u, s.base+"/") || strings.HasPrefix(u, "data:")
		for _, o := range others {
			inside = inside || strings.HasPrefix(u, o)
		}
		if !inside {
			s.t.Errorf("the page requested %s", u)
		}
	}
	for _, msg := range s.errors {
		s.t.Errorf("JavaScript error: %s", msg)
	}
}

// waitText waits until the element matching css contains text.
func (s *session) waitText(css, text string) chromedp.Action[chromedp.Void] {
	return waitTrue(`(() => { const el = document.querySelector(` + jsString(css) + `); return !!el && el.textContent.includes(` + jsString(text) + `); })()`)
}

// waitTrue waits until a JavaScript expression is true. It evaluates
// afresh every 50 ms rather than polling inside the page, because a page
// that navigates meanwhile (a form post) would end an in-page poll.
func waitTrue(expr string) chromedp.Action[chromedp.Void] {
	eval := chromedp.Evaluate[bool](expr)
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		for {
			ok, err := eval(ctx, t)
			if ok && err == nil {
				return chromedp.Void{}, nil
			}
			select {
			case <-ctx.Done():
				return chromedp.Void{}, fmt.Errorf("waiting for %s: %w (last error: %v)", expr, ctx.Err(), err)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

// eval returns the value of a JavaScript expression.
func (s *session) eval(expr string) any {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		s.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// screenshot saves the whole page as a PNG into $FLEETD_SCREENSHOTS, when
// set (the report describes the pages from these).
func (s *session) screenshot(name string) {
	dir := os.Getenv("FLEETD_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(s.ctx, chromedp.FullScreenshot(100))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "fleetd-dashboard-"+name+".png"), png, 0o644)
	}
	if err != nil {
		s.t.Errorf("screenshot %s: %v", name, err)
	}
}

// TestBrowser drives the dashboard in headless Chromium through an admin's
// day: sign in, the overview, the fleet map, adding an unknown device,
// answering a ticket and moving its status, uploading a document and
// seeing its expiry state, and recording a service. One browser serves
// every step to keep the run short.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	ticket := e.addTicket("driver1", "Speed looks wrong", "tracking")
	if _, err := e.Core.Ingest.Identify("gt06", "862000000000042", "198.51.100.7:5023"); err == nil {
		t.Fatal("unknown device identified")
	}
	s := newSession(t, e)
	dash := s.base + "/dashboard"

	// Sign in: the root sends a browser to the login page.
	s.signIn(s.base+"/", "admin@example.com", password, "Overview")
	s.screenshot("overview")

	// Fleet: the map shows the two devices with a position.
	s.do("fleet map",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/fleet"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#map.leaflet-container`)),
		waitTrue(`document.querySelectorAll('#map .dot').length === 2`),
	)
	if loc := s.eval(`location.pathname`); loc != "/dashboard/fleet" {
		t.Errorf("boosted navigation left the URL at %v", loc)
	}
	s.screenshot("fleet")
	// Searching swaps the list in, and the map follows it.
	s.do("search the fleet",
		chromedp.SendKeys(chromedp.CSS(`#fleet-filters input[name=q]`), "truck"),
		waitTrue(`!document.querySelector('#fleet-list table').textContent.includes('Van Three')`),
		waitTrue(`document.querySelectorAll('#map .dot').length === 1`),
	)
	if q := s.eval(`new URLSearchParams(location.search).get('q')`); q != "truck" {
		t.Errorf("search pushed q=%v", q)
	}

	// Unknown devices: register the one that reported.
	s.do("add unknown device",
		chromedp.Navigate(dash+"/fleet/unknown"),
		s.waitText("table.list", "862000000000042"),
		chromedp.SendKeys(chromedp.CSS(`form.inline input[name=name]`), "Trailer 42"),
		chromedp.Click(chromedp.CSS(`form.inline button[type=submit]`)),
		s.waitText("#fleet-list", "Trailer 42"),
	)
	if d, err := e.Core.Ingest.Identify("gt06", "862000000000042", "198.51.100.7:5023"); err != nil || d.Name != "Trailer 42" {
		t.Fatalf("device added in the browser: %+v %v", d, err)
	}

	// What my trackers send: a frame that failed its checksum, and the
	// offer to accept the tracker's checksums.
	e.Core.Ingest.Tap(inbox.Seen{Protocol: "gt06", Remote: "198.51.100.7:5023", UniqueID: "356938035643809",
		DeviceID: e.IDs["truck1"], Data: []byte{0x78, 0x78, 0x1f, 0x12}, Problem: inbox.ChecksumMismatch})
	s.do("accept a tracker's checksums",
		chromedp.Navigate(dash+"/fleet/frames"),
		s.waitText("table.frames", "78781f12"),
		chromedp.Click(chromedp.CSS(`table.frames form.inline button[type=submit]`)),
		s.waitText("h1", "What Truck One sends"),
		waitTrue(`document.querySelector('table.frames form') === null`),
	)
	if d, _ := e.Core.Fleet.Devices.Get(model.System(), e.IDs["truck1"]); !ingest.ChecksumWaived(d) {
		t.Errorf("checksums not accepted in the browser: %+v", d.Attributes)
	}

	// Tickets: answer, then move the status.
	s.do("respond to a ticket",
		chromedp.Navigate(dash+"/tickets"),
		s.waitText("#ticket-list", "Speed looks wrong"),
		chromedp.Click(chromedp.CSS(`#ticket-list a[href="/dashboard/tickets/`+ticket.ID.String()+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`textarea[name=message]`)),
		chromedp.SendKeys(chromedp.CSS(`textarea[name=message]`), "We recalibrated the speed; please check again."),
		chromedp.Click(chromedp.CSS(`form[enctype="multipart/form-data"] button[type=submit]`)),
		s.waitText(".thread", "We recalibrated the speed"),
	)
	s.do("change the ticket's status",
		chromedp.SetValue(chromedp.CSS(`select[name=status]`), office.TicketInProgress),
		chromedp.Click(chromedp.CSS(`form.inline button[type=submit]`)),
		s.waitText("section.card .badge", "in progress"),
	)
	s.screenshot("ticket")
	if got, err := e.Core.Office.Ticket(e.users["admin"], int64(ticket.ID)); err != nil || got.Status != office.TicketInProgress {
		t.Fatalf("ticket after the browser: %+v %v", got, err)
	}
	s.do("ticket list", chromedp.Navigate(dash+"/tickets"), s.waitText("#ticket-list", "in progress"))
	s.screenshot("tickets")

	// Documents: upload a scan that expires in 10 days.
	scan := filepath.Join(t.TempDir(), "insurance.pdf")
	if err := os.WriteFile(scan, []byte(pdf), 0o600); err != nil {
		t.Fatal(err)
	}
	expiry := e.now.AddDate(0, 0, 10).Format(time.DateOnly)
	s.do("upload a document",
		chromedp.Navigate(dash+"/documents/new"),
		chromedp.WaitVisible(chromedp.CSS(`input[name=documentType]`)),
		chromedp.SetValue(chromedp.CSS(`select[name=entity]`), "vehicle:"+itoa(e.devices["truck1"].ID)),
		chromedp.SendKeys(chromedp.CSS(`input[name=documentType]`), "Insurance"),
		chromedp.SendKeys(chromedp.CSS(`input[name=identificationNo]`), "POL-2291"),
		chromedp.SetValue(chromedp.CSS(`input[name=expiryDate]`), expiry),
		chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{scan}),
		chromedp.Click(chromedp.CSS(`form.form button.primary`)),
		s.waitText("#document-list", "Insurance"),
		chromedp.WaitVisible(chromedp.CSS(`#document-list tr.row-expiring .badge.state-expiring`)),
		s.waitText("#document-list", "in 10 days"),
	)
	s.screenshot("documents")
	docs, _, err := e.Core.Office.Documents(e.users["admin"], model.Query{})
	if err != nil || len(docs) != 1 || len(docs[0].FileIDs) != 1 || docs[0].Status != office.DocumentExpiring {
		t.Fatalf("document from the browser: %+v %v", docs, err)
	}

	// Maintenance: record a service with a task.
	s.do("add a service record",
		chromedp.Navigate(dash+"/maintenance/new"),
		chromedp.WaitVisible(chromedp.CSS(`input[name=title]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=title]`), "Spring service"),
		chromedp.SetValue(chromedp.CSS(`select[name=vehicleId]`), itoa(e.devices["van2"].ID)),
		chromedp.SetValue(chromedp.CSS(`input[name=serviceDate]`), e.now.Format(time.DateOnly)),
		chromedp.SendKeys(chromedp.CSS(`input[name=odometer]`), "88000"),
		chromedp.SendKeys(chromedp.CSS(`input[name=expenditure]`), "412.50"),
		chromedp.Click(chromedp.CSS(`input[name=serviceTasks][value="Oil change"]`)),
		chromedp.Click(chromedp.CSS(`form.form button.primary`)),
		s.waitText("#service-list", "Spring service"),
		s.waitText("#service-list tfoot", "412.50"),
	)
	s.screenshot("maintenance")

	// Nothing came from elsewhere, and no script failed.
	s.checkClean()
}
