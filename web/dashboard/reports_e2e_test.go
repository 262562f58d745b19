package dashboard_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"
)

// TestBrowserReports runs a trips report in headless Chromium, reads the
// trip in the table and downloads the workbook, checking the file the
// browser saved and the link's answer (by fetch: a download's answer is
// not reported as a network response).
func TestBrowserReports(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	e := newEnv(t)
	e.drive(t, "bus4", nil)
	s := newSession(t, e)
	dash := s.base + "/dashboard"
	bus := itoa(e.IDs["bus4"])

	// The download's progress: the name of the file once it is saved.
	var mu sync.Mutex
	var saved string
	if err := chromedp.Listen(s.ctx, func(ev any) {
		if ev, ok := ev.(*cdpbrowser.EventDownloadProgress); ok && ev.State == cdpbrowser.DownloadProgressStateCompleted {
			mu.Lock()
			saved = ev.GUID
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	s.signIn(dash+"/login", "admin@example.com", password, "Overview")
	s.do("run a trips report",
		chromedp.Click(chromedp.CSS(`nav.nav a[href="/dashboard/reports"]`)),
		s.waitText("h1", "Reports"),
		chromedp.SetValue(chromedp.CSS(`select[name=type]`), "trips"),
		chromedp.SetValue(chromedp.CSS(`select[name=range]`), "custom"),
		chromedp.SetValue(chromedp.CSS(`select[name=deviceId]`), bus),
		chromedp.SetValue(chromedp.CSS(`input[name=from]`), "2024-01-02"),
		chromedp.SetValue(chromedp.CSS(`input[name=to]`), "2024-01-02"),
		chromedp.Click(chromedp.CSS(`form.report-form button[type=submit]`)),
		s.waitText("#report-result", "Trips · 2024-01-02"),
		s.waitText("#report-result td[data-label=Distance]", "3.3 km"),
	)
	if q := s.eval(`location.search`).(string); !strings.Contains(q, "type=trips") || !strings.Contains(q, "deviceId="+bus) {
		t.Errorf("the report's URL is %q", q)
	}
	s.screenshot("reports")

	s.do("download as Excel",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
				Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: new(true)})
			return err
		}),
		chromedp.Click(chromedp.CSS(`#report-download`)),
		waitGo(func() bool { mu.Lock(); defer mu.Unlock(); return saved != "" }),
	)
	answer, err := chromedp.Run(s.ctx, chromedp.Evaluate[string](`fetch(document.querySelector('#report-download').href).then(r =>
		[r.status, r.headers.get('Content-Type'), r.headers.get('Content-Disposition')].join(' | '))`, chromedp.EvalAwaitPromise))
	if want := `200 | application/vnd.openxmlformats-officedocument.spreadsheetml.sheet | attachment; filename="trips-2024-01-02.xlsx"`; err != nil || answer != want {
		t.Errorf("the link answers %q (%v), want %q", answer, err, want)
	}
	mu.Lock()
	body, err := os.ReadFile(filepath.Join(dir, saved))
	mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("the saved file is not a workbook: %v", err)
	}
	defer f.Close()
	cell, err := f.GetCellValue("Bus Four", "E2")
	if got, perr := strconv.ParseFloat(cell, 64); err != nil || perr != nil || got != tripDistance(t, e) {
		t.Errorf("the saved trip's distance is %q (%v), want %v", cell, err, tripDistance(t, e))
	}

	// The summary's and the route's charts.
	s.do("a daily summary", chromedp.Navigate(dash+"/reports?type=summary&range=custom&from=2024-01-01&to=2024-01-03&deviceId="+bus),
		waitTrue(`document.querySelectorAll('#report-result svg[role=img] rect.bar').length === 9`))
	s.screenshot("reports-summary")
	s.do("a route", chromedp.Navigate(dash+"/reports?type=route&range=custom&from=2024-01-02&to=2024-01-02&deviceId="+bus),
		waitTrue(`document.querySelector('#report-result svg polyline.speed-line').points.length === 36`))
	s.screenshot("reports-route")

	// At phone width the reports fit without sideways scrolling, and in
	// dark mode keep no daylight box.
	s.do("phone width", chromedp.EmulateViewport(390, 844))
	for _, scheme := range []string{"light", "dark"} {
		for _, typ := range []string{"summary", "route"} {
			s.do(scheme+" "+typ, colorScheme(scheme),
				chromedp.Navigate(dash+"/reports?type="+typ+"&range=custom&from=2024-01-01&to=2024-01-03&deviceId="+bus),
				chromedp.WaitVisible(chromedp.CSS("#report-result svg")))
			if w := s.eval(`document.documentElement.scrollWidth`); w.(float64) > 391 {
				t.Errorf("the %s report is %v px wide at phone width (%s)", typ, w, scheme)
			}
			if boxes := s.eval(lightBoxes).([]any); scheme == "dark" && len(boxes) > 0 {
				t.Errorf("the %s report in dark mode has daylight boxes: %v", typ, boxes)
			}
		}
		s.screenshot("phone-" + scheme + "-reports")
	}
	s.checkClean()
}

// waitGo waits until cond, checked in Go every 50 ms, holds.
func waitGo(cond func() bool) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		for !cond() {
			select {
			case <-ctx.Done():
				return chromedp.Void{}, ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		}
		return chromedp.Void{}, nil
	}
}
