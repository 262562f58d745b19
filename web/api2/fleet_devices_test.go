package api2_test

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// installed is M3's and M4's answer.
type installed struct {
	ID             string           `json:"id"`
	Name           string           `json:"name"`
	Installation   *time.Time       `json:"installation"`
	UniqueID       string           `json:"uniqueId"`
	Phone          string           `json:"phone"`
	Contact        string           `json:"contact"`
	Model          string           `json:"model"`
	GroupID        *string          `json:"groupId"`
	Attributes     model.Attributes `json:"attributes"`
	ExpirationTime *time.Time       `json:"expirationTime"`
	InstalledBy    *string          `json:"installedBy"`
	Location       string           `json:"location"`
	Notes          string           `json:"notes"`
	Message        string           `json:"message"`
}

const newDevice = `{"name":"Truck","uniqueId":"356307042441013","phone":"+37060000000","contact":"Ann",
	"model":"FMB920","attributes":{"mileage":"12 km/l"},"location":"Depot 2","notes":"under the dash",
	"expirationTime":"2040-01-01T00:00:00Z"}`

// wantExpiry is the one-year rule at the fixture's clock.
var wantExpiry = officeNow.AddDate(1, 0, 0)

// stored is the device as the core (and /api/devices) has it.
func (e *officeEnv) stored(id string) *model.Device {
	e.t.Helper()
	n, err := strconv.ParseInt(id, 10, 64)
	e.must(err)
	d, err := e.Core.Fleet.Devices.Get(model.System(), n)
	e.must(err)
	return d
}

func TestFleetDeviceCreate(t *testing.T) {
	runOffice(t, []officeScenario{
		{Name: "M3 creates the core device and its installation record; expirationTime in the body is ignored",
			As: "alice", Method: "POST", Path: "/api2/devices", Body: newDevice, Status: 201,
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var got installed
				r.Decode(t, &got)
				if got.Message != "Device added successfully." || got.Name != "Truck" || got.Phone != "+37060000000" ||
					got.Contact != "Ann" || got.Location != "Depot 2" || got.Notes != "under the dash" {
					t.Errorf("answer %+v", got)
				}
				if got.Installation == nil || !got.Installation.Equal(officeNow) {
					t.Errorf("installation %v, want %v", got.Installation, officeNow)
				}
				if got.InstalledBy == nil || *got.InstalledBy != strconv.FormatInt(e.IDs["alice"], 10) {
					t.Errorf("installedBy %v, want alice", got.InstalledBy)
				}
				if got.ExpirationTime == nil || !got.ExpirationTime.Equal(wantExpiry) {
					t.Errorf("expirationTime %v, want %v", got.ExpirationTime, wantExpiry)
				}
				d := e.stored(got.ID)
				if d.ExpirationTime == nil || !d.ExpirationTime.Equal(wantExpiry) || d.Attributes["mileage"] != "12 km/l" {
					t.Errorf("stored device %+v", d)
				}
				// The same device, linked to alice, on the core API.
				v1 := e.Call(t, "alice", "GET", "/api/devices?uniqueId=356307042441013", "")
				if v1.Status != 200 || !strings.Contains(v1.Body, `"id":`+got.ID+`,`) {
					t.Errorf("/api/devices: %d %s", v1.Status, v1.Body)
				}
			}},
		{Name: "an administrator cannot set expirationTime through M3 either",
			As: "admin", Method: "POST", Path: "/api2/devices", Body: newDevice, Status: 201,
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var got installed
				r.Decode(t, &got)
				if d := e.stored(got.ID); !d.ExpirationTime.Equal(wantExpiry) {
					t.Errorf("expirationTime %v, want %v", d.ExpirationTime, wantExpiry)
				}
			}},
		{Name: "groupId is a string id", As: "alice", Method: "POST", Path: "/api2/devices",
			Before: func(t *testing.T, e *officeEnv) {
				g, err := e.Core.Fleet.Groups.Create(e.user("alice"), func(g *model.Group) error { g.Name = "fleet"; return nil })
				e.must(err)
				e.IDs["fleet"] = g.ID
			},
			Body: `{"name":"T","uniqueId":"u-1","phone":"1","contact":"c","groupId":"{fleet}"}`, Status: 201,
			Want: []string{`"groupId":"{fleet}"`}},
		{Name: "missing required fields are named", As: "alice", Method: "POST", Path: "/api2/devices",
			Body: `{"name":"T","uniqueId":"u-1","phone":"  "}`, Status: 400, Want: []string{"contact, phone are required"},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if n := e.deviceCount(); n != 2 {
					t.Errorf("%d devices stored, want the fixture's 2", n)
				}
			}},
		{Name: "a duplicate uniqueId is refused", As: "alice", Method: "POST", Path: "/api2/devices",
			Body: `{"name":"T","uniqueId":"imei-van","phone":"1","contact":"c"}`, Status: 400,
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if n := e.deviceCount(); n != 2 {
					t.Errorf("%d devices stored, want 2", n)
				}
			}},
		{Name: "the device limit applies", As: "alice", Method: "POST", Path: "/api2/devices",
			Before: func(t *testing.T, e *officeEnv) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["alice"], func(u *model.User) error { u.DeviceLimit = 1; return nil })
				e.must(err)
			},
			Body: `{"name":"T","uniqueId":"u-1","phone":"1","contact":"c"}`, Status: 400, Want: []string{"Device limit reached"}},
		{Name: "a read-only account cannot add devices", As: "alice", Method: "POST", Path: "/api2/devices",
			Before: func(t *testing.T, e *officeEnv) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["alice"], func(u *model.User) error { u.DeviceReadonly = true; return nil })
				e.must(err)
			},
			Body: `{"name":"T","uniqueId":"u-1","phone":"1","contact":"c"}`, Status: 403},
		{Name: "malformed JSON", As: "alice", Method: "POST", Path: "/api2/devices", Body: `{"name":`, Status: 400},
		{Name: "no session", Method: "POST", Path: "/api2/devices", Body: newDevice, Status: 401},
	})
}

