package api2_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// eventsFixture: alice's car and bus and bob's van, with events a minute
// apart; c1..c4 on car, b1..b3 on bus (interleaved), v1 on van.
func eventsFixture(t *testing.T) *officeEnv {
	e := newOfficeEnv(t)
	e.device("bus", "alice")
	at := func(m int) time.Time { return officeNow.Add(time.Duration(m) * time.Minute) }
	e.addEvent("c1", "car", at(1), model.EventIgnitionOn, nil)
	e.addEvent("b1", "bus", at(2), model.EventIgnitionOn, nil)
	e.addEvent("c2", "car", at(3), model.EventAlarm, model.Attributes{"alarm": "vibration"})
	e.addEvent("b2", "bus", at(3), model.EventGeofenceEnter, nil) // same time as c2: ordered by id
	e.addEvent("c3", "car", at(5), model.EventIgnitionOff, nil)
	e.addEvent("b3", "bus", at(6), model.EventIgnitionOff, nil)
	e.addEvent("c4", "car", at(60*24+1), model.EventIgnitionOn, nil) // the next day
	e.addEvent("v1", "van", at(4), model.EventIgnitionOn, nil)
	// The geofence event names its geofence; the bus's has a maintenance.
	e.must(e.DB.Update(func(tx model.Tx) error {
		ev := &model.Event{Type: "maintenance", EventTime: at(7), DeviceID: e.IDs["bus"], MaintenanceID: 9, GeofenceID: 4,
			Attributes: model.Attributes{"note": "due"}}
		err := tx.AddEvent(ev)
		e.IDs["b4"] = ev.ID
		return err
	}))
	return e
}

const day = "from=2025-06-01T00:00:00Z&to=2025-06-01T23:59:59Z"

func TestFleetEvents(t *testing.T) {
	tests := []struct {
		name  string
		as    string
		query string
		want  []string // event names, in order
	}{
		{"all of alice's devices, oldest first", "alice", day, []string{"c1", "b1", "c2", "b2", "c3", "b3", "b4"}},
		{"newest first", "alice", day + "&sort=desc", []string{"b4", "b3", "c3", "b2", "c2", "b1", "c1"}},
		{"page 2 of 3", "alice", day + "&limit=3&page=2", []string{"b2", "c3", "b3"}},
		{"last page, newest first", "alice", day + "&limit=3&page=3&sort=desc", []string{"c1"}},
		{"past the end", "alice", day + "&limit=3&page=4", nil},
		{"repeated types", "alice", day + "&type=ignitionOn&type=ignitionOff", []string{"c1", "b1", "c3", "b3"}},
		{"allEvents is every type", "alice", day + "&type=allEvents&limit=2", []string{"c1", "b1"}},
		{"one device", "alice", day + "&deviceIds={car}", []string{"c1", "c2", "c3"}},
		{"repeated devices", "alice", day + "&deviceIds={car}&deviceIds={bus}&type=ignitionOff&sort=desc", []string{"b3", "c3"}},
		{"the range bounds are inclusive", "alice", "from=2025-06-01T09:03:00Z&to=2025-06-01T09:05:00Z", []string{"c2", "b2", "c3"}},
		{"a range in another offset", "alice", "from=2025-06-02T11:00:00%2B02:00&to=2025-06-02T12:00:00%2B02:00", []string{"c4"}},
		{"bob sees only his van", "bob", day, []string{"v1"}},
		{"an administrator sees every device", "admin", day + "&type=ignitionOn", []string{"c1", "b1", "v1"}},
	}
	e := eventsFixture(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Call(t, tt.as, "GET", "/api2/events?"+tt.query, "")
			if r.Status != 200 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if got, want := eventIDs(decodeExtended(t, r.Body)), e.namedIDs(tt.want...); !slices.Equal(got, want) {
				t.Fatalf("events %v, want %v (%v)", got, want, tt.want)
			}
		})
	}
}

