package api2_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// The fleet tests (devices, events, analytics, payments, computed mileage)
// run on the office fixture (newOfficeEnv: admin; alice with device car
// and driver drv; bob with device van) and add what they need here.

// addEvent stores an event of the named device at "at" directly in the
// store and names its id.
func (e *officeEnv) addEvent(name, device string, at time.Time, typ string, attrs model.Attributes) {
	e.t.Helper()
	ev := &model.Event{Type: typ, EventTime: at, DeviceID: e.IDs[device], Attributes: attrs}
	e.must(e.DB.Update(func(tx model.Tx) error { return tx.AddEvent(ev) }))
	if name != "" {
		e.IDs[name] = ev.ID
	}
}

// ingest runs positions of the named device through the core's pipeline.
func (e *officeEnv) ingest(device string, positions ...*model.Position) {
	e.t.Helper()
	e.must(e.Core.Ingest.Ingest(e.IDs[device], positions))
}

// fix is a valid position at the clock's time plus m minutes.
func (e *officeEnv) fix(m int, speed float64, attrs model.Attributes) *model.Position {
	if attrs == nil {
		attrs = model.Attributes{}
	}
	return &model.Position{FixTime: e.clock().Add(time.Duration(m) * time.Minute), Valid: true,
		Latitude: 54.68, Longitude: 25.28, Speed: speed, Attributes: attrs}
}

// setZone sets the server's time zone attribute.
func (e *officeEnv) setZone(zone string) {
	e.t.Helper()
	_, err := e.Core.Accounts.UpdateServer(model.System(), func(s *model.Server) error {
		s.Attributes = model.Attributes{fleet.ZoneAttribute: zone}
		return nil
	})
	e.must(err)
}

// extendedEvent is the spec's extended event form, decoded strictly.
type extendedEvent struct {
	ID            int64  `json:"id"`
	Type          string `json:"type"`
	EventTime     string `json:"eventtime"`
	DeviceID      int64  `json:"deviceid"`
	PositionID    int64  `json:"positionid"`
	GeofenceID    *int64 `json:"geofenceid"`
	Attributes    string `json:"attributes"`
	MaintenanceID *int64 `json:"maintenanceid"`
}

var extendedKeys = []string{"attributes", "deviceid", "eventtime", "geofenceid", "id", "maintenanceid", "positionid", "type"}

// decodeExtended decodes one extended event or a list of them, failing
// unless each has exactly the spec's lowercase keys, attributes is a
// string holding a JSON object and eventtime is ISO 8601 with an offset.
func decodeExtended(t *testing.T, body string) []extendedEvent {
	t.Helper()
	data := []byte(body)
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) {
		data = append(append([]byte("["), data...), ']')
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("not extended events: %v: %s", err, body)
	}
	out := make([]extendedEvent, len(raw))
	for i, m := range raw {
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, extendedKeys) {
			t.Fatalf("event keys %v, want %v", keys, extendedKeys)
		}
		if !bytes.HasPrefix(m["attributes"], []byte(`"`)) {
			t.Fatalf("attributes is not a string: %s", m["attributes"])
		}
		dec := json.NewDecoder(bytes.NewReader(mustJSON(t, m)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out[i]); err != nil {
			t.Fatal(err)
		}
		var attrs map[string]any
		if err := json.Unmarshal([]byte(out[i].Attributes), &attrs); err != nil || attrs == nil {
			t.Fatalf("attributes %q is not a JSON object", out[i].Attributes)
		}
		if _, err := time.Parse("2006-01-02T15:04:05.000-07:00", out[i].EventTime); err != nil {
			t.Fatalf("eventtime %q is not ISO 8601 with an offset", out[i].EventTime)
		}
	}
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// eventIDs are the ids of events, in order.
func eventIDs(events []extendedEvent) []int64 {
	out := make([]int64, len(events))
	for i, e := range events {
		out[i] = e.ID
	}
	return out
}

// namedIDs are the fixture ids of names, in order.
func (e *officeEnv) namedIDs(names ...string) []int64 {
	out := make([]int64, len(names))
	for i, n := range names {
		out[i] = e.IDs[n]
	}
	return out
}

// deviceCount is how many devices the store holds.
func (e *officeEnv) deviceCount() int {
	e.t.Helper()
	var n int
	e.must(e.DB.View(func(tx model.Tx) (err error) {
		n, err = tx.Devices().Count()
		return err
	}))
	return n
}