// install registers a device through M3 as user and names it.
func (e *officeEnv) install(name, as string) installed {
	e.t.Helper()
	r := e.Call(e.t, as, "POST", "/api2/devices", `{"name":"`+name+`","uniqueId":"imei-`+name+`","phone":"1","contact":"c"}`)
	if r.Status != 201 {
		e.t.Fatalf("install %s: %d %s", name, r.Status, r.Body)
	}
	var got installed
	r.Decode(e.t, &got)
	n, err := strconv.ParseInt(got.ID, 10, 64)
	e.must(err)
	e.IDs[name] = n
	return got
}

func TestFleetDeviceList(t *testing.T) {
	e := newOfficeEnv(t)
	truck := e.install("truck", "alice")
	var list []map[string]any
	r := e.Call(t, "alice", "GET", "/api2/devices", "")
	r.Decode(t, &list)
	want := []map[string]any{
		{"id": strconv.FormatInt(e.IDs["car"], 10), "name": "car", "installation": nil},
		{"id": truck.ID, "name": "truck", "installation": officeNow.Format(time.RFC3339)},
	}
	if r.Status != 200 || !sameJSON(t, list, want) {
		t.Fatalf("alice's list %d %s, want %v", r.Status, r.Body, want)
	}
	r = e.Call(t, "bob", "GET", "/api2/devices", "")
	r.Decode(t, &list)
	if len(list) != 1 || list[0]["name"] != "van" {
		t.Fatalf("bob's list %s", r.Body)
	}
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	return string(mustJSON(t, a)) == string(mustJSON(t, b))
}

