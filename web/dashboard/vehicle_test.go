package dashboard_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// driveDay is the day drive feeds.
const driveDay = "2024-01-02"

// vehicleAttrs are what van2 reports on its drive: ignition on while it
// drives, a battery level, an SOS alarm at minute 30.
func vehicleAttrs(minute int) model.Attributes {
	attrs := model.Attributes{"ignition": minute <= 20, "batteryLevel": 87.0}
	if minute == 30 {
		attrs["alarm"] = "sos"
	}
	return attrs
}

// setAttr sets one of a seeded user's attributes (a preference) or flags.
func setUser(t testing.TB, e *env, name string, apply func(u *model.User)) {
	t.Helper()
	if _, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs[name], func(u *model.User) error {
		apply(u)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestVehiclePage(t *testing.T) {
	today := time.Now().UTC().Format(time.DateOnly)
	run(t, []scenario{
		{Name: "a visible device: where it is, its route's URL for today", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/{truck1}",
			Status: 200, Want: []string{"<h1>Truck One</h1>", `id="vehicle-map"`, `id="vehicle-data"`, "50 km/h", "52.52000, 13.40500",
				`"routeUrl":"/dashboard/fleet/devices/{truck1}/route?from=` + today + `&to=` + today + `"`,
				`"speedUnit":"km/h"`, `"zone":"UTC"`, `href="/dashboard/fleet/devices/{truck1}/edit"`, "Send a command",
				"History of " + today, `name="from" value="` + today + `"`, "No service recorded.", "no service recorded"}},
		{Name: "the viewer's units", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/{truck1}",
			Before: func(t *testing.T, e *env) {
				setUser(t, e, "admin", func(u *model.User) {
					u.Attributes = model.Attributes{"speedUnit": "mph", "timezone": "Europe/Berlin"}
				})
			},
			Status: 200, Want: []string{"31 mph", `"speedUnit":"mph"`, `"zone":"Europe/Berlin"`}, Absent: []string{"50 km/h"}},
		{Name: "a device without a position", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/{van2}",
			Status: 200, Want: []string{"<h1>Van Two</h1>", "no position yet", `"position":null`, `/dashboard/fleet/devices/{van2}/edit#connect`}},
		{Name: "a manager's own device", As: "manager", Method: "GET", Path: "/dashboard/fleet/devices/{van3}", Status: 200,
			Want: []string{"<h1>Van Three</h1>", "53.55000, 9.99000"}},
		{Name: "another user's device: not found", As: "manager", Method: "GET", Path: "/dashboard/fleet/devices/{truck1}", Status: 404,
			Absent: []string{"Truck One"}},
		{Name: "a range backwards", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/{truck1}?from=2024-01-05&to=2024-01-02",
			Status: 400, Want: []string{"to must not be before from"}},
		{Name: "a range of 32 days", As: "admin", Method: "GET", Path: "/dashboard/fleet/devices/{truck1}?from=2024-01-01&to=2024-02-01",
			Status: 400, Want: []string{"at most 31 days"}},
		{Name: "reports disabled: the page says so", As: "manager", Method: "GET", Path: "/dashboard/fleet/devices/{van3}",
			Before: func(t *testing.T, e *env) { setUser(t, e, "manager", func(u *model.User) { u.DisableReports = true }) },
			Status: 200, Want: []string{"<h1>Van Three</h1>", "Reports are disabled for this account"}, Absent: []string{`id="trips"`}},
	})
}

// routeJSON is the route answer as the page's script reads it.
type routeJSON struct {
	From, To  string
	Truncated bool
	Points    []struct {
		ID     int64     `json:"id"`
		Time   time.Time `json:"time"`
		Label  string    `json:"label"`
		Lat    float64   `json:"lat"`
		Lon    float64   `json:"lon"`
		Speed  string    `json:"speed"`
		Course float64   `json:"course"`
	}
}

func TestVehicleRoute(t *testing.T) {
	route := func(want func(t *testing.T, r routeJSON)) func(t *testing.T, _ *env, res *webtest.Response) {
		return func(t *testing.T, _ *env, res *webtest.Response) {
			var r routeJSON
			res.Decode(t, &r)
			want(t, r)
		}
	}
	path := "/dashboard/fleet/devices/{van2}/route?"
	before := func(t *testing.T, e *env) { e.drive(t, "van2", vehicleAttrs) }
	run(t, []scenario{
		{Name: "the day's positions in order", As: "admin", Before: before, Method: "GET", Path: path + "from=" + driveDay + "&to=" + driveDay,
			Status: 200, After: route(func(t *testing.T, r routeJSON) {
				if r.From != driveDay || r.To != driveDay || r.Truncated || len(r.Points) != 36 {
					t.Fatalf("route %s to %s, truncated %v, %d points", r.From, r.To, r.Truncated, len(r.Points))
				}
				first, moving, last := r.Points[0], r.Points[15], r.Points[35]
				if first.Lat != 52.5 || first.Lon != 13.4 || !first.Time.Equal(time.Date(2024, 1, 2, 8, 0, 0, 0, time.UTC)) ||
					first.Label != "2024-01-02 08:00:00" || first.Speed != "0 km/h" {
					t.Errorf("first point %+v", first)
				}
				if moving.Speed != "20 km/h" || moving.Label != "2024-01-02 08:15:00" || moving.Lat < 52.5149 || moving.Lat > 52.5151 {
					t.Errorf("moving point %+v", moving)
				}
				if last.Lat < 52.5299 || last.Lat > 52.5301 || last.Label != "2024-01-02 08:35:00" {
					t.Errorf("last point %+v", last)
				}
				for i := 1; i < len(r.Points); i++ {
					if !r.Points[i].Time.After(r.Points[i-1].Time) {
						t.Fatalf("point %d not after %d", i, i-1)
					}
				}
			})},
		{Name: "the viewer's day and units", As: "admin", Method: "GET", Path: path + "from=" + driveDay + "&to=" + driveDay,
			Before: func(t *testing.T, e *env) {
				e.drive(t, "van2", vehicleAttrs)
				setUser(t, e, "admin", func(u *model.User) {
					u.Attributes = model.Attributes{"speedUnit": "kn", "timezone": "America/New_York"}
				})
			},
			Status: 200, After: route(func(t *testing.T, r routeJSON) {
				// 08:00 UTC is 03:00 in New York, the same day.
				if len(r.Points) != 36 || r.Points[0].Label != "2024-01-02 03:00:00" || r.Points[15].Speed != "11 kn" {
					t.Errorf("%d points, first %+v, moving %+v", len(r.Points), r.Points[0], r.Points[15])
				}
			})},
		{Name: "a day without positions", As: "admin", Before: before, Method: "GET", Path: path + "from=2024-01-03&to=2024-01-03",
			Status: 200, Want: []string{`"points":[]`}},
		{Name: "31 days are allowed", As: "admin", Before: before, Method: "GET", Path: path + "from=2024-01-01&to=2024-01-31",
			Status: 200, After: route(func(t *testing.T, r routeJSON) {
				if len(r.Points) != 36 {
					t.Errorf("%d points", len(r.Points))
				}
			})},
		{Name: "32 days are not", As: "admin", Method: "GET", Path: path + "from=2024-01-01&to=2024-02-01",
			Status: 400, Want: []string{`"description":"a range covers at most 31 days"`}},
		{Name: "backwards", As: "admin", Method: "GET", Path: path + "from=2024-01-05&to=2024-01-02",
			Status: 400, Want: []string{`"description":"to must not be before from"`}},
		{Name: "not a date", As: "admin", Method: "GET", Path: path + "from=yesterday&to=2024-01-02",
			Status: 400, Want: []string{`"description":"from and to must be dates like 2026-03-01"`}},
		{Name: "another user's device", As: "manager", Before: before, Method: "GET", Path: path + "from=" + driveDay + "&to=" + driveDay,
			Status: 404, Want: []string{`"message":"Not found"`}, Absent: []string{"52.5"}},
	})
}

// The page's trips, stops and events for the range come from the reports
// core, in the viewer's units; the documents and services are the
// viewer's own for this vehicle.
func TestVehicleHistory(t *testing.T) {
	e := newEnv(t)
	e.drive(t, "van2", vehicleAttrs)
	admin := e.users["admin"]
	van2 := model.TextID(e.IDs["van2"])
	for _, doc := range []struct {
		typ    string
		entity model.TextID
		expiry time.Time
	}{{"Insurance", van2, e.now.AddDate(0, 0, 10)}, {"Registration", van2, e.now.AddDate(0, 0, -3)},
		{"Permit", model.TextID(e.IDs["truck1"]), e.now.AddDate(0, 0, 5)}} {
		if _, err := e.Core.Office.CreateDocument(admin, func(d *model.Document) error {
			d.DocumentOf, d.EntityID, d.DocumentType, d.ExpiryDate = office.DocumentOfVehicle, doc.entity, doc.typ, model.Date{Time: doc.expiry}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.Core.Office.CreateServiceRecord(admin, func(r *model.ServiceRecord) error {
		odometer := 12000.0
		r.Title, r.VehicleID, r.ServiceDate, r.Odometer = "Brake pads", van2, model.Date{Time: e.now.AddDate(0, 0, -20)}, &odometer
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	page := e.as("admin").get("/dashboard/fleet/devices/" + itoa(e.IDs["van2"]) + "?from=" + driveDay + "&to=" + driveDay)
	if page.Status != 200 {
		t.Fatalf("page: %d %.300s", page.Status, page.Body)
	}
	webtest.Contains(t, "vehicle page", page.Body, "History of 2024-01-02",
		// one trip of 3.3 km at up to 20 km/h (it ends once the van stood
		// still long enough: the reports core's rule)
		`<td data-label="Start">2024-01-02 08:10 UTC</td><td data-label="End">2024-01-02 08:24 UTC</td><td data-label="Duration">14 min</td><td data-label="Distance">3.3 km</td>`,
		`<td data-label="Top speed">20 km/h</td><td data-label="From">52.50000, 13.40000</td><td data-label="To">52.53000, 13.40000</td>`,
		// the stops before and after it
		`<td data-label="Arrived">2024-01-02 08:00 UTC</td><td data-label="Left">2024-01-02 08:10 UTC</td>`,
		`<td data-label="Arrived">2024-01-02 08:24 UTC</td><td data-label="Left">2024-01-02 08:35 UTC</td><td data-label="Duration">11 min</td>`,
		// the alarm, latest first
		`<td data-label="Time">2024-01-02 08:30 UTC</td><td data-label="Event"><span class="badge status-offline">Alarm</span></td><td data-label="Detail">sos</td>`,
		// the last position's key facts
		"Ignition", ">off<", "Battery", "87 %",
		// its documents, soonest expiry first, and its service
		"Registration", "3 days ago", "Insurance", "in 10 days", "Brake pads", "Next service: due")
	webtest.Lacks(t, "vehicle page", page.Body, "Permit")
	if i, j := strings.Index(page.Body, "Registration"), strings.Index(page.Body, "Insurance"); i < 0 || j < i {
		t.Errorf("documents not soonest first")
	}
	// In miles for a viewer who reads miles.
	setUser(t, e, "admin", func(u *model.User) { u.Attributes = model.Attributes{"distanceUnit": "mi", "speedUnit": "mph"} })
	page = e.as("admin").get("/dashboard/fleet/devices/" + itoa(e.IDs["van2"]) + "?from=" + driveDay + "&to=" + driveDay)
	webtest.Contains(t, "vehicle page in miles", page.Body, `<td data-label="Distance">2.1 mi</td>`, `<td data-label="Top speed">12 mph</td>`)
}

// containsAny reports whether s holds one of the fragments.
func containsAny(s string, fragments ...string) bool {
	return slices.ContainsFunc(fragments, func(f string) bool { return strings.Contains(s, f) })
}

func withHeaders(req *http.Request, pairs ...string) *http.Request {
	for i := 0; i+1 < len(pairs); i += 2 {
		req.Header.Set(pairs[i], pairs[i+1])
	}
	return req
}

// withCommands gives the core the real protocols' command types.
func withCommands(t testing.TB) *env {
	return newEnv(t, func(o *app.Options) { o.CommandTypes = catalog.CommandTypes() })
}

// queuedCommands is the command queue.
func queuedCommands(t testing.TB, e *env) []*model.QueuedCommand {
	t.Helper()
	var out []*model.QueuedCommand
	if err := e.DB.View(func(tx model.Tx) error {
		return tx.QueuedCommands().List(func(q *model.QueuedCommand) bool { out = append(out, q); return true })
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A command is sent only from the confirmation form, and only by those
// the core lets send commands.
func TestVehicleCommand(t *testing.T) {
	e := withCommands(t)
	truck := itoa(e.IDs["truck1"])
	action := "/dashboard/fleet/devices/" + truck + "/command"
	admin := e.as("admin")
	webtest.Contains(t, "command form", admin.get("/dashboard/fleet/devices/"+truck).Body,
		`<option value="engineStop">Engine stop</option>`, `<option value="custom">Custom</option>`, "Nothing is sent before you confirm")

	// The first step only asks.
	res := admin.post(action, url.Values{"type": {"engineStop"}})
	if res.Status != 200 {
		t.Fatalf("ask: %d %.300s", res.Status, res.Body)
	}
	webtest.Contains(t, "confirmation", res.Body, "Send <strong>Engine stop</strong>", "to Truck One now?", "stop safely",
		`<input type="hidden" name="confirm" value="yes">`, `<input type="hidden" name="type" value="engineStop">`, "Yes, send it")
	if q := queuedCommands(t, e); len(q) != 0 {
		t.Fatalf("sent before confirmation: %+v", q)
	}
	// htmx asks for the card alone.
	res = admin.do(withHeaders(e.Request(t, "POST", action, "application/x-www-form-urlencoded",
		url.Values{"type": {"engineStop"}, "_csrf": {admin.csrf}}.Encode()), "HX-Request", "true", "HX-Target", "command"))
	webtest.Contains(t, "card", res.Body, `<section class="card" id="command">`, "Yes, send it")
	webtest.Lacks(t, "card", res.Body, "<html", "<nav")

	// Refusals: no command chosen, one the tracker's protocol lacks.
	for _, bad := range []url.Values{{"confirm": {"yes"}}, {"type": {"setTimezone"}, "confirm": {"yes"}}} {
		res := admin.post(action, bad)
		if res.Status != 422 || !containsAny(res.Body, "Choose a command", "not supported by the gt06 protocol") {
			t.Errorf("%v: %d %.300s", bad, res.Status, res.Body)
		}
	}
	if q := queuedCommands(t, e); len(q) != 0 {
		t.Fatalf("refused commands queued: %+v", q)
	}

	// Confirmed: the tracker is not connected, so the command waits.
	res = admin.post(action, url.Values{"type": {"custom"}, "data": {"RESET#"}, "confirm": {"yes"}})
	if res.Status != 200 {
		t.Fatalf("send: %d %.300s", res.Status, res.Body)
	}
	webtest.Contains(t, "result", res.Body, "The command “Custom” is queued: the tracker is not connected now")
	q := queuedCommands(t, e)
	if len(q) != 1 || q[0].Type != "custom" || q[0].DeviceID != e.IDs["truck1"] || q[0].Attributes["data"] != "RESET#" {
		t.Fatalf("queue: %+v", q)
	}

	// Not for another user's device.
	if res := e.as("manager").post(action, url.Values{"type": {"engineStop"}, "confirm": {"yes"}}); res.Status != 404 {
		t.Errorf("manager, another's device: %d", res.Status)
	}
	if len(queuedCommands(t, e)) != 1 {
		t.Fatal("a command for another user's device was queued")
	}
}

func TestVehicleCommandRefused(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		apply     func(u *model.User)
	}{
		{"limitCommands", "Commands are limited for this account", func(u *model.User) { u.LimitCommands = true }},
		{"readonly", "Account is read-only", func(u *model.User) { u.Readonly = true }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := withCommands(t)
			setUser(t, e, "manager", tc.apply)
			manager := e.as("manager")
			van := "/dashboard/fleet/devices/" + itoa(e.IDs["van3"])
			page := manager.get(van).Body
			webtest.Contains(t, "page", page, tc.why)
			webtest.Lacks(t, "page", page, `name="type"`, "Send…")
			for _, form := range []url.Values{{"type": {"engineStop"}}, {"type": {"engineStop"}, "confirm": {"yes"}}} {
				res := manager.post(van+"/command", form)
				if res.Status != 403 || !containsAny(res.Body, tc.why) {
					t.Errorf("%v: %d %.300s", form, res.Status, res.Body)
				}
			}
			if q := queuedCommands(t, e); len(q) != 0 {
				t.Fatalf("queued: %+v", q)
			}
		})
	}
}
