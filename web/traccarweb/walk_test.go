package traccarweb_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// result is what one step of the walk saw.
type result struct {
	N        int
	Area     string
	Name     string
	URL      string
	Status   string // OK, ERROR (it worked, with an error shown or logged), BROKEN (it could not be done)
	Problems []string
	Failed   []apiCall
	Alerts   []string
	Console  []string
	Calls    int
	All      []string // every /api call of the step, for the broken ones
	External []string // failures of outside resources meanwhile (not counted)
	Retries  []string // gestures made again (see chooseWhen, press)
	Own      []string // console lines that are traccar-web's own doing (not counted, see ownConsole)
	Took     time.Duration
}

// walker runs the steps and keeps their results.
type walker struct {
	t     *testing.T
	b     *browser
	web   *webServer
	admin *apiClient
	f     *fleetd

	results []result
	setup   []string // failures seeding fleetd through its API
	notes   []string
	shots   string

	callMark, netMark, conMark, extMark int
	ids                                 map[string]int64
}

// allowed are answers that are part of a working app, not failures: the
// app asks for the session before anyone logged in.
var allowed = map[string]bool{"GET /api/session 404": true, "GET /api/session 401": true}

// step runs one step: fn does what a user does, then the walk waits for
// the page to settle and collects what went wrong meanwhile.
func (w *walker) step(area, name string, fn func(ctx context.Context) error) {
	w.collectLate()
	start := time.Now()
	ctx, cancel := context.WithTimeout(w.b.ctx, 15*time.Second)
	err := fn(ctx)
	cancel()
	w.web.waitQuiet(700*time.Millisecond, 12*time.Second)
	r := result{N: len(w.results) + 1, Area: area, Name: name, URL: w.b.location()}
	if err != nil {
		r.Problems = append(r.Problems, "could not be done: "+err.Error())
	}
	r.Retries, w.b.retries = w.b.retries, nil
	w.collect(&r)
	if text, err := w.pageText(); err == nil && len(text) < 3 {
		r.Problems = append(r.Problems, "empty page")
	}
	r.Took = time.Since(start)
	w.results = append(w.results, r)
	w.finish(len(w.results) - 1)
	w.t.Logf("%3d %-6s %s — %s", r.N, w.results[len(w.results)-1].Status, area, name)
}

func (w *walker) pageText() (string, error) {
	ctx, cancel := context.WithTimeout(w.b.ctx, 3*time.Second)
	defer cancel()
	return eval[string](ctx, "window.__tw ? __tw.pageText() : document.body.innerText")
}

type alert struct {
	Text  string
	Crash bool
	At    string
}

// collect adds to r what happened since the last marks.
func (w *walker) collect(r *result) {
	calls, next := w.web.callsSince(w.callMark)
	w.callMark = next
	r.Calls += len(calls)
	for _, c := range calls {
		r.All = append(r.All, fmt.Sprintf("%s %s %d", c.Method, c.Path, c.Status))
		if c.Status >= 400 && !allowed[fmt.Sprintf("%s %s %d", c.Method, strings.SplitN(c.Path, "?", 2)[0], c.Status)] {
			r.Failed = append(r.Failed, c)
		}
	}
	netFails, console, nm, cm := w.b.since(w.netMark, w.conMark)
	w.netMark, w.conMark = nm, cm
	var ext []string
	ext, w.extMark = w.b.externalSince(w.extMark)
	r.External = append(r.External, ext...)
	r.Problems = append(r.Problems, netFails...)
	r.Console = append(r.Console, console...)
	// Drain the alerts a few times: the app shows queued errors one by one.
	for i := 0; i < 10; i++ {
		ctx, cancel := context.WithTimeout(w.b.ctx, 3*time.Second)
		as, err := eval[[]alert](ctx, "window.__tw ? __tw.drain() : []")
		cancel()
		if err != nil || len(as) == 0 {
			break
		}
		for _, a := range as {
			if a.Crash {
				r.Problems = append(r.Problems, "page crashed (ErrorBoundary): "+firstLine(a.Text))
			} else {
				r.Alerts = append(r.Alerts, a.Text)
			}
		}
		time.Sleep(400 * time.Millisecond)
	}
}

// collectLate gives the previous step what arrived after it ended.
func (w *walker) collectLate() {
	if len(w.results) == 0 {
		_, w.callMark = w.web.callsSince(w.callMark)
		_, _, w.netMark, w.conMark = w.b.since(w.netMark, w.conMark)
		return
	}
	i := len(w.results) - 1
	w.collect(&w.results[i])
	w.finish(i)
}

func (w *walker) finish(i int) {
	r := &w.results[i]
	// traccar-web's map search (geocoder) fetches an outside host, and its
	// failure shows as a bare «Failed to fetch» alert: not fleetd's.
	if len(r.External) > 0 {
		var kept []string
		for _, a := range r.Alerts {
			if a == "Failed to fetch" && strings.Contains(strings.Join(r.External, " "), "nominatim") {
				r.External = append(r.External, "alert «Failed to fetch» (the map search's request to an outside host)")
				continue
			}
			kept = append(kept, a)
		}
		r.Alerts = kept
	}
	r.Console, r.Own = w.ownConsole(i, r.Console, r.Own)
	switch {
	case len(r.Problems) > 0:
		r.Status = "BROKEN"
	case len(r.Alerts) > 0 || len(r.Failed) > 0 || len(r.Console) > 0:
		r.Status = "ERROR"
	default:
		r.Status = "OK"
	}
	if r.Status != "OK" && w.shots != "" {
		w.b.screenshot(filepath.Join(w.shots, fmt.Sprintf("traccarweb-%03d.png", r.N)))
	}
}

// socketClosing is what Chromium logs when a page calls send() on a
// WebSocket that is closing or closed.
const socketClosing = "WebSocket is already in CLOSING or CLOSED state"