func TestFleetDeviceUpdate(t *testing.T) {
	runOffice(t, []officeScenario{
		{Name: "M4 updates the given fields and never the expiration", As: "alice", Method: "PUT", Path: "/api2/devices/{truck}",
			Before: func(t *testing.T, e *officeEnv) { e.install("truck", "alice"); e.setNow(officeNow.Add(48 * time.Hour)) },
			Body:   `{"name":"Big truck","phone":"2","expirationTime":"2040-01-01T00:00:00Z","model":"X"}`, Status: 200,
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				var got installed
				r.Decode(t, &got)
				if got.Name != "Big truck" || got.Phone != "2" || got.Contact != "c" || got.Model != "X" || got.Message != "" {
					t.Errorf("answer %+v", got)
				}
				if !got.ExpirationTime.Equal(wantExpiry) || !e.stored(got.ID).ExpirationTime.Equal(wantExpiry) {
					t.Errorf("expirationTime %v changed, want %v", got.ExpirationTime, wantExpiry)
				}
				if got.Installation == nil || !got.Installation.Equal(officeNow) {
					t.Errorf("installation %v", got.Installation)
				}
			}},
		{Name: "an administrator cannot change the expiration through M4", As: "admin", Method: "PUT", Path: "/api2/devices/{truck}",
			Before: func(t *testing.T, e *officeEnv) { e.install("truck", "alice") },
			Body:   `{"expirationTime":"2040-01-01T00:00:00Z"}`, Status: 200,
			After: func(t *testing.T, e *officeEnv, r *webtest.Response) {
				if d := e.stored(strconv.FormatInt(e.IDs["truck"], 10)); !d.ExpirationTime.Equal(wantExpiry) {
					t.Errorf("expirationTime %v", d.ExpirationTime)
				}
			}},
		{Name: "a device without phone and contact must get them", As: "alice", Method: "PUT", Path: "/api2/devices/{car}",
			Body: `{"name":"car 2"}`, Status: 400, Want: []string{"contact, phone are required"},
			After: func(t *testing.T, e *officeEnv, _ *webtest.Response) {
				if d := e.stored(strconv.FormatInt(e.IDs["car"], 10)); d.Name != "car" {
					t.Errorf("name changed to %q", d.Name)
				}
			}},
		{Name: "another user's device is not found", As: "bob", Method: "PUT", Path: "/api2/devices/{car}",
			Body: `{"name":"mine","phone":"1","contact":"c"}`, Status: 404},
		{Name: "a taken uniqueId is refused", As: "alice", Method: "PUT", Path: "/api2/devices/{car}",
			Body: `{"uniqueId":"imei-van","phone":"1","contact":"c"}`, Status: 400},
		{Name: "a non-id is not found", As: "alice", Method: "PUT", Path: "/api2/devices/abc", Body: `{}`, Status: 404},
	})
}

func TestFleetDeviceDeleteInstallation(t *testing.T) {
	e := newOfficeEnv(t)
	e.install("truck", "alice")
	for _, step := range []struct {
		as     string
		path   string
		status int
	}{
		{"bob", "/api2/devices/{truck}", 404},
		{"alice", "/api2/devices/{truck}", 204},
		{"alice", "/api2/devices/{truck}", 404}, // nothing left to remove
		{"alice", "/api2/devices/{car}", 404},   // never had a record
	} {
		if r := e.Call(t, step.as, "DELETE", step.path, ""); r.Status != step.status {
			t.Fatalf("%s DELETE %s: %d, want %d: %s", step.as, step.path, r.Status, step.status, r.Body)
		}
	}
	// The device stays, without installation.
	d := e.stored(strconv.FormatInt(e.IDs["truck"], 10))
	if d.Name != "truck" || !d.ExpirationTime.Equal(wantExpiry) {
		t.Fatalf("device after M5: %+v", d)
	}
	if r := e.Call(t, "alice", "GET", "/api2/devices", ""); !strings.Contains(r.Body, `"name":"truck","installation":null`) {
		t.Fatalf("M1 after M5: %s", r.Body)
	}
	// Removing the device through v1 also removes a record it still has.
	e.install("bus", "alice")
	if r := e.Call(t, "alice", "DELETE", "/api/devices/{bus}", ""); r.Status != 204 {
		t.Fatalf("v1 delete: %d", r.Status)
	}
	e.must(e.DB.View(func(tx model.Tx) error {
		if _, err := tx.Fleet().Installations().Get(e.IDs["bus"]); !errors.Is(err, model.ErrNotFound) {
			t.Errorf("installation of a deleted device left behind (%v)", err)
		}
		return nil
	}))
}

