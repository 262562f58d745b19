package api2_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func TestFleetAlarmAnalytics(t *testing.T) {
	e := newOfficeEnv(t)
	e.device("bus", "alice")
	e.setZone("America/New_York") // UTC-4 in June
	alarm := func(device string, at string, kind string) {
		ts, err := time.Parse(time.RFC3339, at)
		e.must(err)
		e.addEvent("", device, ts, model.EventAlarm, model.Attributes{"alarm": kind})
	}
	alarm("car", "2025-06-01T03:00:00Z", "vibration") // 2025-05-31 in New York
	alarm("car", "2025-06-01T05:00:00Z", "vibration") // 2025-06-01
	alarm("car", "2025-06-01T06:00:00Z", "powerCut")
	alarm("bus", "2025-06-02T12:00:00Z", "overspeed")
	alarm("van", "2025-06-01T12:00:00Z", "tampering")                                                        // bob's
	e.addEvent("", "car", time.Date(2025, 6, 1, 7, 0, 0, 0, time.UTC), model.EventIgnitionOn, nil)           // not an alarm
	e.addEvent("", "car", time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC), model.EventAlarm, model.Attributes{}) // no kind
	alarm("car", "2025-06-05T12:00:00Z", "accident")                                                         // out of range

	type counts struct {
		Total    int            `json:"total"`
		TimeData map[string]int `json:"timeData"`
		Alarms   map[string]int `json:"alarms"`
	}
	type vehicle struct {
		DeviceID string `json:"deviceId"`
		counts
	}
	type answer struct {
		counts
		VehicleData []vehicle `json:"vehicleData"`
	}
	const rng = "from=2025-06-01T00:00:00Z&to=2025-06-03T00:00:00Z"
	r := e.Call(t, "alice", "GET", "/api2/analytics/device/alerts?deviceId={car}&deviceId={bus}&"+rng, "")
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	var got answer
	r.Decode(t, &got)
	car := vehicle{e.Expand(t, "{car}"), counts{3, map[string]int{"2025-05-31": 1, "2025-06-01": 2}, map[string]int{"vibration": 2, "powerCut": 1}}}
	bus := vehicle{e.Expand(t, "{bus}"), counts{1, map[string]int{"2025-06-02": 1}, map[string]int{"overspeed": 1}}}
	want := answer{counts{4, map[string]int{"2025-05-31": 1, "2025-06-01": 2, "2025-06-02": 1},
		map[string]int{"vibration": 2, "powerCut": 1, "overspeed": 1}}, []vehicle{car, bus}}
	if !sameJSON(t, got, want) {
		t.Fatalf("got  %s\nwant %s", mustJSON(t, got), mustJSON(t, want))
	}

	// Without deviceId: every device alice sees; a device without alarms has zeros.
	e.device("idle", "alice")
	r = e.Call(t, "alice", "GET", "/api2/analytics/device/alerts?"+rng, "")
	r.Decode(t, &got)
	idle := vehicle{e.Expand(t, "{idle}"), counts{0, map[string]int{}, map[string]int{}}}
	want.VehicleData = append(want.VehicleData, idle)
	if !sameJSON(t, got, want) {
		t.Fatalf("all devices:\ngot  %s\nwant %s", mustJSON(t, got), mustJSON(t, want))
	}

	runOffice(t, []officeScenario{
		{Name: "from and to are required", As: "alice", Method: "GET", Path: "/api2/analytics/device/alerts?deviceId={car}",
			Status: 400, Want: []string{"from and to are required"}},
		{Name: "another user's device is not found", As: "alice", Method: "GET",
			Path: "/api2/analytics/device/alerts?deviceId={van}&" + rng, Status: 404},
		{Name: "at most 366 days", As: "alice", Method: "GET",
			Path: "/api2/analytics/device/alerts?from=2024-01-01T00:00:00Z&to=2025-06-01T00:00:00Z", Status: 400, Want: []string{"366 days"}},
		{Name: "no session", Method: "GET", Path: "/api2/analytics/device/alerts?" + rng, Status: 401},
	})
}
