package api_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/reports"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// drive feeds d1 through the ingest (which adds distance, totalDistance
// and motion) a morning of 2024-01-02 at one fix a minute: parked at A
// from 08:00 to 08:10, 10 minutes north at 0.003° a minute (333.6 m,
// 10.8 kn), parked at B from 08:20 to 08:35.
func drive(t *testing.T, e *env) {
	start := time.Date(2024, 1, 2, 8, 0, 0, 0, time.UTC)
	lat, speed := 52.5, 0.0
	for m := 0; m <= 35; m++ {
		if m > 10 && m <= 20 {
			lat, speed = lat+0.003, 10.8
		} else {
			speed = 0
		}
		at := start.Add(time.Duration(m) * time.Minute)
		must(t, e.Core.Ingest.Ingest(e.IDs["d1"], []*model.Position{{Protocol: "test", FixTime: at, DeviceTime: at,
			Valid: true, Latitude: lat, Longitude: 13.4, Speed: speed, Attributes: model.Attributes{}}}))
	}
}

const morning = "from=2024-01-02T00:00:00Z&to=2024-01-02T23:59:59Z"

func TestMotionReports(t *testing.T) {
	run(t, []scenario{
		{Name: "one trip, from A to B", As: "user1", Before: drive, Method: "GET", Path: "/api/reports/trips?deviceId={d1}&" + morning,
			Status: 200, After: func(t *testing.T, _ *env, r *webtest.Response) {
				var trips []reports.Trip
				r.Decode(t, &trips)
				if len(trips) != 1 {
					t.Fatalf("%d trips, want 1: %s", len(trips), r.Body)
				}
				tr := trips[0]
				// Ten segments of 0.003° of latitude, as the ingest measured them.
				if tr.Distance < 3330 || tr.Distance > 3340 || tr.StartLat != 52.5 || tr.EndLat < 52.5299 || tr.EndLat > 52.5301 {
					t.Errorf("trip %+v", tr)
				}
				if tr.DeviceName != "Truck 1" || tr.MaxSpeed != 10.8 || tr.Duration != tr.EndTime.Sub(tr.StartTime).Milliseconds() {
					t.Errorf("trip %+v", tr)
				}
			}},
		{Name: "stops before and after it", As: "user1", Before: drive, Method: "GET", Path: "/api/reports/stops?deviceId={d1}&" + morning,
			Status: 200, After: func(t *testing.T, _ *env, r *webtest.Response) {
				var stops []reports.Stop
				r.Decode(t, &stops)
				if len(stops) != 2 || stops[0].Latitude != 52.5 || stops[1].Latitude < 52.5299 {
					t.Errorf("stops %s", r.Body)
				}
			}},
		{Name: "summary", As: "user1", Before: drive, Method: "GET", Path: "/api/reports/summary?deviceId={d1}&" + morning,
			Status: 200, After: func(t *testing.T, _ *env, r *webtest.Response) {
				var items []reports.SummaryItem
				r.Decode(t, &items)
				if len(items) != 1 || items[0].Distance < 3330 || items[0].Distance > 3340 || items[0].MaxSpeed != 10.8 {
					t.Errorf("summary %s", r.Body)
				}
			}},
		{Name: "summary by day in the user's zone", As: "user1", Before: func(t *testing.T, e *env) {
			// 02:00 UTC on the 2nd is still the 1st in New York.
			e.position(t, "late", "d1", time.Date(2024, 1, 2, 2, 0, 0, 0, time.UTC))
			drive(t, e)
			_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error {
				u.Attributes = model.Attributes{"timezone": "America/New_York"}
				return nil
			})
			must(t, err)
		}, Method: "GET", Path: "/api/reports/summary?daily=true&deviceId={d1}&from=2024-01-01T00:00:00Z&to=2024-01-02T23:59:59Z",
			Status: 200, After: func(t *testing.T, _ *env, r *webtest.Response) {
				var items []reports.SummaryItem
				r.Decode(t, &items)
				if len(items) != 2 || !items[0].EndTime.Equal(time.Date(2024, 1, 2, 2, 0, 0, 0, time.UTC)) ||
					!items[1].StartTime.Equal(time.Date(2024, 1, 2, 8, 0, 0, 0, time.UTC)) {
					t.Errorf("daily items in New York's days: %s", r.Body)
				}
			}},
		{Name: "trips as Excel", As: "user1", Before: drive, Method: "GET", Path: "/api/reports/trips/xlsx?deviceId={d1}&" + morning,
			Status: 200, After: workbookRows("Truck 1", 2)},
		{Name: "a group the caller does not see", As: "user1", Method: "GET", Path: "/api/reports/trips?groupId={g1}&" + morning, Status: 404},
		{Name: "the trip threshold from the device's attributes", As: "user1", Before: func(t *testing.T, e *env) {
			_, err := e.Core.Fleet.Devices.Update(model.System(), e.IDs["d1"], func(d *model.Device) error {
				d.Attributes = model.Attributes{"report.trip.minDistance": 5000.0}
				return nil
			})
			must(t, err)
			drive(t, e)
		}, Method: "GET", Path: "/api/reports/trips?deviceId={d1}&" + morning, Status: 200, Want: []string{"[]"}},
	})
}