// ownConsole moves out of console the lines that traccar-web's own code
// causes on this walk's path, whatever the server answers, into own.
//
// «WebSocket is already in CLOSING or CLOSED state» on entering or leaving
// the logs page (/reports/logs): traccar-web 6.14.5's SocketController
// reconnects its socket on every route change (src/SocketController.jsx
// line 147: the useAsyncTask that opens the socket depends on
// connectSocket, whose useCallback depends on react-router's navigate,
// which changes with the location's pathname; its cleanup at line 156
// calls socketRef.current.close(4000) and the new socket is made only
// after GET /api/devices answers, line 150). The logs page
// (src/reports/LogsPage.jsx lines 35-36) sets includeLogs on mount and
// clears it on unmount, and SocketController's effect at line 144 then
// calls socketRef.current.send({logs}) on the socket the same navigation
// has just closed: Chromium logs the line. fleetd is not asked anything
// there (the socket was closed by the app, with its own code 4000).
func (w *walker) ownConsole(i int, console, own []string) ([]string, []string) {
	logs := func(u string) bool { return strings.HasPrefix(u, "/reports/logs") }
	nearLogs := logs(w.results[i].URL) || (i > 0 && logs(w.results[i-1].URL))
	var kept []string
	for _, c := range console {
		if nearLogs && strings.Contains(c, socketClosing) {
			own = append(own, c+" (traccar-web's SocketController sends on the socket it closed on the route change to or from /reports/logs)")
			continue
		}
		kept = append(kept, c)
	}
	return kept, own
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// seed fills fleetd with what the walk needs, through its API and the
// OsmAnd protocol port, as an installation would have it.
func (w *walker) seed() {
	a := w.admin
	try := func(what string, err error) bool {
		if err != nil {
			w.setup = append(w.setup, what+": "+err.Error())
			return false
		}
		return true
	}
	var created map[string]any
	id := func() int64 { v, _ := created["id"].(float64); return int64(v) }
	add := func(key, path string, body map[string]any) {
		created = nil
		if try("create "+key, a.call("POST", path, body, &created)) {
			w.ids[key] = id()
		}
	}
	var server map[string]any
	if try("read the server", a.call("GET", "/api/server", nil, &server)) {
		attrs, _ := server["attributes"].(map[string]any)
		if attrs == nil {
			attrs = map[string]any{}
		}
		attrs["totpEnable"] = true
		server["attributes"] = attrs
		try("enable TOTP on the server (server.attributes.totpEnable)", a.call("PUT", "/api/server", server, nil))
	}
	var me map[string]any
	if try("read the session", a.call("GET", "/api/session", nil, &me)) {
		v, _ := me["id"].(float64)
		w.ids["admin"] = int64(v)
	}
	add("user", "/api/users", map[string]any{"name": "Normal User", "email": userEmail, "password": userPassword})
	add("group", "/api/groups", map[string]any{"name": "Fleet A"})
	add("truck", "/api/devices", map[string]any{"name": "Truck 1", "uniqueId": "100001", "groupId": w.ids["group"], "category": "truck"})
	add("van", "/api/devices", map[string]any{"name": "Van 2", "uniqueId": "100002"})
	add("spare", "/api/devices", map[string]any{"name": "Spare 3", "uniqueId": "100003"})
	add("depot", "/api/geofences", map[string]any{"name": "Depot", "area": "CIRCLE (48.8566 2.3522, 400)"})
	add("alice", "/api/drivers", map[string]any{"name": "Alice Driver", "uniqueId": "DRV-1"})
	if w.ids["user"] != 0 && w.ids["van"] != 0 {
		try("give the normal user Van 2", a.call("POST", "/api/permissions", map[string]any{"userId": w.ids["user"], "deviceId": w.ids["van"]}, nil))
	}

	// Truck 1: parked at the depot, a drive east, parked again; Van 2: a
	// few positions. Every minute, ending a minute ago.
	now := time.Now()
	start := now.Add(-40 * time.Minute)
	if day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location()); start.Before(day) {
		start = day
	}
	step := now.Sub(start) / 40
	lat, lon := 48.8566, 2.3522
	for i := 0; i < 39; i++ {
		speed := 0.0
		extra := "ignition=false&driverUniqueId=DRV-1"
		if i >= 8 && i < 26 {
			speed, lon = 32, lon+0.006
			extra = "ignition=true&driverUniqueId=DRV-1"
		}
		if !try("OsmAnd position of Truck 1", feedOsmAnd(w.f, "100001", start.Add(time.Duration(i)*step), lat, lon, speed, extra)) {
			break
		}
	}
	for i := 0; i < 5; i++ {
		if !try("OsmAnd position of Van 2", feedOsmAnd(w.f, "100002", start.Add(time.Duration(i*5)*step), 48.86+float64(i)*0.001, 2.34, 10, "")) {
			break
		}
	}
	// The positions are stored when the latest answers. Traccar answers
	// GET /api/positions?deviceId=N with the device's latest position.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && w.ids["position"] == 0 {
		var latest []map[string]any
		if err := a.call("GET", "/api/positions", nil, &latest); err == nil {
			for _, p := range latest {
				if d, _ := p["deviceId"].(float64); int64(d) == w.ids["truck"] {
					v, _ := p["id"].(float64)
					w.ids["position"] = int64(v)
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if w.ids["position"] == 0 {
		w.setup = append(w.setup, "GET /api/positions: no latest position of Truck 1 after feeding it OsmAnd reports")
	} else {
		// The spec's D1 wants from and to with deviceId (docs/traccar.md):
		// Traccar's latest-position form is the range's last position here.
		var history []map[string]any
		q := url.Values{"deviceId": {fmt.Sprint(w.ids["truck"])}, "from": {start.Add(-time.Hour).UTC().Format(time.RFC3339)},
			"to": {now.Add(time.Minute).UTC().Format(time.RFC3339)}}
		err := a.call("GET", "/api/positions?"+q.Encode(), nil, &history)
		if err == nil && (len(history) == 0 || int64(history[len(history)-1]["id"].(float64)) != w.ids["position"]) {
			err = fmt.Errorf("the range does not end with the latest position %d: %v", w.ids["position"], history)
		}
		try("GET /api/positions?deviceId&from&to", err)
	}
	var events []map[string]any
	q := url.Values{"deviceId": {fmt.Sprint(w.ids["truck"])}, "from": {start.Add(-time.Hour).UTC().Format(time.RFC3339)}, "to": {now.Add(time.Minute).UTC().Format(time.RFC3339)}}
	if err := a.call("GET", "/api/reports/events?"+q.Encode(), nil, &events); err == nil && len(events) > 0 {
		v, _ := events[0]["id"].(float64)
		w.ids["event"] = int64(v)
	}
}

// TestTraccarWeb runs traccar-web in Chromium against fleetd and reports
// every failure a user would meet. It skips unless TRACCAR_WEB is set.
func TestTraccarWeb(t *testing.T) {
	build := webBuild(t)
	chromium := findChromium(t)
	_ = chromium
	began := time.Now()
	dir := t.TempDir()
	f := startFleetd(t, dir)
	web := startWeb(t, build, f.url)
	b := startBrowser(t, web.url)
	b.quiet = func() { web.waitQuiet(400*time.Millisecond, 8*time.Second) }
	w := &walker{t: t, b: b, web: web, f: f, ids: map[string]int64{}, shots: os.Getenv("TRACCARWEB_SCREENSHOTS")}
	if w.shots != "" {
		if err := os.MkdirAll(w.shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.admin = login(t, f.url, adminEmail, adminPassword)
	w.seed()
	w.walkAdmin()
	w.walkUser()
	w.collectLate()

	report := w.report(time.Since(began))
	path := os.Getenv("TRACCARWEB_REPORT")
	if path == "" {
		path = filepath.Join(os.TempDir(), "traccarweb-report.md")
	}
	if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("report written to %s", path)
	var ok, errs, broken int
	for _, r := range w.results {
		switch r.Status {
		case "OK":
			ok++
		case "ERROR":
			errs++
		default:
			broken++
		}
	}
	if errs+broken+len(w.setup) > 0 {
		t.Errorf("traccar-web on fleetd: %d steps OK, %d with errors, %d broken, %d setup failures: see %s",
			ok, errs, broken, len(w.setup), path)
	}
}

// id returns the id of a seeded or created item, or 0.
func (w *walker) id(key string) int64 { return w.ids[key] }

func (w *walker) need(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		if w.ids[k] == 0 {
			return fmt.Errorf("no %s to work on (an earlier step or the setup failed)", k)
		}
	}
	return nil
}

// press clicks what (find, a JavaScript expression) and waits until the
// app sent method path (see matchPath) and the proxy saw the answer, which
// it returns; an answer of 400 or more is an error too. A click that sent
// nothing in a few seconds while the button is still there and enabled
// (it landed while the page re-rendered) is made again; once the request
// went out it is never repeated.
func (w *walker) press(ctx context.Context, what, find, method, path string) (apiCall, error) {
	for attempt := 1; ; attempt++ {
		m := w.web.mark()
		if err := w.b.click(ctx, what, find); err != nil {
			return apiCall{}, err
		}
		sctx, cancel := context.WithTimeout(ctx, 4*time.Second)
		for sctx.Err() == nil && !w.web.sent(m, method, path) {
			select {
			case <-sctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
		}
		cancel()
		if w.web.sent(m, method, path) {
			calls, err := w.web.waitAnswered(ctx, m, 1, method, path)
			if err != nil {
				return apiCall{}, fmt.Errorf("%s: %w", what, err)
			}
			if c := calls[0]; c.Status >= 400 {
				return c, fmt.Errorf("%s: %s %s answered %d", what, c.Method, c.Path, c.Status)
			}
			return calls[0], nil
		}
		still, _ := eval[bool](ctx, "(() => { const p = __tw.point("+find+"); return !!p && !p.disabled; })()")
		if !still || attempt == 3 || ctx.Err() != nil {
			return apiCall{}, fmt.Errorf("%s: clicked, and the app sent no %s %s", what, method, path)
		}
		w.b.retries = append(w.b.retries, fmt.Sprintf("%s: clicked again (the click sent no %s %s)", what, method, path))
	}
}

// pressText is press for the button reading text.
func (w *walker) pressText(ctx context.Context, text, method, path string) error {
	_, err := w.press(ctx, fmt.Sprintf("button %q", text), "__tw.byText("+js(text)+")", method, path)
	return err
}

// confirmRemove presses Remove in the confirmation snackbar and waits for
// the DELETE it sends.
func (w *walker) confirmRemove(ctx context.Context, path string) error {
	_, err := w.press(ctx, "Remove in the confirmation",
		"(() => { const s = [...document.querySelectorAll('.MuiSnackbar-root')].find(__tw.visible); return s && __tw.byText('Remove', s); })()",
		"DELETE", path)
	return err
}

// expectAPI re-reads path through the API as the administrator and checks
// what the web app saved.
func (w *walker) expectAPI(path string, check func(map[string]any) error) error {
	var obj map[string]any
	if err := w.admin.call("GET", path, nil, &obj); err != nil {
		return fmt.Errorf("re-reading what was saved: %w", err)
	}
	if err := check(obj); err != nil {
		return fmt.Errorf("GET %s after the save: %w", path, err)
	}
	return nil
}

// attribute checks that an object's attribute key holds want.
func attribute(key string, want any) func(map[string]any) error {
	return func(obj map[string]any) error {
		attrs, _ := obj["attributes"].(map[string]any)
		if fmt.Sprint(attrs[key]) != fmt.Sprint(want) {
			return fmt.Errorf("attribute %s is %v, want %v", key, attrs[key], want)
		}
		return nil
	}
}

// pngImage is a real 2x2 PNG, for the app's file inputs.
func pngImage() []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2)))
	return b.Bytes()
}

// upload puts a file named name holding data into the file input sel and
// waits for the request method path it makes the app send, answered 2xx.
func (w *walker) upload(ctx context.Context, what, sel, name string, data []byte, method, path string) error {
	file := filepath.Join(w.t.TempDir(), name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return err
	}
	m := w.web.mark()
	if _, err := chromedp.Run(ctx, chromedp.SetUploadFiles(chromedp.CSS(sel), []string{file})); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	calls, err := w.web.waitAnswered(ctx, m, 1, method, path)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if c := calls[0]; c.Status >= 400 {
		return fmt.Errorf("%s: %s %s answered %d", what, c.Method, c.Path, c.Status)
	}
	return nil
}

// field checks that an object's key holds want.
func field(key string, want any) func(map[string]any) error {
	return func(obj map[string]any) error {
		if fmt.Sprint(obj[key]) != fmt.Sprint(want) {
			return fmt.Errorf("%s is %v, the form saved %v", key, obj[key], want)
		}
		return nil
	}
}

// listed checks that the list at path has (or, with want false, has not)
// an item named name.
func (w *walker) listed(path, name string, want bool) error {
	_, err := w.admin.idOf(path, name)
	switch {
	case want && err != nil:
		return fmt.Errorf("after the save: %w", err)
	case !want && err == nil:
		return fmt.Errorf("GET %s still lists %q", path, name)
	case !want && !strings.Contains(err.Error(), "no item named"):
		return err
	}
	return nil
}

// seq runs the functions in order and stops at the first error.
func seq(fns ...func() error) error {
	for _, fn := range fns {
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

// reportStep opens a report page for the device, presses Show (the
// period is Today) and waits for it to load.
func (w *walker) reportStep(name, path string, query string, wantRows bool) {
	w.step("reports", name+": show today", func(ctx context.Context) error {
		p := path
		if query != "" {
			p += "?" + query
		}
		var m apiMark
		var report apiCall
		if err := seq(
			func() error { return w.b.open(ctx, p) },
			func() error { m = w.web.mark(); return w.b.clickText(ctx, "Show") },
			func() error {
				return w.b.until(ctx, "the report's period in the address", "location.search.includes('from=')")
			},
			// The report's own request (every report asks with from and
			// to), answered, and read by the app.
			func() error {
				for {
					for _, c := range w.web.answered(m, "GET", "/api/*") {
						if strings.Contains(c.Path, "from=") {
							report = c
							return w.b.idle(ctx)
						}
					}
					select {
					case <-ctx.Done():
						return fmt.Errorf("the report's request (GET with from=): %w", ctx.Err())
					case <-time.After(50 * time.Millisecond):
					}
				}
			},
		); err != nil {
			return err
		}
		if !wantRows {
			return nil
		}
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if w.b.until(rctx, "", "document.querySelectorAll('tbody tr').length > 0 && !document.querySelector('tbody .MuiSkeleton-root')") == nil {
			return nil
		}
		// No rows: say what fleetd answered, read again through the API.
		var answer any
		err := w.admin.call("GET", report.Path, nil, &answer)
		b, _ := json.Marshal(answer)
		return fmt.Errorf("the report has no rows, though the device has positions today; %s answers (read again as the administrator: %v) %s", report.Path, err, excerpt(b, 300))
	})
}

func (w *walker) walkAdmin() {
	b := w.b
	truck := func() string { return fmt.Sprint(w.id("truck")) }

	// Logging in.
	w.step("login", "open the app logged out: the login page", func(ctx context.Context) error {
		return seq(
			func() error { return b.load(ctx, "/") },
			func() error { return b.until(ctx, "the login form", "!!document.querySelector('input[name=email]')") },
		)
	})
	w.step("login", "log in as the administrator through the form", func(ctx context.Context) error {
		return seq(
			func() error { return b.fillCSS(ctx, "input[name=email]", adminEmail) },
			func() error { return b.fillCSS(ctx, "input[name=password]", adminPassword) },
			func() error { return w.pressText(ctx, "Login", "POST", "/api/session") },
			func() error { return b.expectText(ctx, "Truck 1") },
		)
	})

	// The main page.
	w.step("main", "map and device list show every device", func(ctx context.Context) error {
		return seq(
			func() error { return b.expectText(ctx, "Van 2") },
			func() error { return b.expectText(ctx, "Spare 3") },
			func() error { return b.until(ctx, "the map", "!!document.querySelector('.maplibregl-map')") },
		)
	})
	deviceRow := func(name string) string {
		return "[...document.querySelectorAll('.MuiListItemButton-root')].filter(__tw.visible).find((e) => e.innerText.includes(" + js(name) + "))"
	}
	w.step("main", "select Truck 1 in the list: its status card", func(ctx context.Context) error {
		return seq(
			func() error { return b.click(ctx, "Truck 1 in the device list", deviceRow("Truck 1")) },
			func() error { return b.expectText(ctx, "More Details") },
		)
	})
	w.step("main", "status card → More Details (position page)", func(ctx context.Context) error {
		return seq(
			func() error { return b.clickText(ctx, "More Details") },
			func() error { return b.until(ctx, "the position page", "location.pathname.startsWith('/position/')") },
			func() error {
				return b.until(ctx, "its attributes", "document.querySelectorAll('tbody tr').length > 3")
			},
		)
	})
	w.step("main", "network page of the position", func(ctx context.Context) error {
		if err := w.need(ctx, "position"); err != nil {
			return err
		}
		return b.open(ctx, fmt.Sprintf("/network/%d", w.id("position")))
	})
	w.step("main", "status card → Replay: show today", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/") },
			func() error { return b.click(ctx, "Truck 1 in the device list", deviceRow("Truck 1")) },
			func() error { return b.clickText(ctx, "Replay") },
			func() error { return b.until(ctx, "the replay page", "location.pathname === '/replay'") },
			func() error { return b.clickText(ctx, "Show") },
			func() error { return b.until(ctx, "the replay controls", "location.search.includes('from=')") },
		)
	})
	w.step("main", "status card → Extra → Create Geofence, then save it", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/") },
			func() error { return b.click(ctx, "Truck 1 in the device list", deviceRow("Truck 1")) },
			func() error { return b.clickText(ctx, "Extra") },
			func() error { return w.pressText(ctx, "Create Geofence", "POST", "/api/geofences") },
			func() error {
				return b.until(ctx, "the geofence page", "/^\\/settings\\/geofence\\/\\d+$/.test(location.pathname)")
			},
			func() error { return b.until(ctx, "its form", "!!__tw.input('Name')") },
			func() error { return b.fill(ctx, "Name", "Truck stop") },
			func() error { return w.pressText(ctx, "Save", "PUT", "/api/geofences/*") },
			func() error {
				return b.until(ctx, "leaving the geofence page", "!location.pathname.startsWith('/settings/geofence/')")
			},
		)
	})
	w.step("main", "send a command to Truck 1 (device command page)", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/device/"+truck()+"/command") },
			func() error { return b.choose(ctx, "Type", "Custom command") },
			func() error { return b.fill(ctx, "Data", "STATUS#") },
			func() error { return w.pressText(ctx, "Send", "POST", "/api/commands/send") },
			// The page goes back (navigate(-1)) when the answer came: a
			// later step's navigation must not come before it.
			func() error { return b.until(ctx, "leaving the page", "!location.pathname.endsWith('/command')") },
		)
	})
	w.step("main", "share Truck 1 (share page → Show link)", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/device/"+truck()+"/share") },
			func() error { return w.pressText(ctx, "Show", "POST", "/api/share/device") },
			func() error {
				return b.until(ctx, "a share link", "(() => { const el = __tw.input('Link'); return !!el && el.value.length > 0; })()")
			},
		)
	})
	w.step("main", "accumulators of Truck 1: save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/accumulators/"+truck()) },
			func() error { return b.fill(ctx, "Total Distance", "12.5") },
			func() error { return w.pressText(ctx, "Save", "PUT", "/api/devices/"+truck()+"/accumulators") },
			func() error {
				return b.until(ctx, "leaving the page", "!location.pathname.startsWith('/settings/accumulators')")
			},
		)
	})
	w.step("main", "event page", func(ctx context.Context) error {
		if w.id("event") == 0 {
			w.notes = append(w.notes, "event page: fleetd reported no event for Truck 1 today, so /event/:id was opened with no id to show")
			return b.open(ctx, "/event/1")
		}
		return b.open(ctx, fmt.Sprintf("/event/%d", w.id("event")))
	})
	w.step("main", "video stream page", func(ctx context.Context) error { return b.open(ctx, "/stream?deviceId="+truck()) })
	w.step("main", "emulator page", func(ctx context.Context) error { return b.open(ctx, "/emulator") })

	// Settings: the items the later steps link and report on are made
	// first, through the web app's own forms.
	w.step("settings", "preferences: open and save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return w.pressText(ctx, "Save", "PUT", fmt.Sprintf("/api/users/%d", w.id("admin"))) },
			func() error { return b.until(ctx, "leaving the page", "location.pathname !== '/settings/preferences'") },
		)
	})
	w.step("settings", "server settings: open and save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/server") },
			func() error { return w.pressText(ctx, "Save", "PUT", "/api/server") },
			func() error { return b.until(ctx, "leaving the page", "location.pathname !== '/settings/server'") },
		)
	})
	w.step("settings", "account: generate a TOTP key and save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, fmt.Sprintf("/settings/user/%d", w.id("admin"))) },
			func() error {
				_, err := w.press(ctx, "the TOTP generate button", "(() => { const l = [...document.querySelectorAll('label')].find((l) => __tw.norm(l.textContent) === 'One-time Password Key'); return l && l.closest('.MuiFormControl-root').querySelector('button'); })()",
					"POST", "/api/users/totp")
				return err
			},
			func() error {
				return b.until(ctx, "a TOTP key", "(() => { const l = [...document.querySelectorAll('label')].find((l) => __tw.norm(l.textContent) === 'One-time Password Key'); const i = l && l.closest('.MuiFormControl-root').querySelector('input'); return !!i && i.value.length > 0; })()")
			},
			func() error { return w.pressText(ctx, "Save", "PUT", fmt.Sprintf("/api/users/%d", w.id("admin"))) },
			func() error {
				return b.until(ctx, "leaving the page", "!location.pathname.startsWith('/settings/user/')")
			},
			func() error {
				return w.expectAPI(fmt.Sprintf("/api/users/%d", w.id("admin")), func(u map[string]any) error {
					if s, _ := u["totpKey"].(string); s == "" {
						return fmt.Errorf("totpKey is empty, the form saved a key")
					}
					return nil
				})
			},
		)
	})
	// create opens list, adds an item through the + button and the form;
	// the form's Save must send POST api, and the API must list the item.
	create := func(name, list, form, api string, fill func(ctx context.Context) error, expect string) {
		w.step("settings", name, func(ctx context.Context) error {
			return seq(
				func() error { return b.open(ctx, "/settings/preferences") },
				func() error { return b.open(ctx, list) },
				func() error {
					return b.click(ctx, "the + button", "[...document.querySelectorAll('.MuiFab-root')].find(__tw.visible)")
				},
				func() error { return b.until(ctx, "the form", "location.pathname === "+js(form)) },
				func() error { return b.until(ctx, "its fields", "!!__tw.byText('Save') && !__tw.busy()") },
				func() error { return fill(ctx) },
				func() error { return w.pressText(ctx, "Save", "POST", api) },
				func() error { return b.until(ctx, "back to the list", "location.pathname === "+js(list)) },
				func() error { return b.expectText(ctx, expect) },
				func() error { return w.listed(api, expect, true) },
			)
		})
	}
	// edit opens the item's form from its row in the list and saves it
	// (PUT api/:id); check, when not nil, re-reads the item through the API.
	edit := func(name, list, row, api string, fill func(ctx context.Context) error, check func() error) {
		w.step("settings", name, func(ctx context.Context) error {
			return seq(
				func() error { return b.open(ctx, "/settings/preferences") },
				func() error { return b.open(ctx, list) },
				func() error { return b.clickIn(ctx, row, "Edit") },
				func() error {
					return b.until(ctx, "the form", "location.pathname.startsWith("+js(strings.TrimSuffix(list, "s")+"/")+")")
				},
				// react-router shows the list until the form's code loaded,
				// then the form shows a skeleton until the item loaded.
				func() error {
					return b.until(ctx, "the form's fields", "!!__tw.byText('Save') && !!document.querySelector('.MuiAccordionDetails-root input') && !document.querySelector('.MuiSkeleton-root')")
				},
				func() error {
					if fill == nil {
						return nil
					}
					return fill(ctx)
				},
				func() error { return w.pressText(ctx, "Save", "PUT", api+"/*") },
				func() error { return b.until(ctx, "back to the list", "location.pathname === "+js(list)) },
				func() error {
					if check == nil {
						return nil
					}
					return check()
				},
			)
		})
	}
	noop := func(ctx context.Context) error { return nil }

	w.step("settings", "notifications: list", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/notifications") },
		)
	})
	create("notifications: create (first type, Web channel, all devices)", "/settings/notifications", "/settings/notification", "/api/notifications", func(ctx context.Context) error {
		return seq(
			func() error { return b.choose(ctx, "Type", "") },
			func() error { return b.choose(ctx, "Channels", "Web") },
			func() error { return b.fill(ctx, "Description", "Web alerts") },
			func() error { return b.check(ctx, "All Devices") },
		)
	}, "Web alerts")
	edit("notifications: edit and save", "/settings/notifications", "Web alerts", "/api/notifications", nil, nil)

	create("drivers: create", "/settings/drivers", "/settings/driver", "/api/drivers", func(ctx context.Context) error {
		return seq(
			func() error { return b.fill(ctx, "Name", "Bob Driver") },
			func() error { return b.fill(ctx, "Identifier", "DRV-2") },
		)
	}, "Bob Driver")
	edit("drivers: edit and save", "/settings/drivers", "Alice Driver", "/api/drivers", noop, nil)

	create("calendars: create (simple calendar)", "/settings/calendars", "/settings/calendar", "/api/calendars", func(ctx context.Context) error {
		return b.fill(ctx, "Name", "Weekdays")
	}, "Weekdays")
	edit("calendars: edit and save", "/settings/calendars", "Weekdays", "/api/calendars", noop, nil)

	create("computed attributes: create", "/settings/attributes", "/settings/attribute", "/api/attributes/computed", func(ctx context.Context) error {
		return seq(
			func() error { return b.fill(ctx, "Description", "Speed in km/h") },
			func() error { return b.fill(ctx, "Attribute", "speedKmh") },
			func() error {
				return b.click(ctx, "the new attribute option", "__tw.option('Add \"speedKmh\"') || __tw.option('speedKmh')")
			},
			func() error { return b.fill(ctx, "Expression", "speed * 1.852") },
			func() error { return b.choose(ctx, "Type", "Number") },
		)
	}, "Speed in km/h")
	w.step("settings", "computed attributes: edit, test the expression on Truck 1, save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/attributes") },
			func() error { return b.clickIn(ctx, "Speed in km/h", "Edit") },
			func() error { return b.until(ctx, "the form", "location.pathname.startsWith('/settings/attribute/')") },
			func() error {
				return b.until(ctx, "the form's fields", "!!__tw.byText('Save') && !!__tw.input('Expression') && !document.querySelector('.MuiSkeleton-root')")
			},
			// The device picker is in the folded Test section; Test
			// Expression stays disabled until a device is picked.
			func() error { return b.choose(ctx, "Device", "Truck 1") },
			func() error {
				c, err := w.press(ctx, "button \"Test Expression\"", "__tw.byText('Test Expression')", "POST", "/api/attributes/computed/test")
				if err == nil && !strings.Contains(c.Path, "deviceId="+truck()) {
					err = fmt.Errorf("the test was sent as %s, not for Truck 1 (deviceId=%s)", c.Path, truck())
				}
				return err
			},
			// Its answer shows in a snackbar.
			func() error {
				return b.until(ctx, "the test's result", "[...document.querySelectorAll('.MuiSnackbarContent-message')].some((e) => __tw.visible(e) && __tw.norm(e.textContent) !== '')")
			},
			func() error { return w.pressText(ctx, "Save", "PUT", "/api/attributes/computed/*") },
			func() error { return b.until(ctx, "back to the list", "location.pathname === '/settings/attributes'") },
		)
	})

	create("maintenance: create", "/settings/maintenances", "/settings/maintenance", "/api/maintenance", func(ctx context.Context) error {
		return seq(
			func() error { return b.fill(ctx, "Name", "Oil change") },
			func() error { return b.choose(ctx, "Type", "") },
			func() error { return b.fill(ctx, "Start", "1000") },
			func() error { return b.fill(ctx, "Period", "5000") },
		)
	}, "Oil change")
	edit("maintenance: edit and save", "/settings/maintenances", "Oil change", "/api/maintenance", noop, nil)

	create("saved commands: create", "/settings/commands", "/settings/command", "/api/commands", func(ctx context.Context) error {
		return seq(
			func() error { return b.fill(ctx, "Description", "Ask status") },
			func() error { return b.choose(ctx, "Type", "Custom command") },
			func() error { return b.fill(ctx, "Data", "STATUS#") },
		)
	}, "Ask status")
	edit("saved commands: edit and save", "/settings/commands", "Ask status", "/api/commands", noop, nil)

	w.step("settings", "groups: list", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/groups") },
			func() error { return b.expectText(ctx, "Fleet A") },
		)
	})
	create("groups: create", "/settings/groups", "/settings/group", "/api/groups", func(ctx context.Context) error {
		return b.fill(ctx, "Name", "Fleet B")
	}, "Fleet B")
	edit("groups: edit and save (parent group Fleet A)", "/settings/groups", "Fleet B", "/api/groups", func(ctx context.Context) error {
		return b.choose(ctx, "Group", "Fleet A")
	}, func() error {
		id, err := w.admin.idOf("/api/groups", "Fleet B")
		if err != nil {
			return err
		}
		return w.expectAPI(fmt.Sprintf("/api/groups/%d", id), field("groupId", w.id("group")))
	})
	w.step("settings", "groups: send a command to Fleet A", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/groups") },
			func() error { return b.clickIn(ctx, "Fleet A", "Command") },
			// The group command page has only custom commands: its Type is fixed.
			func() error { return b.fill(ctx, "Data", "STATUS#") },
			func() error { return w.pressText(ctx, "Send", "POST", "/api/commands/send") },
			func() error { return b.until(ctx, "leaving the page", "!location.pathname.endsWith('/command')") },
		)
	})
	w.step("settings", "groups: share Fleet A", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/groups") },
			func() error { return b.clickIn(ctx, "Fleet A", "Share") },
			func() error { return b.until(ctx, "the share page", "location.pathname.endsWith('/share')") },
			func() error { return w.pressText(ctx, "Show", "POST", "/api/share/group") },
			func() error {
				return b.until(ctx, "a share link", "(() => { const el = __tw.input('Link'); return !!el && el.value.length > 0; })()")
			},
		)
	})

	w.step("settings", "devices: list", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/devices") },
			func() error { return b.expectText(ctx, "Spare 3") },
		)
	})
	create("devices: create", "/settings/devices", "/settings/device", "/api/devices", func(ctx context.Context) error {
		return seq(
			func() error { return b.fill(ctx, "Name", "Car 4") },
			func() error { return b.fill(ctx, "Identifier", "100004") },
		)
	}, "Car 4")
	edit("devices: edit and save (group Fleet A)", "/settings/devices", "Car 4", "/api/devices", func(ctx context.Context) error {
		return b.choose(ctx, "Group", "Fleet A")
	}, func() error {
		id, err := w.admin.idOf("/api/devices", "Car 4")
		if err != nil {
			return err
		}
		return w.expectAPI(fmt.Sprintf("/api/devices/%d", id), field("groupId", w.id("group")))
	})
	w.step("settings", "devices: upload Truck 1's image, save, and the image is served", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/device/"+truck()) },
			func() error {
				return w.upload(ctx, "the device image", "input[type=file][accept='image/*']", "truck.png", pngImage(), "POST", "/api/devices/"+truck()+"/image")
			},
			func() error { return w.pressText(ctx, "Save", "PUT", "/api/devices/"+truck()) },
			func() error { return w.expectAPI("/api/devices/"+truck(), attribute("deviceImage", "device.png")) },
			func() error { return w.admin.call("GET", "/api/media/100001/device.png", nil, nil) },
		)
	})
	w.step("settings", "server settings: upload a file (logo), and it is served", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/server") },
			func() error {
				return w.upload(ctx, "the server file", "input[type=file]", "logo.png", pngImage(), "POST", "/api/server/file/logo.png")
			},
			func() error { return w.admin.call("GET", "/api/server/file/logo.png", nil, nil) },
		)
	})
	// The geofences page lists them with the usual Edit and Remove buttons.
	geofenceButton := func(name, action string) string {
		return "(() => { const r = [...document.querySelectorAll('.MuiListItemButton-root')].filter(__tw.visible).find((e) => __tw.norm(e.textContent).startsWith(" + js(name) + ")); return r && __tw.byText(" + js(action) + ", r); })()"
	}
	w.step("settings", "geofences: edit Depot (geofences page) and save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/geofences") },
			func() error { return b.click(ctx, "the edit button of Depot", geofenceButton("Depot", "Edit")) },
			func() error { return b.until(ctx, "the form", "location.pathname.startsWith('/settings/geofence/')") },
			func() error {
				return b.until(ctx, "its fields", "!!__tw.input('Name') && !document.querySelector('.MuiSkeleton-root')")
			},
			func() error { return b.fill(ctx, "Name", "Depot") },
			func() error { return w.pressText(ctx, "Save", "PUT", fmt.Sprintf("/api/geofences/%d", w.id("depot"))) },
			func() error { return b.until(ctx, "back to the list", "location.pathname === '/geofences'") },
		)
	})
	w.step("settings", "geofences: list page", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/geofences") },
			func() error { return b.expectText(ctx, "Depot") },
		)
	})

	// Connections pages: each link is a POST /api/permissions. A field
	// (traccar-web's LinkField) loads two lists when it gets the focus: all
	// the items (GET api) and those linked (GET api?deviceId=N); picking
	// an option before the second arrived fails in the app («Cannot read
	// properties of undefined (reading 'map')», LinkField's onChange maps
	// the linked list), so the option is clicked only when both answered
	// and the app read them. The link is then checked through the API.
	linkAPI := map[string]string{
		"Devices": "/api/devices", "Groups": "/api/groups", "Geofences": "/api/geofences",
		"Notifications": "/api/notifications", "Calendars": "/api/calendars", "Drivers": "/api/drivers",
		"Computed Attributes": "/api/attributes/computed", "Saved Commands": "/api/commands", "Maintenance": "/api/maintenance",
	}
	link := func(name, page, key string, id int64, links [][2]string) {
		w.step("connections", name, func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(w.b.ctx, 150*time.Second)
			defer cancel()
			if err := seq(
				func() error { return b.open(ctx, "/settings/preferences") },
				func() error { return b.open(ctx, page) },
			); err != nil {
				return err
			}
			linked := fmt.Sprintf("%s=%d", key, id)
			// Link what can be linked; a failure is reported, the others
			// are still tried.
			var missing []string
			for _, l := range links {
				api := linkAPI[l[0]]
				lctx, cancel := context.WithTimeout(ctx, 25*time.Second)
				m := w.web.mark()
				err := b.chooseWhen(lctx, l[0], l[1], func(ctx context.Context) error {
					for {
						var all, mine bool
						for _, c := range w.web.answered(m, "GET", api) {
							if strings.Contains(c.Path, linked) {
								mine = true
							} else {
								all = true
							}
						}
						if all && mine {
							return b.idle(ctx)
						}
						select {
						case <-ctx.Done():
							return fmt.Errorf("its lists (GET %s, GET %s?%s) did not both arrive: %w", api, api, linked, ctx.Err())
						case <-time.After(50 * time.Millisecond):
						}
					}
				})
				if err == nil {
					var calls []apiCall
					calls, err = w.web.waitAnswered(lctx, m, 1, "POST", "/api/permissions")
					if err == nil && calls[0].Status >= 300 {
						err = fmt.Errorf("POST /api/permissions answered %d", calls[0].Status)
					}
				}
				if err == nil {
					err = w.listed(api+"?"+linked, l[1], true)
				}
				cancel()
				if err != nil {
					missing = append(missing, fmt.Sprintf("%s %s: %v", l[0], l[1], err))
				}
				w.web.waitQuiet(300*time.Millisecond, 5*time.Second)
			}
			if len(missing) > 0 {
				return fmt.Errorf("%s", strings.Join(missing, "; "))
			}
			return nil
		})
	}
	link("device Truck 1: link geofence, notification, driver, computed attribute, saved command, maintenance",
		"/settings/device/"+truck()+"/connections", "deviceId", w.id("truck"), [][2]string{
			{"Geofences", "Depot"}, {"Notifications", "Web alerts"}, {"Drivers", "Alice Driver"},
			{"Computed Attributes", "Speed in km/h"}, {"Saved Commands", "Ask status"}, {"Maintenance", "Oil change"},
		})
	link("group Fleet A: link geofence, notification, driver, computed attribute, saved command, maintenance",
		fmt.Sprintf("/settings/group/%d/connections", w.id("group")), "groupId", w.id("group"), [][2]string{
			{"Geofences", "Depot"}, {"Notifications", "Web alerts"}, {"Drivers", "Bob Driver"},
			{"Computed Attributes", "Speed in km/h"}, {"Saved Commands", "Ask status"}, {"Maintenance", "Oil change"},
		})

	w.step("settings", "users: list", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/users") },
			func() error { return b.expectText(ctx, "Normal User") },
		)
	})
	create("users: create", "/settings/users", "/settings/user", "/api/users", func(ctx context.Context) error {
		return seq(
			func() error { return b.fill(ctx, "Name", "Second User") },
			func() error { return b.fill(ctx, "Email", "second@example.com") },
			func() error { return b.fill(ctx, "Password", "second-passphrase-1") },
		)
	}, "Second User")
	edit("users: edit Normal User and save", "/settings/users", "Normal User", "/api/users", noop, nil)
	link("user Normal User: link devices, group, geofence, notification, calendar, driver, attribute, command, maintenance",
		fmt.Sprintf("/settings/user/%d/connections", w.id("user")), "userId", w.id("user"), [][2]string{
			{"Devices", "Truck 1"}, {"Groups", "Fleet A"}, {"Geofences", "Depot"}, {"Notifications", "Web alerts"},
			{"Calendars", "Weekdays"}, {"Drivers", "Alice Driver"}, {"Computed Attributes", "Speed in km/h"},
			{"Saved Commands", "Ask status"}, {"Maintenance", "Oil change"},
		})
	w.step("settings", "announcement: send to Normal User", func(ctx context.Context) error {
		err := seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/announcement") },
			func() error { return b.choose(ctx, "Users", "Normal User") },
			func() error {
				var list []map[string]any
				if err := w.admin.call("GET", "/api/notifications/notificators?announcement=true", nil, &list); err == nil && len(list) == 0 {
					return errNoChannel
				}
				return b.choose(ctx, "Channels", "")
			},
			func() error { return b.fill(ctx, "Subject", "Hello") },
			func() error { return b.fill(ctx, "Message", "Maintenance tonight") },
			func() error { return b.clickText(ctx, "Send") },
		)
		if err == errNoChannel {
			w.notes = append(w.notes, "announcement: GET /api/notifications/notificators?announcement=true answers [] (no mail or SMS configured; Traccar leaves web out of announcements too), so there is no channel to pick and nothing was sent")
			return nil
		}
		return err
	})

	// Reports over today.
	dev := "deviceId=" + truck()
	w.reportStep("combined", "/reports/combined", dev, true)
	w.reportStep("positions (route)", "/reports/route", dev, true)
	w.reportStep("events", "/reports/events", dev, false)
	w.reportStep("geofences", "/reports/geofences", dev, false)
	w.reportStep("trips", "/reports/trips", dev, false)
	w.reportStep("stops", "/reports/stops", dev, false)
	w.reportStep("summary", "/reports/summary", dev, true)
	w.reportStep("chart", "/reports/chart", dev, false)
	w.reportStep("statistics", "/reports/statistics", "", false)
	w.reportStep("audit", "/reports/audit", "", false)
	w.step("reports", "positions (route): export CSV", func(ctx context.Context) error {
		err := seq(
			func() error { return b.open(ctx, "/reports/route?"+dev) },
			func() error { return b.clickText(ctx, "Show") },
			func() error { return b.until(ctx, "the report", "location.search.includes('from=')") },
			func() error {
				return b.click(ctx, "the split button's menu", "(() => { const g = [...document.querySelectorAll('.MuiButtonGroup-root')].find(__tw.visible); return g && g.querySelectorAll('button')[1]; })()")
			},
			func() error { return b.idle(ctx) },
			// A download (window.location.assign): the page stays.
			func() error { return w.pressText(ctx, "Export (CSV)", "GET", "/api/positions/csv") },
		)
		// An export that fails leaves the app for the error's page.
		if loc, _ := eval[string](ctx, "location.pathname"); !strings.HasPrefix(loc, "/reports/") {
			_ = b.load(ctx, "/reports/route?"+dev)
		}
		return err
	})
	w.step("reports", "events: schedule the report (calendar Weekdays)", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/reports/events?"+dev) },
			func() error {
				return b.click(ctx, "the split button's menu", "(() => { const g = [...document.querySelectorAll('.MuiButtonGroup-root')].find(__tw.visible); return g && g.querySelectorAll('button')[1]; })()")
			},
			func() error { return b.clickText(ctx, "Schedule") },
			func() error { return b.fill(ctx, "Description", "Daily events") },
			func() error { return b.choose(ctx, "Calendar", "Weekdays") },
			func() error { return w.pressText(ctx, "Schedule", "POST", "/api/reports") },
			// Then the device's link (POST /api/permissions/bulk) and the
			// scheduled reports' page.
			func() error {
				return b.until(ctx, "the scheduled reports", "location.pathname === '/reports/scheduled'")
			},
			func() error { return w.listed("/api/reports", "Daily events", true) },
		)
	})
	w.step("reports", "scheduled reports: list", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/reports/scheduled") },
			func() error { return b.expectText(ctx, "Daily events") },
		)
	})
	w.step("reports", "logs (live device frames)", func(ctx context.Context) error {
		return b.open(ctx, "/reports/logs")
	})

	// Removing what the walk created, from each list's Remove button and
	// the confirmation snackbar.
	remove := func(name, list, row, api string) {
		w.step("delete", name, func(ctx context.Context) error {
			return seq(
				func() error { return b.open(ctx, "/settings/preferences") },
				func() error { return b.open(ctx, list) },
				func() error { return b.clickIn(ctx, row, "Remove") },
				func() error { return w.confirmRemove(ctx, api+"/*") },
				func() error {
					return b.until(ctx, row+" to leave the list", "!__tw.row("+js(row)+")")
				},
				func() error { return w.listed(api, row, false) },
			)
		})
	}
	w.step("delete", "scheduled report", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/reports/scheduled") },
			func() error {
				return b.click(ctx, "its remove button", "(() => { const r = __tw.row('Daily events'); return r && r.querySelector('button'); })()")
			},
			func() error { return w.confirmRemove(ctx, "/api/reports/*") },
			func() error { return b.until(ctx, "it to leave the list", "!__tw.row('Daily events')") },
			func() error { return w.listed("/api/reports", "Daily events", false) },
		)
	})
	remove("device Car 4", "/settings/devices", "Car 4", "/api/devices")
	remove("group Fleet B", "/settings/groups", "Fleet B", "/api/groups")
	remove("user Second User", "/settings/users", "Second User", "/api/users")
	remove("driver Bob Driver", "/settings/drivers", "Bob Driver", "/api/drivers")
	remove("saved command Ask status", "/settings/commands", "Ask status", "/api/commands")
	remove("maintenance Oil change", "/settings/maintenances", "Oil change", "/api/maintenance")
	remove("computed attribute Speed in km/h", "/settings/attributes", "Speed in km/h", "/api/attributes/computed")
	remove("notification Web alerts", "/settings/notifications", "Web alerts", "/api/notifications")
	remove("calendar Weekdays", "/settings/calendars", "Weekdays", "/api/calendars")
	w.step("delete", "geofence Truck stop (geofences page)", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/geofences") },
			func() error {
				return b.click(ctx, "its remove button", geofenceButton("Truck stop", "Remove"))
			},
			func() error { return w.confirmRemove(ctx, "/api/geofences/*") },
			func() error { return w.listed("/api/geofences", "Truck stop", false) },
		)
	})
	w.step("delete", "device Spare 3 from its status card", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/") },
			func() error { return b.click(ctx, "Spare 3 in the device list", deviceRow("Spare 3")) },
			func() error { return b.clickText(ctx, "Remove") },
			func() error { return w.confirmRemove(ctx, fmt.Sprintf("/api/devices/%d", w.id("spare"))) },
			func() error { return b.until(ctx, "it to leave the list", "!__tw.pageText().includes('Spare 3')") },
			func() error { return w.listed("/api/devices", "Spare 3", false) },
		)
	})

	w.step("login", "log out (Account → Logout)", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/") },
			func() error { return b.clickText(ctx, "Account") },
			func() error { return w.pressText(ctx, "Logout", "DELETE", "/api/session") },
			func() error { return b.until(ctx, "the login page", "location.pathname === '/login'") },
		)
	})
}