func TestFleetCheckIMEI(t *testing.T) {
	runOffice(t, []officeScenario{
		{Name: "unused", As: "alice", Method: "GET", Path: "/api2/devices/check-imei/356307042441013", Status: 200,
			Want: []string{`{"message":"IMEI not used."}`}},
		{Name: "used by another user, without saying whose", As: "alice", Method: "GET", Path: "/api2/devices/check-imei/imei-van",
			Status: 400, Want: []string{`{"message":"IMEI already used"}`}, Absent: []string{"bob", "van\""}},
		{Name: "no session", Method: "GET", Path: "/api2/devices/check-imei/imei-van", Status: 401},
	})
}

func TestFleetDrivers(t *testing.T) {
	e := newOfficeEnv(t)
	type answer struct {
		DriverID int64
		Drivers  []map[string]any
	}
	get := func(as string) answer {
		t.Helper()
		r := e.Call(t, as, "GET", "/api2/devices/drivers", "")
		if r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		var a answer
		r.Decode(t, &a)
		return a
	}
	a := get("alice")
	wantDrivers := []map[string]any{{"id": strconv.FormatInt(e.IDs["drv"], 10), "name": "Dana", "attributes": map[string]any{}}}
	if a.DriverID != 0 || !sameJSON(t, a.Drivers, wantDrivers) {
		t.Fatalf("before any position: %+v", a)
	}
	// The car reports the driver's tag: it is the current driver.
	e.ingest("car", e.fix(0, 0, model.Attributes{"driverUniqueId": "drv-1"}))
	if a = get("alice"); a.DriverID != e.IDs["drv"] {
		t.Fatalf("driverId %d, want %d", a.DriverID, e.IDs["drv"])
	}
	// bob sees neither the driver nor alice's car.
	if b := get("bob"); b.DriverID != 0 || len(b.Drivers) != 0 {
		t.Fatalf("bob: %+v", b)
	}
	// A tag of nobody falls back to the driver linked to the device.
	e.ingest("car", e.fix(1, 0, model.Attributes{"driverUniqueId": "unknown"}))
	if a = get("alice"); a.DriverID != 0 {
		t.Fatalf("unknown tag, no link: driverId %d", a.DriverID)
	}
	e.must(e.Core.Fleet.Link(model.System(), model.Permission{OwnerKind: model.KindDevice, OwnerID: e.IDs["car"], PropKind: model.KindDriver, PropID: e.IDs["drv"]}))
	if a = get("alice"); a.DriverID != e.IDs["drv"] {
		t.Fatalf("linked driver: driverId %d", a.DriverID)
	}
}

func TestFleetLastStop(t *testing.T) {
	e := newOfficeEnv(t)
	if r := e.Call(t, "alice", "GET", "/api2/devices/last-stop/{car}", ""); r.Status != http.StatusNotFound {
		t.Fatalf("no stop yet: %d %s", r.Status, r.Body)
	}
	e.ingest("car", e.fix(0, 0, model.Attributes{"ignition": true}))
	e.ingest("car", e.fix(1, 30, model.Attributes{"ignition": true}))
	e.ingest("car", e.fix(2, 0, model.Attributes{"ignition": true}))  // deviceStopped
	e.ingest("car", e.fix(3, 0, model.Attributes{"ignition": false})) // ignitionOff: the last stop
	e.ingest("car", e.fix(4, 0, model.Attributes{"ignition": true}))  // ignitionOn does not count
	r := e.Call(t, "alice", "GET", "/api2/devices/last-stop/{car}", "")
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	got := decodeExtended(t, r.Body)[0]
	want := officeNow.Add(3 * time.Minute).Format("2006-01-02T15:04:05.000-07:00")
	if got.Type != "ignitionOff" || got.DeviceID != e.IDs["car"] || got.EventTime != want || got.PositionID == 0 ||
		got.GeofenceID != nil || got.MaintenanceID != nil || got.Attributes != "{}" {
		t.Fatalf("last stop %+v, want ignitionOff at %s", got, want)
	}
	for _, as := range []string{"bob", "admin"} {
		status := map[string]int{"bob": 404, "admin": 200}[as]
		if r := e.Call(t, as, "GET", "/api2/devices/last-stop/{car}", ""); r.Status != status {
			t.Errorf("%s: %d, want %d", as, r.Status, status)
		}
	}
	if r := e.Call(t, "admin", "GET", "/api2/devices/last-stop/999999", ""); r.Status != 404 {
		t.Errorf("missing device: %d", r.Status)
	}
}
