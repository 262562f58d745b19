package dashboard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/xuri/excelize/v2"
)

// tracker is a phone running the Traccar Client app: it reports over
// OsmAnd's HTTP protocol to a real listener in front of the test's core.
type tracker struct {
	t   *testing.T
	url string
	id  string
}

func newTracker(t *testing.T, e *env, uniqueID string) *tracker {
	var osmand protocols.HTTPProtocol
	for _, entry := range catalog.All() {
		if entry.Name == "osmand" {
			osmand = entry.HTTP
		}
	}
	srv, err := protocols.ListenHTTP(osmand, "127.0.0.1:0", e.Core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return &tracker{t: t, url: "http://" + srv.Addr().String(), id: uniqueID}
}

// report sends one fix (speed in knots) and fails unless it was stored.
func (tr *tracker) report(at time.Time, lat, lon, knots float64) {
	tr.t.Helper()
	q := url.Values{"id": {tr.id}, "timestamp": {fmt.Sprint(at.Unix())}, "lat": {fmt.Sprint(lat)},
		"lon": {fmt.Sprint(lon)}, "speed": {fmt.Sprint(knots)}}
	res, err := http.Get(tr.url + "/?" + q.Encode())
	if err != nil {
		tr.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		tr.t.Fatalf("tracker report at %v: HTTP %d", at, res.StatusCode)
	}
}

// TestFirstHour walks a new fleet owner's first hour in Chromium: sign in,
// change the generated password, add a vehicle, see it move live as its
// tracker reports, open its page, replay yesterday (the tracker uploads
// what it stored), run a trips report and download it, add a user and give
// them the vehicle, set an overspeed alert and see it fire, and see a document the new user
// filed from the app.
func TestFirstHour(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	s := newSession(t, e)
	dash := s.base + "/dashboard"
	// The notifier runs as in fleetd serve: alerts reach the web.
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.Core.Notify.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })

	s.signIn(s.base+"/", "admin@example.com", password, "Overview")

	// The generated password goes first: the name in the top bar leads to
	// the profile.
	s.do("change the admin password",
		chromedp.Click(chromedp.CSS(`header.topbar a[href="/dashboard/profile"]`)),
		chromedp.WaitVisible(chromedp.CSS(`input[name=currentPassword]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=currentPassword]`), password),
		chromedp.SendKeys(chromedp.CSS(`input[name=newPassword]`), "a much longer passphrase"),
		chromedp.SendKeys(chromedp.CSS(`input[name=repeatPassword]`), "a much longer passphrase"),
		chromedp.Click(chromedp.CSS(`#profile-password button.primary`)),
		s.waitText(".notice", "Password changed"),
	)
	if _, err := e.Core.Accounts.Login("admin@example.com", password, "", "127.0.0.1"); err == nil {
		t.Error("the old admin password still signs in")
	}
	if _, err := e.Core.Accounts.Login("admin@example.com", "a much longer passphrase", "", "127.0.0.1"); err != nil {
		t.Errorf("the new admin password: %v", err)
	}

	// A vehicle with the phone's identifier, then the tracker reports.
	const phoneID = "482910"
	s.do("add a vehicle",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/fleet"]`)),
		s.waitText("h1", "Fleet"),
		chromedp.Navigate(dash+"/fleet/devices/new"),
		chromedp.WaitVisible(chromedp.CSS(`input[name=uniqueId]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Delivery Van"),
		chromedp.SendKeys(chromedp.CSS(`input[name=uniqueId]`), phoneID),
		chromedp.Click(chromedp.CSS(`form.form button.primary`)),
		s.waitText("#fleet-list table", "Delivery Van"),
	)
	van, err := e.Core.Ingest.Identify("osmand", phoneID, "198.51.100.9:40000")
	if err != nil {
		t.Fatalf("the vehicle added in the browser: %v", err)
	}

	// The tracker was on the road yesterday before it was pointed here: it
	// uploads what it stored, a 10-minute trip at 20 km/h between stops.
	tr := newTracker(t, e, phoneID)
	yesterday := e.now.AddDate(0, 0, -1)
	morning := time.Date(yesterday.Year(), yesterday.Month(), yesterday.Day(), 10, 0, 0, 0, time.UTC)
	lat := 52.5
	for m := 0; m <= 35; m++ {
		knots := 0.0
		if m > 10 && m <= 20 {
			lat, knots = lat+0.003, 10.8
		}
		tr.report(morning.Add(time.Duration(m)*time.Minute), lat, 13.4, knots)
	}

	// Live: the fleet page shows each new report without a reload.
	s.do("the van appears live",
		chromedp.Navigate(dash+"/fleet"),
		waitTrue(`document.querySelector('[data-live-state]') && document.querySelector('[data-live-state]').dataset.liveState === 'live'`),
		waitTrue(markerAt(van.ID, lat, 13.4)),
		waitTrue(`window.sameLoad = true`),
	)
	tr.report(e.now.Add(-30*time.Second), 52.52, 13.41, 27)
	s.do("the van moves live", waitTrue(markerAt(van.ID, 52.52, 13.41)), waitTrue(`window.sameLoad === true`))
	tr.report(e.now, 52.53, 13.42, 27)
	s.do("and again", waitTrue(markerAt(van.ID, 52.53, 13.42)),
		s.waitText(`tr[data-device="`+itoa(van.ID)+`"] [data-cell=speed]`, "50 km/h"))
	s.do("clusters settle", waitTrue(`!document.querySelector('#map .leaflet-cluster-anim, #map .leaflet-zoom-anim')`))
	s.screenshot("first-hour-live")

	// Its page, then yesterday replayed.
	day := yesterday.Format(time.DateOnly)
	s.do("open the vehicle's page",
		chromedp.Click(chromedp.CSS(`#fleet-list a[href="/dashboard/fleet/devices/`+itoa(van.ID)+`"]`)),
		s.waitText("h1", "Delivery Van"),
		waitTrue(`fleetdVehicle.liveAt().join(',') === '52.53,13.42'`),
	)
	s.do("replay yesterday",
		chromedp.SetValue(chromedp.CSS(`form.vehicle-range input[name=from]`), day),
		chromedp.SetValue(chromedp.CSS(`form.vehicle-range input[name=to]`), day),
		chromedp.Click(chromedp.CSS(`form.vehicle-range button[type=submit]`)),
		waitTrue(`fleetdVehicle.routePoints() === 36`),
		s.waitText("#trips", "3.3 km"),
		chromedp.SetValue(chromedp.CSS(`[data-replay=speed]`), "16"),
		chromedp.Click(chromedp.CSS(`[data-replay=play]`)),
		s.waitText(`[data-replay=readout]`, "36 of 36"),
		waitTrue(`fleetdVehicle.replayAt()[0] > 52.52`),
	)
	s.screenshot("first-hour-replay")

	// A trips report for yesterday, downloaded as Excel.
	downloads := t.TempDir()
	s.do("run a trips report",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/reports"]`)),
		s.waitText("h1", "Reports"),
		chromedp.SetValue(chromedp.CSS(`select[name=type]`), "trips"),
		chromedp.SetValue(chromedp.CSS(`select[name=range]`), "yesterday"),
		chromedp.SetValue(chromedp.CSS(`select[name=deviceId]`), itoa(van.ID)),
		chromedp.Click(chromedp.CSS(`form.report-form button[type=submit]`)),
		s.waitText("#report-result td[data-label=Distance]", "3.3 km"),
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads})
			return err
		}),
		chromedp.Click(chromedp.CSS(`#report-download`)),
	)
	workbook := waitForFile(t, downloads, ".xlsx")
	if x, err := excelize.OpenFile(workbook); err != nil {
		t.Errorf("the downloaded report: %v", err)
	} else {
		if rows, err := x.GetRows("Delivery Van"); err != nil || len(rows) != 2 {
			t.Errorf("the downloaded report's Delivery Van sheet (a header and one trip): %v %v", rows, err)
		}
		x.Close()
	}
	s.screenshot("first-hour-report")

	// A driver gets an account and the van.
	s.do("add a user",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/users"]`)),
		chromedp.Click(chromedp.CSS(`a[href="/dashboard/users/new"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#user-details input[name=email]`)),
		chromedp.SendKeys(chromedp.CSS(`#user-details input[name=name]`), "Dan Driver"),
		chromedp.SendKeys(chromedp.CSS(`#user-details input[name=email]`), "dan@example.com"),
		chromedp.SendKeys(chromedp.CSS(`#user-details input[name=password]`), "dan-first-pass"),
		chromedp.Click(chromedp.CSS(`#user-details button.primary`)),
		s.waitText(".notice", "User added"),
		chromedp.Click(chromedp.CSS(`#user-access input[name=device][value="`+itoa(van.ID)+`"]`)),
		chromedp.Click(chromedp.CSS(`#user-access button.primary`)),
		s.waitText(".notice", "Access saved"),
	)
	dan, err := e.Core.Accounts.Login("dan@example.com", "dan-first-pass", "", "127.0.0.1")
	if err != nil {
		t.Fatalf("the new user signs in: %v", err)
	}
	if _, err := e.Core.Fleet.Devices.Get(dan, van.ID); err != nil {
		t.Errorf("the new user does not see the van: %v", err)
	}

	// Speeding over 80 km/h on the van is an alert.
	s.do("set an overspeed alert",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/alerts"]`)),
		chromedp.Navigate(dash+"/alerts/new"),
		chromedp.WaitVisible(chromedp.CSS(`select[name=type]`)),
		chromedp.SetValue(chromedp.CSS(`select[name=type]`), model.EventDeviceOverspeed),
		chromedp.SendKeys(chromedp.CSS(`input[name=speedLimit]`), "80"),
		chromedp.Click(chromedp.CSS(`input[name=devices][value="`+itoa(van.ID)+`"]`)),
		chromedp.Click(chromedp.CSS(`form.alert-form button.primary`)),
		s.waitText("ul.alert-list", "over 80 km/h"),
	)
	if d, _ := e.Core.Fleet.Devices.Get(model.System(), van.ID); d.Attributes[fleet.SpeedLimitKey] != 43.2 {
		t.Errorf("the van's speed limit after the alert form: %v", d.Attributes)
	}
	// The van speeds: the fleet page says so as it happens.
	s.do("back to the live map", chromedp.Navigate(dash+"/fleet"),
		waitTrue(`document.querySelector('[data-live-state]').dataset.liveState === 'live'`))
	tr.report(e.now.Add(time.Second), 52.54, 13.42, 50)
	s.do("the overspeed shows", s.waitText("#toast", "Delivery Van: device overspeed"),
		waitTrue(markerAt(van.ID, 52.54, 13.42)))
	s.screenshot("first-hour-overspeed")

	// Dan files the van's insurance from the app (/api2); the office sees it.
	danSession := apiSession(t, s.base, "dan@example.com", "dan-first-pass")
	body := fmt.Sprintf(`{"documentOf":"vehicle","entityId":"%d","documentType":"Insurance","identificationNo":"INS-77","expiryDate":"%s"}`,
		van.ID, e.now.AddDate(0, 0, 20).Format(time.DateOnly))
	req, _ := http.NewRequest("POST", s.base+"/api2/documents", bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(danSession)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("filing from the app: %v %v", res, err)
	}
	var filed struct {
		ID string `json:"$id"`
	}
	_ = json.NewDecoder(res.Body).Decode(&filed)
	res.Body.Close()
	s.do("see the document the driver filed",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/documents"]`)),
		s.waitText("#document-list", "INS-77"),
		s.waitText("#document-list", "Dan Driver"),
		chromedp.Click(chromedp.CSS(`#document-list a[href="/dashboard/documents/`+filed.ID+`"]`)),
		s.waitText("main", "Filed by Dan Driver"),
	)
	s.screenshot("first-hour-document")

	s.checkClean()
}

// apiSession signs in through Traccar's POST /api/session, as an app does.
func apiSession(t *testing.T, base, email, pass string) *http.Cookie {
	t.Helper()
	res, err := http.PostForm(base+"/api/session", url.Values{"email": {email}, "password": {pass}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == "JSESSIONID" {
			return c
		}
	}
	t.Fatalf("no session from /api/session: HTTP %d", res.StatusCode)
	return nil
}

// waitForFile waits up to 15 s for a finished download ending in ext.
func waitForFile(t *testing.T, dir, ext string) string {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(dir, "*"+ext)); len(m) > 0 {
			if info, err := os.Stat(m[0]); err == nil && info.Size() > 0 {
				return m[0]
			}
		}
	}
	t.Fatalf("no %s downloaded into %s", ext, dir)
	return ""
}