func TestFleetEventShape(t *testing.T) {
	e := eventsFixture(t)
	e.setZone("Europe/Vilnius") // UTC+3 in June
	r := e.Call(t, "alice", "GET", "/api2/events?"+day+"&type=alarm&type=maintenance", "")
	got := decodeExtended(t, r.Body)
	if len(got) != 2 {
		t.Fatalf("%d events: %s", len(got), r.Body)
	}
	alarm, maintenance := got[0], got[1]
	if alarm.EventTime != "2025-06-01T12:03:00.000+03:00" || alarm.Attributes != `{"alarm":"vibration"}` ||
		alarm.GeofenceID != nil || alarm.MaintenanceID != nil || alarm.DeviceID != e.IDs["car"] || alarm.Type != "alarm" {
		t.Errorf("alarm %+v", alarm)
	}
	if maintenance.GeofenceID == nil || *maintenance.GeofenceID != 4 || maintenance.MaintenanceID == nil ||
		*maintenance.MaintenanceID != 9 || maintenance.Attributes != `{"note":"due"}` {
		t.Errorf("maintenance %+v", maintenance)
	}
}

func TestFleetEventsLimit(t *testing.T) {
	e := newOfficeEnv(t)
	for i := range 120 {
		e.addEvent("", "car", officeNow.Add(time.Duration(i)*time.Second), model.EventDeviceMoving, nil)
	}
	for query, want := range map[string]int{"": 20, "&limit=1000": 100, "&limit=7&page=17": 7, "&limit=7&page=18": 1} {
		r := e.Call(t, "alice", "GET", "/api2/events?"+day+query, "")
		if got := len(decodeExtended(t, r.Body)); r.Status != 200 || got != want {
			t.Errorf("%q: %d events (status %d), want %d", query, got, r.Status, want)
		}
	}
}

func TestFleetEventErrors(t *testing.T) {
	var scenarios []officeScenario
	for _, s := range []struct {
		name, as, query string
		status          int
		want            string
	}{
		{"from missing", "alice", "to=2025-06-01T23:59:59Z", 400, "from and to are required"},
		{"to missing", "alice", "from=2025-06-01T00:00:00Z", 400, "from and to are required"},
		{"from not a time", "alice", "from=yesterday&to=2025-06-01T23:59:59Z", 400, "ISO 8601"},
		{"to before from", "alice", "from=2025-06-02T00:00:00Z&to=2025-06-01T00:00:00Z", 400, "before"},
		{"bad sort", "alice", day + "&sort=up", 400, "sort must be asc or desc"},
		{"bad page", "alice", day + "&page=0", 400, "page"},
		{"page too deep", "alice", day + "&page=101&limit=100", 400, "at most 10000 events"},
		{"page far too deep", "alice", day + "&page=9223372036854775807", 400, "at most 10000 events"},
		{"bad device id", "alice", day + "&deviceIds=x", 400, "deviceIds"},
		{"a device the caller cannot see is refused", "alice", day + "&deviceIds={car}&deviceIds={van}", 404, "Device not found"},
		{"a device that does not exist", "admin", day + "&deviceIds=999999", 404, "not found"},
		{"no session", "", day, 401, ""},
	} {
		scenarios = append(scenarios, officeScenario{Name: s.name, As: s.as, Method: "GET", Path: "/api2/events?" + s.query,
			Status: s.status, Want: []string{s.want}})
	}
	runOffice(t, scenarios)
}

// TestFleetEventsFromIngest: events the ingest derives come back through
// E2 (not just ones written into the store).
func TestFleetEventsFromIngest(t *testing.T) {
	e := newOfficeEnv(t)
	e.ingest("car", e.fix(0, 0, model.Attributes{"ignition": false}))
	e.ingest("car", e.fix(1, 0, model.Attributes{"ignition": true, "alarm": "powerCut"}))
	r := e.Call(t, "alice", "GET", "/api2/events?"+day, "")
	var types []string
	for _, ev := range decodeExtended(t, r.Body) {
		types = append(types, ev.Type)
	}
	if got := strings.Join(types, ","); got != "deviceOnline,alarm,ignitionOn" {
		t.Fatalf("types %s", got)
	}
}
