package api2_test

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// mileageOf is the mileage attribute of the named device's latest
// position after one more fix through the ingest.
func (e *officeEnv) mileageOf(device string, minute int) any {
	e.t.Helper()
	e.ingest(device, e.fix(minute, 0, nil))
	var p *model.Position
	e.must(e.DB.View(func(tx model.Tx) (err error) {
		p, err = tx.LatestPosition(e.IDs[device])
		return err
	}))
	return p.Attributes["mileage"]
}

// computedCount is how many computed attributes are stored.
func (e *officeEnv) computedCount() int {
	e.t.Helper()
	var n int
	e.must(e.DB.View(func(tx model.Tx) (err error) {
		n, err = tx.ComputedAttributes().Count()
		return err
	}))
	return n
}

func TestFleetMileage(t *testing.T) {
	e := newOfficeEnv(t)
	connect := func(as, body string, status int, want string) {
		t.Helper()
		r := e.Call(t, as, "POST", "/api2/computed/mileage", body)
		if r.Status != status || r.Body != want {
			t.Fatalf("%s %s: %d %s, want %d %s", as, body, r.Status, r.Body, status, want)
		}
	}
	connected := `{"message":"Mileage Connected!"}`
	connect("alice", `{"vehicleId":"{car}","mileage":"12 km/l"}`, 201, connected)
	if got := e.mileageOf("car", 0); got != "12 km/l" {
		t.Fatalf("car's positions carry mileage %v", got)
	}
	// The same value again reuses the attribute.
	connect("alice", `{"vehicleId":"{car}","mileage":"12 km/l"}`, 200, connected)
	if n := e.computedCount(); n != 1 {
		t.Fatalf("%d computed attributes, want 1", n)
	}
	// A new value replaces the vehicle's mileage.
	connect("alice", `{"vehicleId":"{car}","mileage":"15 \"km\"/l"}`, 201, connected)
	if got := e.mileageOf("car", 1); got != `15 "km"/l` {
		t.Fatalf("after a new value: %v", got)
	}
	// The attribute is linked to alice: she lists it on the core API.
	if r := e.Call(t, "alice", "GET", "/api/attributes/computed?deviceId={car}", ""); r.Status != 200 ||
		!strings.Contains(r.Body, `"attribute":"mileage"`) {
		t.Fatalf("alice's attributes for car: %s", r.Body)
	}
	// bob's van gets the value from its own mileage attribute.
	_, err := e.Core.Fleet.Devices.Update(model.System(), e.IDs["van"], func(d *model.Device) error {
		d.Attributes = model.Attributes{"mileage": "9 km/l"}
		return nil
	})
	e.must(err)
	connect("bob", `{"vehicleId":"{van}"}`, 201, connected)
	if got := e.mileageOf("van", 0); got != "9 km/l" {
		t.Fatalf("van: %v", got)
	}
}

func TestFleetMileageErrors(t *testing.T) {
	failed := `{"message":"Some requests failed","error":`
	readonly := func(t *testing.T, e *officeEnv) {
		_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["alice"], func(u *model.User) error { u.Readonly = true; return nil })
		e.must(err)
	}
	var scenarios []officeScenario
	for _, s := range []struct {
		name, as, body string
		prepare        func(*testing.T, *officeEnv)
		status         int
		detail         string
	}{
		{"another user's vehicle", "bob", `{"vehicleId":"{car}","mileage":"12 km/l"}`, nil, 400, "Device not found"},
		{"a vehicle that does not exist", "alice", `{"vehicleId":"999999","mileage":"12 km/l"}`, nil, 400, "Device not found"},
		{"vehicleId is required", "alice", `{"mileage":"12 km/l"}`, nil, 400, "vehicleId is required"},
		{"vehicleId not an id", "alice", `{"vehicleId":"car","mileage":"12 km/l"}`, nil, 400, `vehicle car not found`},
		{"no mileage anywhere", "alice", `{"vehicleId":"{car}"}`, nil, 400, "mileage is required"},
		{"mileage too long", "alice", `{"vehicleId":"{car}","mileage":"` + strings.Repeat("x", 60) + `"}`, nil, 400, "at most 50"},
		{"malformed body", "alice", `{"vehicleId":`, nil, 400, "malformed JSON"},
		{"no permission: a read-only account", "alice", `{"vehicleId":"{car}","mileage":"12 km/l"}`, readonly, 401, "read-only"},
		{"no permission: devices read-only", "alice", `{"vehicleId":"{car}","mileage":"12 km/l"}`, func(t *testing.T, e *officeEnv) {
			_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["alice"], func(u *model.User) error { u.DeviceReadonly = true; return nil })
			e.must(err)
		}, 401, "Devices are read-only"},
	} {
		scenarios = append(scenarios, officeScenario{Name: s.name, As: s.as, Method: "POST", Path: "/api2/computed/mileage",
			Body: s.body, Before: s.prepare, Status: s.status, Want: []string{failed, s.detail},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if n := e.computedCount(); n != 0 {
					t.Errorf("%d computed attributes stored by a failed request", n)
				}
			}})
	}
	// bob shares alice's car but not her mileage attribute: it is not his
	// to replace.
	scenarios = append(scenarios, officeScenario{Name: "another account's mileage on a shared vehicle", As: "bob",
		Method: "POST", Path: "/api2/computed/mileage", Body: `{"vehicleId":"{car}","mileage":"20 km/l"}`,
		Before: func(t *testing.T, e *officeEnv) {
			_, err := e.Core.Fleet.ConnectMileage(e.user("alice"), e.IDs["car"], "12 km/l")
			e.must(err)
			e.link("bob", model.KindDevice, e.IDs["car"])
		},
		Status: 400, Want: []string{failed, "another account"}, Unchanged: true})
	scenarios = append(scenarios, officeScenario{Name: "no session", Method: "POST", Path: "/api2/computed/mileage",
		Body: `{"vehicleId":"1"}`, Status: 401})
	runOffice(t, scenarios)
}
