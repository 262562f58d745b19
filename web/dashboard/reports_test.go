package dashboard_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/xuri/excelize/v2"
)

// inMiles sets the manager's units to miles and mph.
func inMiles(t *testing.T, e *env) {
	_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["manager"], func(u *model.User) error {
		u.Attributes = model.Attributes{"distanceUnit": "mi", "speedUnit": "mph"}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func noReports(t *testing.T, e *env) {
	_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["manager"], func(u *model.User) error {
		u.DisableReports = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// adminGroup adds a group of the administrator's, which the manager does
// not see.
func adminGroup(t *testing.T, e *env) {
	g, err := e.Core.Fleet.Groups.Create(e.users["admin"], func(g *model.Group) error { g.Name = "Depot"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	e.IDs["depot"] = g.ID
}

const morning = "range=custom&from=2024-01-02&to=2024-01-02"

// form is what every report page answer holds: the form, with the
// entry of the navigation marked.
var form = []string{`name="type"`, `name="deviceId" multiple`, `href="/dashboard/reports" class="active"`}

// driveBus adds bus4 for the manager (the admin sees it too) with the
// drive's trip: 3.3 km (2.1 mi), top speed 20 km/h (12 mph), ending at
// 08:24 once the bus stood still for the default minimum stop.
func driveBus(t *testing.T, e *env) { e.drive(t, "bus4", nil) }

func TestReportsPage(t *testing.T) {
	run(t, []scenario{
		{Name: "the form, with the vehicles the manager sees", As: "manager", Method: "GET", Path: "/dashboard/reports",
			Status: 200, Want: append([]string{"Van Three", `<option value="today" selected`}, form...),
			Absent: []string{"Truck One", `id="report-result"`}},
		{Name: "a trip in km", As: "admin", Before: driveBus, Method: "GET", Path: "/dashboard/reports?type=trips&deviceId={bus4}&" + morning,
			Status: 200, Want: append([]string{"Trips · 2024-01-02", `<td data-label="Vehicle">Bus Four</td>`,
				`<td data-label="Start">2024-01-02 08:10 UTC</td>`, `<td data-label="Distance" class="num">3.3 km</td>`,
				`<td data-label="End">2024-01-02 08:24 UTC</td>`, `<td data-label="Duration" class="num">14 min</td>`,
				`<td data-label="Average speed" class="num">14 km/h</td>`, `<td data-label="Top speed" class="num">20 km/h</td>`,
				`href="/dashboard/reports/xlsx?deviceId={bus4}&amp;from=2024-01-02&amp;range=custom&amp;to=2024-01-02&amp;type=trips"`}, form...)},
		{Name: "the same trip in miles, in New York's time", As: "manager", Before: func(t *testing.T, e *env) {
			e.drive(t, "bus4", nil)
			inMiles(t, e)
			_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["manager"], func(u *model.User) error {
				u.Attributes["timezone"] = "America/New_York"
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}, Method: "GET", Path: "/dashboard/reports?type=trips&deviceId={bus4}&" + morning,
			Status: 200, Want: []string{`<td data-label="Distance" class="num">2.1 mi</td>`, `<td data-label="Top speed" class="num">12 mph</td>`,
				`<td data-label="Start">2024-01-02 03:10 EST</td>`, "time zone, America/New_York"}},
		{Name: "a group's vehicles", As: "admin", Before: func(t *testing.T, e *env) {
			e.drive(t, "bus4", nil)
			adminGroup(t, e)
			if _, err := e.Core.Fleet.Devices.Update(model.System(), e.IDs["bus4"], func(d *model.Device) error {
				d.GroupID = e.IDs["depot"]
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}, Method: "GET", Path: "/dashboard/reports?type=trips&groupId={depot}&" + morning,
			Status: 200, Want: []string{`<td data-label="Vehicle">Bus Four</td>`, `<option value="{depot}" selected>Depot</option>`}},
		{Name: "stops before and after the trip", As: "admin", Before: driveBus, Method: "GET", Path: "/dashboard/reports?type=stops&deviceId={bus4}&" + morning,
			Status: 200, Want: []string{`<td data-label="Start">2024-01-02 08:00 UTC</td>`, `<td data-label="Duration" class="num">10 min</td>`,
				`<td data-label="Start">2024-01-02 08:24 UTC</td>`, `<td data-label="Duration" class="num">11 min</td>`,
				`<td data-label="Where">52.50000, 13.40000</td>`, `<td data-label="Where">52.53000, 13.40000</td>`,
				`<td data-label="Engine hours" class="num">–</td>`}},
		{Name: "nothing on a day without positions", As: "admin", Before: driveBus, Method: "GET",
			Path:   "/dashboard/reports?type=trips&deviceId={bus4}&range=custom&from=2024-01-03&to=2024-01-03",
			Status: 200, Want: []string{"Nothing to report for these days."}, Absent: []string{"<table"}},
		{Name: "a daily summary with its charts", As: "manager", Before: func(t *testing.T, e *env) { e.drive(t, "bus4", nil); inMiles(t, e) }, Method: "GET",
			Path: "/dashboard/reports?type=summary&deviceId={bus4}&range=custom&from=2024-01-01&to=2024-01-03", Status: 200,
			Want: []string{"Daily summary · 2024-01-01 to 2024-01-03",
				`<td data-label="Day">2024-01-02</td><td data-label="Distance" class="num">2.1 mi</td>`,
				`role="img" aria-labelledby="chart-0-title chart-0-desc"`, `<title id="chart-0-title">Bus Four: distance per day (mi)</title>`,
				"The longest day was 2024-01-02 with 2.1 mi.", "<title>01-01: 0.0 mi</title>", "<title>01-02: 2.1 mi</title>",
				"<title>01-03: 0.0 mi</title>", `<title id="chart-1-title">Bus Four: speed per day (mph)</title>`,
				"<title>01-02, Maximum: 12.4 mph</title>"}},
		{Name: "a route with its speed line", As: "admin", Before: driveBus, Method: "GET", Path: "/dashboard/reports?type=route&deviceId={bus4}&" + morning,
			Status: 200, Want: []string{"Bus Four: speed (km/h)", `<polyline class="speed-line" points="48.0,194.0 `,
				`<td data-label="Time">2024-01-02 08:35 UTC</td>`, "the highest was 20.0 km/h at 2024-01-02 08:11 UTC"},
			After: func(t *testing.T, _ *env, r *webtest.Response) {
				if n := strings.Count(r.Body, `<td data-label="Vehicle">Bus Four</td>`); n != 36 {
					t.Errorf("%d route rows, want 36", n)
				}
			}},
		{Name: "events with what they are about", As: "admin", Before: func(t *testing.T, e *env) {
			e.drive(t, "bus4", nil)
			err := e.DB.Update(func(tx model.Tx) error {
				return tx.AddEvent(&model.Event{Type: model.EventAlarm, EventTime: time.Date(2024, 1, 2, 8, 15, 0, 0, time.UTC),
					DeviceID: e.IDs["bus4"], Attributes: model.Attributes{"alarm": "sos"}})
			})
			if err != nil {
				t.Fatal(err)
			}
		}, Method: "GET", Path: "/dashboard/reports?type=events&" + morning,
			Status: 200, Want: []string{`<td data-label="Event">Alarm</td><td data-label="About">sos</td>`}},
	})
}

// A long report shows its first rows and says so: how many there are
// when it read them all, as for a route of one vehicle (read whole for
// its chart).
func TestReportCapped(t *testing.T) {
	e := newEnv(t)
	positions := func(key, uniqueID string, n int) {
		e.addDevice("admin", key, key, uniqueID, nil)
		start := time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
		var ps []*model.Position
		for i := range n {
			at := start.Add(time.Duration(i) * time.Minute)
			ps = append(ps, &model.Position{Protocol: "gt06", FixTime: at, DeviceTime: at, Valid: true, Latitude: 52.5, Longitude: 13.4, Attributes: model.Attributes{}})
		}
		if err := e.Core.Ingest.Ingest(e.devices[key].ID, ps); err != nil {
			t.Fatal(err)
		}
	}
	positions("bus4", "356938035643812", 1200)
	positions("bus5", "356938035643813", 600)
	admin := e.as("admin")
	for _, tc := range []struct{ query, note string }{
		{"deviceId=" + itoa(e.devices["bus4"].ID), "Showing the first 1000 of 1200 rows. The Excel download has all of them."},
		{"deviceId=" + itoa(e.devices["bus4"].ID) + "&deviceId=" + itoa(e.devices["bus5"].ID), "Showing the first 1000 rows. The Excel download has all of them."},
	} {
		res := admin.get("/dashboard/reports?type=route&" + tc.query + "&" + morning)
		if res.Status != 200 {
			t.Fatalf("%s: %d %.300s", tc.query, res.Status, res.Body)
		}
		webtest.Contains(t, tc.query, res.Body, tc.note)
		if n := strings.Count(res.Body, `<td data-label="Vehicle">`); n != 1000 {
			t.Errorf("%s: %d rows shown, want 1000", tc.query, n)
		}
	}
}

func TestReportRefusals(t *testing.T) {
	problem := func(text string) []string { return append([]string{`class="alert"`, text}, form...) }
	run(t, []scenario{
		{Name: "reports disabled for the manager", As: "manager", Before: noReports, Method: "GET", Path: "/dashboard/reports?type=trips&range=today",
			Status: 403, Want: []string{"Reports are disabled for this account"}},
		{Name: "its download too", As: "manager", Before: noReports, Method: "GET", Path: "/dashboard/reports/xlsx?type=trips&range=today",
			Status: 403},
		{Name: "a vehicle the manager does not see", As: "manager", Method: "GET", Path: "/dashboard/reports?type=trips&deviceId={truck1}&range=today",
			Status: 404},
		{Name: "with one it sees: refused, not dropped", As: "manager", Method: "GET",
			Path: "/dashboard/reports/xlsx?type=trips&deviceId={van3}&deviceId={truck1}&range=today", Status: 404},
		{Name: "a group the manager does not see", As: "manager", Before: adminGroup, Method: "GET",
			Path: "/dashboard/reports?type=trips&groupId={depot}&range=today", Status: 404},
		{Name: "the last day before the first", As: "admin", Method: "GET", Path: "/dashboard/reports?type=trips&range=custom&from=2024-01-05&to=2024-01-02",
			Status: 400, Want: problem("The last day (2024-01-02) is before the first (2024-01-05)"), Absent: []string{`id="report-result"`}},
		{Name: "custom without dates", As: "admin", Method: "GET", Path: "/dashboard/reports?type=trips&range=custom&from=2024-01-05",
			Status: 400, Want: problem("Custom dates need a first and a last day")},
		{Name: "longer than the configured maximum", As: "admin", World: func(t testing.TB) *env {
			return newEnv(t, func(o *app.Options) { o.Reports.MaxPeriod = 7 * 24 * time.Hour })
		}, Method: "GET", Path: "/dashboard/reports?type=trips&range=custom&from=2024-01-01&to=2024-01-31",
			Status: 400, Want: problem("Time period exceeds the limit")},
		{Name: "an unknown type", As: "admin", Method: "GET", Path: "/dashboard/reports?type=geofences&range=today",
			Status: 400, Want: problem("Unknown report type")},
		{Name: "an unknown range", As: "admin", Method: "GET", Path: "/dashboard/reports?type=trips&range=fortnight",
			Status: 400, Want: problem("Unknown range")},
		{Name: "a download of bad input shows the form", As: "admin", Method: "GET", Path: "/dashboard/reports/xlsx?type=trips&range=custom&from=2024-01-05&to=2024-01-02",
			Status: 400, Want: problem("is before the first")},
	})
}

func TestReportDownload(t *testing.T) {
	run(t, []scenario{
		{Name: "trips of a day", As: "manager", Before: driveBus, Method: "GET", Path: "/dashboard/reports/xlsx?type=trips&deviceId={bus4}&" + morning,
			Status: 200, After: func(t *testing.T, e *env, r *webtest.Response) {
				if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="trips-2024-01-02.xlsx"` {
					t.Errorf("Content-Disposition %q", cd)
				}
				rows, err := openWorkbook(t, r, "Bus Four").GetRows("Bus Four")
				if err != nil || len(rows) != 2 || rows[0][4] != "Distance (m)" {
					t.Fatalf("rows %q %v", rows, err)
				}
				want := tripDistance(t, e)
				if got, err := strconv.ParseFloat(rows[1][4], 64); err != nil || got != want {
					t.Errorf("distance cell %q, the core's trip %v", rows[1][4], want)
				}
			}},
		{Name: "a summary of days", As: "admin", Before: driveBus, Method: "GET",
			Path:   "/dashboard/reports/xlsx?type=summary&deviceId={bus4}&range=custom&from=2024-01-01&to=2024-01-03",
			Status: 200, After: func(t *testing.T, _ *env, r *webtest.Response) {
				if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="summary-2024-01-01-to-2024-01-03.xlsx"` {
					t.Errorf("Content-Disposition %q", cd)
				}
				openWorkbook(t, r, "Summary")
			}},
	})
}

// openWorkbook checks the answer is a workbook with the sheet.
func openWorkbook(t *testing.T, r *webtest.Response, sheet string) *excelize.File {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("Content-Type %q", ct)
	}
	f, err := excelize.OpenReader(strings.NewReader(r.Body))
	if err != nil {
		t.Fatalf("not a workbook: %v", err)
	}
	t.Cleanup(func() { _ = f.Close() })
	if idx, err := f.GetSheetIndex(sheet); err != nil || idx < 0 {
		t.Fatalf("no sheet %q in %q", sheet, f.GetSheetList())
	}
	return f
}

// tripDistance is the drive's trip distance as the core reports it.
func tripDistance(t *testing.T, e *env) float64 {
	r, err := e.Core.Fleet.Report(e.users["admin"], fleet.ReportQuery{DeviceIDs: []int64{e.IDs["bus4"]},
		From: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), To: time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	trips, _, err := r.Motion(r.Devices[0])
	if err != nil || len(trips) != 1 {
		t.Fatalf("trips %+v %v", trips, err)
	}
	return trips[0].Distance
}
