package api_test

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/xuri/excelize/v2"
)

// day is the fixture's day: d1 reports at 10, 11 and 12 o'clock, d3 at 10.
const day = "from=2024-01-01T00:00:00Z&to=2024-01-01T23:59:59Z"

// geofenceEvents stores stays of d1 in gf1: 10:00-10:30, and one left
// open at 12:00.
func geofenceEvents(t *testing.T, e *env) {
	for _, ev := range []struct {
		typ string
		at  time.Time
	}{{model.EventGeofenceEnter, t10}, {model.EventGeofenceExit, t10.Add(30 * time.Minute)}, {model.EventGeofenceEnter, t12}} {
		must(t, e.DB.Update(func(tx model.Tx) error {
			return tx.AddEvent(&model.Event{Type: ev.typ, EventTime: ev.at, DeviceID: e.IDs["d1"], GeofenceID: e.IDs["gf1"],
				PositionID: e.IDs["p1"], Attributes: model.Attributes{}})
		}))
	}
}

// manyEvents stores 2,500 deviceMoving events of d1, 1,500 of them at one
// time: more than a page of the events report, with a page's end among
// events of equal time.
func manyEvents(t *testing.T, e *env) {
	must(t, e.DB.Update(func(tx model.Tx) error {
		for i := range 2500 {
			at := t10.Add(time.Duration(i) * time.Second)
			if i >= 500 && i < 2000 {
				at = t11
			}
			if err := tx.AddEvent(&model.Event{Type: model.EventDeviceMoving, EventTime: at, DeviceID: e.IDs["d1"], Attributes: model.Attributes{}}); err != nil {
				return err
			}
		}
		return nil
	}))
}

func TestReports(t *testing.T) {
	run(t, []scenario{
		{Name: "route of one device, in time order", As: "user1", Method: "GET", Path: "/api/reports/route?deviceId={d1}&" + day,
			Status: 200, Want: []string{`[{"id":{p1}`, `},{"id":{p2}`, `},{"id":{p3}`}},
		{Name: "route of every device the caller sees", As: "user1", Method: "GET", Path: "/api/reports/route?" + day,
			Status: 200, Want: []string{`"id":{p1}`}, Absent: []string{`"id":{p4},`}},
		{Name: "route of a group's devices", As: "user2", Method: "GET", Path: "/api/reports/route?groupId={g1}&" + day,
			Status: 200, Want: []string{`"id":{p4}`}, Absent: []string{`"id":{p1},`}},
		{Name: "another user's device", As: "user1", Method: "GET", Path: "/api/reports/route?deviceId={d3}&" + day, Status: 404},
		{Name: "another user's group", As: "user1", Method: "GET", Path: "/api/reports/trips?groupId={g1}&" + day, Status: 404},
		{Name: "an administrator asking for no device", As: "admin", Method: "GET", Path: "/api/reports/route?deviceId=999999&" + day, Status: 404},
		{Name: "a device named twice is reported once", As: "user1", Method: "GET", Path: "/api/reports/summary?deviceId={d1}&deviceId={d1}&" + day,
			Status: 200, Want: []string{`[{"deviceId":{d1},`}, Absent: []string{`},{"deviceId":{d1}`}},
		{Name: "from is required", As: "user1", Method: "GET", Path: "/api/reports/route?deviceId={d1}&to=2024-01-02T00:00:00Z",
			Status: 400, Want: []string{"from and to are required"}},
		{Name: "a span over the limit", As: "user1", Method: "GET", Path: "/api/reports/route?deviceId={d1}&from=2020-01-01T00:00:00Z&to=2024-01-01T00:00:00Z",
			Status: 400, Want: []string{"Time period exceeds the limit"}},
		{Name: "reports disabled for the user", As: "user1", Before: func(t *testing.T, e *env) {
			_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error { u.DisableReports = true; return nil })
			must(t, err)
		}, Method: "GET", Path: "/api/reports/events?deviceId={d1}&" + day, Status: 403},
		{Name: "events of a type", As: "user1", Before: geofenceEvents, Method: "GET",
			Path: "/api/reports/events?deviceId={d1}&type=geofenceExit&" + day, Status: 200,
			Want: []string{`"type":"geofenceExit"`}, Absent: []string{`"ignitionOn"`, `"geofenceEnter"`}},
		{Name: "all events", As: "user1", Before: geofenceEvents, Method: "GET",
			Path: "/api/reports/events?deviceId={d1}&type=allEvents&" + day, Status: 200,
			Want: []string{`"ignitionOn"`, `"geofenceEnter"`, `"geofenceExit"`}},
		{Name: "geofence stays: the open one is left out", As: "user1", Before: geofenceEvents, Method: "GET",
			Path: "/api/reports/geofences?deviceId={d1}&geofenceId={gf1}&" + day, Status: 200,
			Want: []string{`[{"deviceId":{d1},"deviceName":"Truck 1","geofenceId":{gf1},"startTime":"2024-01-01T10:00:00Z","endTime":"2024-01-01T10:30:00Z"`},
			After: func(t *testing.T, _ *env, r *webtest.Response) {
				if n := strings.Count(r.Body, `"geofenceId"`); n != 1 {
					t.Errorf("%d stays, want 1: %s", n, r.Body)
				}
			}},
		{Name: "combined", As: "user1", Before: geofenceEvents, Method: "GET", Path: "/api/reports/combined?deviceId={d1}&" + day,
			Status: 200, Want: []string{`"route":[[13.4,52.5],[13.4,52.5],[13.4,52.5]]`, `"type":"geofenceEnter"`, `"positions":[{"id":{p1}`}},
		{Name: "route as Excel by its path", As: "user1", Method: "GET", Path: "/api/reports/route/xlsx?deviceId={d1}&" + day,
			Status: 200, After: workbookRows("Truck 1", 4)},
		{Name: "route as Excel by Accept", As: "user1", Method: "GET", Path: "/api/reports/route?deviceId={d1}&" + day,
			Header: map[string]string{"Accept": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"},
			Status: 200, After: workbookRows("Truck 1", 4)},
		{Name: "events read in pages: each once, in order", As: "user1", Before: manyEvents, Method: "GET",
			Path: "/api/reports/events?deviceId={d1}&type=deviceMoving&" + day, Status: 200,
			After: func(t *testing.T, _ *env, r *webtest.Response) {
				var got []model.Event
				r.Decode(t, &got)
				if len(got) != 2500 {
					t.Fatalf("%d events, want 2500", len(got))
				}
				for i := 1; i < len(got); i++ {
					a, b := got[i-1], got[i]
					if b.EventTime.Before(a.EventTime) || (b.EventTime.Equal(a.EventTime) && b.ID <= a.ID) {
						t.Fatalf("event %d (%v, %d) after (%v, %d)", i, b.EventTime, b.ID, a.EventTime, a.ID)
					}
				}
			}},
		{Name: "events as Excel", As: "user1", Before: geofenceEvents, Method: "GET", Path: "/api/reports/events/xlsx?deviceId={d1}&" + day,
			Status: 200, After: workbookRows("Truck 1", 5)},
	})
}

