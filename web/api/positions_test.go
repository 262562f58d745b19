package api_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestPositions(t *testing.T) {
	run(t, []scenario{
		{Name: "latest of every visible device, admin", As: "admin", Method: "GET", Path: "/api/positions", Status: 200,
			Want: []string{`"id":{p3}`, `"id":{p4}`}, Absent: []string{`"id":{p1},`, `"id":{p2},`}},
		{Name: "latest, user", As: "user1", Method: "GET", Path: "/api/positions", Status: 200,
			Want: []string{`"id":{p3}`, `"fixTime":"2024-01-01T12:00:00Z"`, `"geofenceIds":[]`}, Absent: []string{`"id":{p4},`}},
		{Name: "range", As: "user1", Method: "GET", Status: 200,
			Path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z&to=2024-01-01T12:00:00.000Z",
			Want: []string{`"id":{p2}`, `"id":{p3}`}, Absent: []string{`"id":{p1},`}},
		{Name: "range with offsets and fractions, rendered in UTC", As: "user1", Method: "GET", Status: 200,
			Path: "/api/positions?deviceId={d1}&from=2024-01-01T12:30:00%2B02:00&to=2024-01-01T13:00:00.000%2B02:00",
			Want: []string{`"id":{p2}`, `"fixTime":"2024-01-01T11:00:00Z"`}, Absent: []string{`"id":{p3},`, `"id":{p1},`}},
		{Name: "deviceId without from and to", As: "user1", Method: "GET", Path: "/api/positions?deviceId={d1}",
			Status: 400, Want: []string{"from and to are required"}},
		{Name: "deviceId without to", As: "user1", Method: "GET", Status: 400,
			Path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z"},
		{Name: "to before from", As: "user1", Method: "GET", Status: 400,
			Path: "/api/positions?deviceId={d1}&from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z"},
		{Name: "malformed from", As: "user1", Method: "GET", Status: 400,
			Path: "/api/positions?deviceId={d1}&from=yesterday&to=2024-01-01T00:00:00Z", Want: []string{"from must be an ISO 8601"}},
		{Name: "range of an invisible device", As: "user1", Method: "GET", Status: 404,
			Path: "/api/positions?deviceId={d3}&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z"},
		{Name: "by ids", As: "admin", Method: "GET", Path: "/api/positions?id={p1}&id={p4}", Status: 200,
			Want: []string{`"id":{p1}`, `"id":{p4}`}},
		{Name: "by ids including an invisible one", As: "user1", Method: "GET", Path: "/api/positions?id={p1}&id={p4}",
			Status: 404, Want: []string{"position not found"}, Absent: []string{"Device"}},
		{Name: "by ids including one that does not exist: the same answer", As: "user1", Method: "GET",
			Path: "/api/positions?id={p1}&id=999999", Status: 404, Want: []string{"position not found"}},
		{Name: "anonymous", Method: "GET", Path: "/api/positions", Status: 401},

		{Name: "delete a range repoints the device", As: "user1", Method: "DELETE", Status: 204,
			Path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z&to=2024-01-01T12:00:00Z",
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if d := e.device(t, "d1"); d.PositionID != e.IDs["p1"] {
					t.Errorf("d1 positionId %d, want p1 %d", d.PositionID, e.IDs["p1"])
				}
				list, err := e.Core.Fleet.Positions(model.System(), fleet.PositionQuery{DeviceID: e.IDs["d1"], From: t10.AddDate(0, 0, -1), To: t12.AddDate(0, 0, 1)})
				must(t, err)
				if len(list) != 1 || list[0].ID != e.IDs["p1"] {
					t.Errorf("left %d positions, want p1 only", len(list))
				}
				if d3 := e.device(t, "d3"); d3.PositionID != e.IDs["p4"] {
					t.Error("another device's position moved")
				}
			}},
		{Name: "delete needs to", As: "admin", Method: "DELETE", Status: 400,
			Path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z", After: positionKept("d1", "p3")},
		{Name: "delete needs deviceId", As: "admin", Method: "DELETE", Status: 400,
			Path: "/api/positions?from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z", After: positionKept("d1", "p3")},
		{Name: "delete on an invisible device", As: "user1", Method: "DELETE", Status: 404,
			Path: "/api/positions?deviceId={d3}&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z", After: positionKept("d3", "p4")},
		{Name: "a refused delete leaves the live state alone", As: "user1", Method: "DELETE", Status: 404,
			Path:   "/api/positions?deviceId={d3}&from=2024-01-01T00:00:00Z&to=2030-01-02T00:00:00Z",
			Before: ingestTwice("d3"), After: liveKept("d3")},
	})
}

// ingestTwice reports two fixes of device through the ingest; the second
// moves the device's live positionId and lastUpdate, which the ingest
// stores only later (app.devicePersistInterval). The second's id is
// fixture "live".
func ingestTwice(device string) func(*testing.T, *env) {
	return func(t *testing.T, e *env) {
		for i := range 2 {
			at := time.Now().Add(time.Duration(i-2) * time.Minute)
			p := &model.Position{Valid: true, FixTime: at, DeviceTime: at, Latitude: 52.5, Longitude: 13.4, Attributes: model.Attributes{}}
			must(t, e.Core.Ingest.Ingest(e.IDs[device], []*model.Position{p}))
			e.IDs["live"] = p.ID
		}
	}
}

// liveKept checks that the device still answers with the live position.
func liveKept(device string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		r := e.Call(t, "admin", "GET", "/api/devices?id={"+device+"}", "")
		webtest.Contains(t, "device", r.Body, e.Expand(t, `"positionId":{live}`))
	}
}

func positionKept(device, position string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		if d := e.device(t, device); d.PositionID != e.IDs[position] {
			t.Errorf("%s positionId %d, want %s", device, d.PositionID, position)
		}
	}
}

func TestEvents(t *testing.T) {
	run(t, []scenario{
		{Name: "own device's event with Basic", As: "user1", Method: "GET", Path: "/api/events/{e1}", Status: 200,
			Want: []string{`"type":"ignitionOn"`, `"deviceId":{d1}`, `"eventTime":"2024-01-01T11:00:00Z"`}},
		{Name: "with the cookie", As: "user1", Auth: webtest.AuthLogin, Method: "GET", Path: "/api/events/{e1}", Status: 200},
		{Name: "through a group", As: "user2", Method: "GET", Path: "/api/events/{e3}", Status: 200},
		{Name: "invisible device's event", As: "user1", Method: "GET", Path: "/api/events/{e3}", Status: 404},
		{Name: "unknown", As: "admin", Method: "GET", Path: "/api/events/9999", Status: 404},
		{Name: "anonymous", Method: "GET", Path: "/api/events/{e1}", Status: 401},
	})
}
