package api_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestPositions(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "latest of every visible device, admin", as: "admin", method: "GET", path: "/api/positions", status: 200,
			want: []string{`"id":{p3}`, `"id":{p4}`}, absent: []string{`"id":{p1},`, `"id":{p2},`}},
		{name: "latest, user", as: "user1", method: "GET", path: "/api/positions", status: 200,
			want: []string{`"id":{p3}`, `"fixTime":"2024-01-01T12:00:00Z"`, `"geofenceIds":[]`}, absent: []string{`"id":{p4},`}},
		{name: "range", as: "user1", method: "GET", status: 200,
			path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z&to=2024-01-01T12:00:00.000Z",
			want: []string{`"id":{p2}`, `"id":{p3}`}, absent: []string{`"id":{p1},`}},
		{name: "range with offsets and fractions, rendered in UTC", as: "user1", method: "GET", status: 200,
			path: "/api/positions?deviceId={d1}&from=2024-01-01T12:30:00%2B02:00&to=2024-01-01T13:00:00.000%2B02:00",
			want: []string{`"id":{p2}`, `"fixTime":"2024-01-01T11:00:00Z"`}, absent: []string{`"id":{p3},`, `"id":{p1},`}},
		{name: "deviceId without from and to", as: "user1", method: "GET", path: "/api/positions?deviceId={d1}",
			status: 400, want: []string{"from and to are required"}},
		{name: "deviceId without to", as: "user1", method: "GET", status: 400,
			path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z"},
		{name: "to before from", as: "user1", method: "GET", status: 400,
			path: "/api/positions?deviceId={d1}&from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z"},
		{name: "malformed from", as: "user1", method: "GET", status: 400,
			path: "/api/positions?deviceId={d1}&from=yesterday&to=2024-01-01T00:00:00Z", want: []string{"from must be an ISO 8601"}},
		{name: "range of an invisible device", as: "user1", method: "GET", status: 404,
			path: "/api/positions?deviceId={d3}&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z"},
		{name: "by ids", as: "admin", method: "GET", path: "/api/positions?id={p1}&id={p4}", status: 200,
			want: []string{`"id":{p1}`, `"id":{p4}`}},
		{name: "by ids including an invisible one", as: "user1", method: "GET", path: "/api/positions?id={p1}&id={p4}",
			status: 404, want: []string{"position not found"}, absent: []string{"Device"}},
		{name: "by ids including one that does not exist: the same answer", as: "user1", method: "GET",
			path: "/api/positions?id={p1}&id=999999", status: 404, want: []string{"position not found"}},
		{name: "anonymous", method: "GET", path: "/api/positions", status: 401},

		{name: "delete a range repoints the device", as: "user1", method: "DELETE", status: 204,
			path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z&to=2024-01-01T12:00:00Z",
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				if d := e.device(t, "d1"); d.PositionID != e.ids["p1"] {
					t.Errorf("d1 positionId %d, want p1 %d", d.PositionID, e.ids["p1"])
				}
				list, err := e.core.Positions(app.System(), app.PositionQuery{DeviceID: e.ids["d1"], From: t10.AddDate(0, 0, -1), To: t12.AddDate(0, 0, 1)})
				must(t, err)
				if len(list) != 1 || list[0].ID != e.ids["p1"] {
					t.Errorf("left %d positions, want p1 only", len(list))
				}
				if d3 := e.device(t, "d3"); d3.PositionID != e.ids["p4"] {
					t.Error("another device's position moved")
				}
			}},
		{name: "delete needs to", as: "admin", method: "DELETE", status: 400,
			path: "/api/positions?deviceId={d1}&from=2024-01-01T10:30:00Z", check: positionKept("d1", "p3")},
		{name: "delete needs deviceId", as: "admin", method: "DELETE", status: 400,
			path: "/api/positions?from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z", check: positionKept("d1", "p3")},
		{name: "delete on an invisible device", as: "user1", method: "DELETE", status: 404,
			path: "/api/positions?deviceId={d3}&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z", check: positionKept("d3", "p4")},
		{name: "a refused delete leaves the live state alone", as: "user1", method: "DELETE", status: 404,
			path:    "/api/positions?deviceId={d3}&from=2024-01-01T00:00:00Z&to=2030-01-02T00:00:00Z",
			prepare: ingestTwice("d3"), check: liveKept("d3")},
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
			must(t, e.core.Ingest(e.ids[device], []*model.Position{p}))
			e.ids["live"] = p.ID
		}
	}
}

// liveKept checks that the device still answers with the live position.
func liveKept(device string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		r := e.request(t, "admin", "GET", e.expand(t, "/api/devices?id={"+device+"}"), "", "")
		webtest.Contains(t, "device", r.Body, e.expand(t, `"positionId":{live}`))
	}
}

func positionKept(device, position string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		if d := e.device(t, device); d.PositionID != e.ids[position] {
			t.Errorf("%s positionId %d, want %s", device, d.PositionID, position)
		}
	}
}

func TestEvents(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "own device's event with Basic", as: "user1", method: "GET", path: "/api/events/{e1}", status: 200,
			want: []string{`"type":"ignitionOn"`, `"deviceId":{d1}`, `"eventTime":"2024-01-01T11:00:00Z"`}},
		{name: "with the cookie", as: "user1-cookie", method: "GET", path: "/api/events/{e1}", status: 200},
		{name: "through a group", as: "user2", method: "GET", path: "/api/events/{e3}", status: 200},
		{name: "invisible device's event", as: "user1", method: "GET", path: "/api/events/{e3}", status: 404},
		{name: "unknown", as: "admin", method: "GET", path: "/api/events/9999", status: 404},
		{name: "anonymous", method: "GET", path: "/api/events/{e1}", status: 401},
	})
}