// workbookRows checks that the answer is a workbook whose sheet holds
// rows rows (the header's included).
func workbookRows(sheet string, rows int) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, _ *env, r *webtest.Response) {
		if ct := r.Header.Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
			t.Fatalf("Content-Type %q", ct)
		}
		f, err := excelize.OpenReader(strings.NewReader(r.Body))
		if err != nil {
			t.Fatalf("not a workbook: %v", err)
		}
		got, err := f.GetRows(sheet)
		if err != nil {
			t.Fatalf("sheet %q: %v (sheets %v)", sheet, err, f.GetSheetList())
		}
		if len(got) != rows {
			t.Errorf("%d rows, want %d: %v", len(got), rows, got)
		}
	}
}

func TestPositionExports(t *testing.T) {
	q := "?deviceId={d1}&" + day
	run(t, []scenario{
		{Name: "KML", As: "user1", Method: "GET", Path: "/api/positions/kml" + q, Status: 200,
			Want: []string{`<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Truck 1</name>`,
				`<coordinates>13.4,52.5,0 13.4,52.5,0 13.4,52.5,0</coordinates>`}},
		{Name: "GPX", As: "user1", Method: "GET", Path: "/api/positions/gpx" + q, Status: 200,
			Want: []string{`<trkpt lat="52.5" lon="13.4"><ele>0</ele><time>2024-01-01T10:00:00Z</time></trkpt>`}},
		{Name: "CSV in the user's time zone", As: "user1", Before: func(t *testing.T, e *env) {
			_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error {
				u.Attributes = model.Attributes{"timezone": "Europe/Berlin"}
				return nil
			})
			must(t, err)
			must(t, e.DB.Update(func(tx model.Tx) error {
				return tx.AddPosition(&model.Position{DeviceID: e.IDs["d1"], FixTime: t12.Add(time.Minute), Latitude: 1, Longitude: 2,
					Attributes: model.Attributes{"note": "=HYPERLINK(\"x\")", "ignition": true}})
			}))
		}, Method: "GET", Path: "/api/positions/csv" + q, Status: 200,
			After: func(t *testing.T, _ *env, r *webtest.Response) {
				rows, err := csv.NewReader(strings.NewReader(r.Body)).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) != 5 || strings.Join(rows[0][:6], ",") != "id,deviceId,protocol,serverTime,deviceTime,fixTime" ||
					strings.Join(rows[0][14:], ",") != "ignition,note" {
					t.Fatalf("CSV: %v", rows)
				}
				if rows[1][5] != "2024-01-01 11:00:00" { // 10:00 UTC in Berlin
					t.Errorf("fixTime %q, want the user's zone", rows[1][5])
				}
				if last := rows[4]; last[14] != "true" || last[15] != `'=HYPERLINK("x")` {
					t.Errorf("attribute cells %q: a formula must be defused", last[14:])
				}
			}},
		{Name: "KMZ is a zip holding the KML", As: "user1", Method: "GET", Path: "/api/positions/kmz" + q, Status: 200,
			After: func(t *testing.T, _ *env, r *webtest.Response) {
				z, err := zip.NewReader(bytes.NewReader([]byte(r.Body)), int64(len(r.Body)))
				if err != nil || len(z.File) != 1 || z.File[0].Name != "doc.kml" {
					t.Fatalf("zip %v: %v", err, z)
				}
				f, _ := z.File[0].Open()
				b, _ := io.ReadAll(f)
				webtest.Contains(t, "doc.kml", string(b), "<coordinates>13.4,52.5,0")
			}},
		{Name: "only inside a geofence", As: "user1", Method: "GET", Path: "/api/positions/gpx" + q + "&geofenceId={gf1}", Status: 200,
			Absent: []string{"<trkpt"}},
		{Name: "a geofence the caller does not see", As: "user2", Method: "GET", Path: "/api/positions/gpx?deviceId={d3}&" + day + "&geofenceId={gf1}",
			Status: 404},
		{Name: "deviceId is required", As: "user1", Method: "GET", Path: "/api/positions/kml?" + day, Status: 400},
		{Name: "another user's device", As: "user2", Method: "GET", Path: "/api/positions/csv" + q, Status: 404},
	})
}