var errNoChannel = fmt.Errorf("no channel")

// walkUser is the normal user's day: the devices they were given, their
// reports and their own settings.
func (w *walker) walkUser() {
	b := w.b
	w.step("user", "log in as the normal user", func(ctx context.Context) error {
		return seq(
			func() error { return b.load(ctx, "/login") },
			func() error { return b.fillCSS(ctx, "input[name=email]", userEmail) },
			func() error { return b.fillCSS(ctx, "input[name=password]", userPassword) },
			func() error { return w.pressText(ctx, "Login", "POST", "/api/session") },
			func() error {
				// traccar-web may have saved /login as the page to return to
				// after logging in (window.sessionStorage.postLogin, set when
				// its session check failed during the logout): it then stays
				// on the login page though the login worked.
				lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				defer cancel()
				if b.until(lctx, "leaving /login", "location.pathname !== '/login'") != nil {
					if s, _ := eval[string](ctx, "location.pathname"); s == "/login" {
						w.notes = append(w.notes, "normal user login: POST /api/session answered and the app stayed on /login (traccar-web's sessionStorage postLogin was '/login', saved by its own session check while logging out); the walk opened / to go on")
						return b.load(ctx, "/")
					}
				}
				return nil
			},
			func() error { return b.expectText(ctx, "Van 2") },
		)
	})
	w.step("user", "sees the devices they were given (Van 2, Truck 1), and no other", func(ctx context.Context) error {
		if err := b.expectText(ctx, "Truck 1"); err != nil {
			return err
		}
		if t, _ := eval[string](ctx, "__tw.pageText()"); strings.Contains(t, "Car 4") {
			return fmt.Errorf("the list shows Car 4, which the user was not given")
		}
		return nil
	})
	w.reportStep("combined (normal user)", "/reports/combined", fmt.Sprintf("deviceId=%d", w.id("van")), false)
	w.reportStep("positions (normal user)", "/reports/route", fmt.Sprintf("deviceId=%d", w.id("van")), true)
	w.step("user", "preferences: open and save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return w.pressText(ctx, "Save", "PUT", fmt.Sprintf("/api/users/%d", w.id("user"))) },
			func() error { return b.until(ctx, "leaving the page", "location.pathname !== '/settings/preferences'") },
		)
	})
	w.step("user", "own account: edit and save", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, fmt.Sprintf("/settings/user/%d", w.id("user"))) },
			func() error {
				return b.until(ctx, "the form's fields", "!!__tw.byText('Save') && !!__tw.input('Phone') && !document.querySelector('.MuiSkeleton-root')")
			},
			func() error { return b.fill(ctx, "Phone", "+15550100") },
			func() error { return w.pressText(ctx, "Save", "PUT", fmt.Sprintf("/api/users/%d", w.id("user"))) },
			func() error {
				return b.until(ctx, "leaving the page", "!location.pathname.startsWith('/settings/user/')")
			},
			func() error {
				return w.expectAPI(fmt.Sprintf("/api/users/%d", w.id("user")), field("phone", "+15550100"))
			},
		)
	})
	w.step("user", "notifications list", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/settings/preferences") },
			func() error { return b.open(ctx, "/settings/notifications") },
		)
	})
	w.step("user", "log out", func(ctx context.Context) error {
		return seq(
			func() error { return b.open(ctx, "/") },
			func() error { return b.clickText(ctx, "Account") },
			func() error { return w.pressText(ctx, "Logout", "DELETE", "/api/session") },
			func() error { return b.until(ctx, "the login page", "location.pathname === '/login'") },
		)
	})
}
