package api_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestDevices(t *testing.T) {
	run(t, []scenario{
		{Name: "admin lists all", As: "admin", Method: "GET", Path: "/api/devices", Status: 200,
			Want: []string{"Truck 1", "Truck 2", "Van 3", `"status":"offline"`}},
		{Name: "user lists its linked device", As: "user1", Method: "GET", Path: "/api/devices", Status: 200,
			Want: []string{"Truck 1", `"positionId":{p3}`}, Absent: []string{"Truck 2", "Van 3"}},
		{Name: "device visible through a group", As: "user2", Method: "GET", Path: "/api/devices", Status: 200,
			Want: []string{"Van 3"}, Absent: []string{"Truck 1", "Truck 2"}},
		{Name: "device through a group, by id", As: "user2", Auth: webtest.AuthLogin, Method: "GET", Path: "/api/devices/{d3}", Status: 200,
			Want: []string{`"groupId":{g1}`}},
		{Name: "repeated id", As: "admin", Method: "GET", Path: "/api/devices?id={d1}&id={d2}", Status: 200,
			Want: []string{"Truck 1", "Truck 2"}, Absent: []string{"Van 3"}},
		{Name: "uniqueId", As: "admin", Method: "GET", Path: "/api/devices?uniqueId=100000000000003", Status: 200,
			Want: []string{"Van 3"}, Absent: []string{"Truck 1"}},
		{Name: "uniqueId outside the caller's devices", As: "user1", Method: "GET",
			Path: "/api/devices?uniqueId=100000000000003", Status: 200, Want: []string{"[]"}},
		{Name: "all by a plain user", As: "user1", Method: "GET", Path: "/api/devices?all=true", Status: 403},
		{Name: "all by a manager reaches managed users' devices", As: "manager1", Method: "GET",
			Path: "/api/devices?all=true", Status: 200, Want: []string{"Truck 1"}, Absent: []string{"Van 3"}},
		{Name: "userId by admin", As: "admin", Method: "GET", Path: "/api/devices?userId={user2}", Status: 200,
			Want: []string{"Van 3"}, Absent: []string{"Truck 1"}},
		{Name: "userId of another user by a plain user", As: "user1", Method: "GET",
			Path: "/api/devices?userId={user2}", Status: 403},
		{Name: "userId of another manager's user", As: "manager1", Method: "GET",
			Path: "/api/devices?userId={user2}", Status: 404},

		{Name: "read an unlinked device", As: "user1", Method: "GET", Path: "/api/devices/{d2}", Status: 404,
			Absent: []string{"Truck 2"}},
		{Name: "update an unlinked device", As: "user1", Method: "PUT", Path: "/api/devices/{d2}",
			Body: `{"name":"Stolen"}`, Status: 404, After: deviceNamed("d2", "Truck 2")},
		{Name: "delete an unlinked device", As: "user1", Method: "DELETE", Path: "/api/devices/{d2}",
			Status: 404, After: deviceNamed("d2", "Truck 2")},

		{Name: "create links to the creator", As: "user1", Method: "POST", Path: "/api/devices",
			Body:   `{"name":" Car ","uniqueId":"200000000000001","status":"online","positionId":77,"attributes":{"speedLimit":80}}`,
			Status: 200, Want: []string{`"name":"Car"`, `"status":"offline"`, `"positionId":0`, `"speedLimit":80`},
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				list, err := e.Core.Fleet.Devices.List(e.caller(t, "user1"), model.Query{})
				must(t, err)
				if len(list) != 2 {
					t.Errorf("user1 sees %d devices, want d1 and the new one", len(list))
				}
			}},
		{Name: "device limit reached", As: "limited", Method: "POST", Path: "/api/devices",
			Body: `{"name":"Car","uniqueId":"200000000000001"}`, Status: 400,
			Want: []string{`"message":"Device limit reached"`, "device limit is reached"}},
		{Name: "duplicate uniqueId", As: "admin", Method: "POST", Path: "/api/devices",
			Body: `{"name":"Copy","uniqueId":"100000000000001"}`, Status: 400, Want: []string{"Duplicate value"}},
		{Name: "name and uniqueId required", As: "admin", Method: "POST", Path: "/api/devices",
			Body: `{"name":"No id"}`, Status: 400, Want: []string{"name and uniqueId are required"}},
		{Name: "uniqueId with a control character", As: "admin", Method: "POST", Path: "/api/devices",
			Body: `{"name":"Bell","uniqueId":"2000\u00070001"}`, Status: 400,
			Want: []string{`"message":"Invalid request"`, "uniqueId holds the unprintable character U+0007"}},
		{Name: "uniqueId over 128 characters", As: "admin", Method: "POST", Path: "/api/devices",
			Body: `{"name":"Long","uniqueId":"` + strings.Repeat("1", 129) + `"}`, Status: 400,
			Want: []string{"uniqueId may have at most 128 characters"}},
		{Name: "group must be visible", As: "user1", Method: "POST", Path: "/api/devices",
			Body: `{"name":"Car","uniqueId":"200000000000001","groupId":{g1}}`, Status: 400},

		{Name: "update merges fields and keeps ingest fields", As: "user1", Method: "PUT", Path: "/api/devices/{d1}",
			Before: setDeviceAttributes("d1", model.Attributes{"old": "x", "keep": "y"}),
			Body:   `{"id":999,"name":"Truck One","positionId":1,"attributes":{"keep":"y","new":true}}`, Status: 200,
			Want:   []string{`"id":{d1}`, `"name":"Truck One"`, `"uniqueId":"100000000000001"`, `"positionId":{p3}`, `"new":true`},
			Absent: []string{`"old"`},
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				d := e.device(t, "d1")
				if d.Name != "Truck One" || d.PositionID != e.IDs["p3"] || len(d.Attributes) != 2 || d.Attributes["old"] != nil {
					t.Errorf("stored device %+v", d)
				}
			}},
		{Name: "update without attributes keeps them", As: "admin", Method: "PUT", Path: "/api/devices/{d1}",
			Before: setDeviceAttributes("d1", model.Attributes{"old": "x"}), Body: `{"phone":"123"}`, Status: 200,
			Want: []string{`"attributes":{"old":"x"}`, `"phone":"123"`}},
		{Name: "deviceReadonly user cannot edit", As: "user1", Method: "PUT", Path: "/api/devices/{d1}",
			Before: func(t *testing.T, e *env) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error { u.DeviceReadonly = true; return nil })
				must(t, err)
			},
			Body: `{"name":"x"}`, Status: 403, After: deviceNamed("d1", "Truck 1")},
		{Name: "delete removes the device and its positions", As: "user1", Method: "DELETE", Path: "/api/devices/{d1}",
			Status: 204, After: func(t *testing.T, e *env, _ *webtest.Response) {
				err := e.DB.View(func(tx model.Tx) error { _, err := tx.Devices().Get(e.IDs["d1"]); return err })
				if !errors.Is(err, model.ErrNotFound) {
					t.Errorf("d1 still stored: %v", err)
				}
				list, err := e.Core.Fleet.Positions(model.System(), fleet.PositionQuery{})
				must(t, err)
				for _, p := range list {
					if p.DeviceID == e.IDs["d1"] {
						t.Errorf("position %d of d1 left", p.ID)
					}
				}
			}},
	})
}

func deviceNamed(device, name string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		if d := e.device(t, device); d.Name != name {
			t.Errorf("%s is named %q, want %q (unchanged)", device, d.Name, name)
		}
	}
}

func setDeviceAttributes(device string, attrs model.Attributes) func(*testing.T, *env) {
	return func(t *testing.T, e *env) {
		_, err := e.Core.Fleet.Devices.Update(model.System(), e.IDs[device], func(d *model.Device) error { d.Attributes = attrs; return nil })
		must(t, err)
	}
}

func TestGroups(t *testing.T) {
	run(t, []scenario{
		{Name: "user sees its group", As: "user2", Method: "GET", Path: "/api/groups", Status: 200, Want: []string{"Fleet"}},
		{Name: "user without groups", As: "user1", Method: "GET", Path: "/api/groups", Status: 200, Want: []string{"[]"}},
		{Name: "unknown parent", As: "user2", Method: "POST", Path: "/api/groups",
			Body: `{"name":"Sub","groupId":9999}`, Status: 400},
		{Name: "unknown parent, even for an admin", As: "admin", Method: "POST", Path: "/api/groups",
			Body: `{"name":"Sub","groupId":9999}`, Status: 400, Want: []string{"group 9999 not found"}},
		{Name: "device in an unknown group", As: "admin", Method: "POST", Path: "/api/devices",
			Body: `{"name":"X","uniqueId":"X1","groupId":9999}`, Status: 400, Want: []string{"group 9999 not found"}},
		{Name: "not inside itself", As: "user2", Method: "PUT", Path: "/api/groups/{g1}",
			Body: `{"groupId":{g1}}`, Status: 400, Want: []string{"inside itself"}},
		{Name: "delete moves members up", As: "admin", Method: "DELETE", Path: "/api/groups/{g1}", Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if d := e.device(t, "d3"); d.GroupID != 0 {
					t.Errorf("d3 still in group %d", d.GroupID)
				}
			}},
	})
}

func TestCommands(t *testing.T) {
	run(t, []scenario{
		{Name: "user lists its commands", As: "user1", Method: "GET", Path: "/api/commands", Status: 200,
			Want: []string{"engineStop"}, Absent: []string{"engineResume"}},
		{Name: "all by admin", As: "admin", Method: "GET", Path: "/api/commands?all=true", Status: 200,
			Want: []string{"engineStop", "engineResume"}},
		{Name: "all by a plain user", As: "user1", Method: "GET", Path: "/api/commands?all=true", Status: 403},
		{Name: "userId", As: "admin", Method: "GET", Path: "/api/commands?userId={user1}", Status: 200,
			Want: []string{"engineStop"}, Absent: []string{"engineResume"}},
		{Name: "deviceId", As: "admin", Method: "GET", Path: "/api/commands?deviceId={d1}", Status: 200,
			Want: []string{"engineStop"}, Absent: []string{"engineResume"}},
		{Name: "deviceId of an invisible device", As: "user2", Method: "GET", Path: "/api/commands?deviceId={d1}", Status: 404},
		{Name: "groupId with nothing linked", As: "admin", Method: "GET", Path: "/api/commands?groupId={g1}", Status: 200,
			Want: []string{"[]"}},
		{Name: "command for an invisible device", As: "user1", Method: "POST", Path: "/api/commands",
			Body: `{"type":"engineStop","deviceId":{d2}}`, Status: 400},
		{Name: "type required", As: "admin", Method: "POST", Path: "/api/commands", Body: `{"description":"x"}`, Status: 400},
		{Name: "command for a missing device", As: "admin", Method: "POST", Path: "/api/commands",
			Body: `{"type":"custom","deviceId":9999}`, Status: 400, Want: []string{"device 9999 not found"}},
		{Name: "limitCommands server", As: "user1", Method: "POST", Path: "/api/commands",
			Before: func(t *testing.T, e *env) {
				_, err := e.Core.Accounts.UpdateServer(model.System(), func(s *model.Server) error { s.LimitCommands = true; return nil })
				must(t, err)
			},
			Body: `{"type":"custom"}`, Status: 403},
	})
}

func TestGeofences(t *testing.T) {
	run(t, []scenario{
		{Name: "deviceId filter", As: "user1", Method: "GET", Path: "/api/geofences?deviceId={d1}", Status: 200,
			Want: []string{"Depot"}},
		{Name: "deviceId of an invisible device", As: "user2", Method: "GET", Path: "/api/geofences?deviceId={d1}", Status: 404},
		{Name: "area required", As: "user1", Method: "POST", Path: "/api/geofences", Body: `{"name":"x"}`, Status: 400},
	})
}

// TestObjectLifecycle runs create, read, update, list, delete through the
// one generic handler set for every kind.
func TestObjectLifecycle(t *testing.T) {
	for _, k := range []struct{ path, create, update, updated string }{
		{"/api/devices", `{"name":"New","uniqueId":"300"}`, `{"name":"Changed"}`, `"name":"Changed"`},
		{"/api/groups", `{"name":"New"}`, `{"name":"Changed"}`, `"name":"Changed"`},
		{"/api/commands", `{"type":"positionPeriodic","attributes":{"frequency":60}}`, `{"description":"Changed"}`, `"description":"Changed"`},
		{"/api/geofences", `{"name":"New","area":"CIRCLE (1 2, 30)"}`, `{"name":"Changed"}`, `"name":"Changed"`},
	} {
		t.Run(strings.TrimPrefix(k.path, "/api/"), func(t *testing.T) {
			e := newEnv(t)
			created := e.Call(t, "user1", "POST", k.path, k.create)
			var v struct{ ID int64 }
			if created.Status != 200 {
				t.Fatalf("create: %d %s", created.Status, created.Body)
			}
			created.Decode(t, &v)
			e.IDs["new"] = v.ID
			steps := []struct {
				as, method, path, body string
				status                 int
				want                   string
			}{
				{"user1", "GET", k.path + "/{new}", "", 200, `"id":{new}`},
				{"user1", "PUT", k.path + "/{new}", k.update, 200, k.updated},
				{"user1", "GET", k.path, "", 200, k.updated},
				{"user2", "GET", k.path + "/{new}", "", 404, ""},
				{"user2", "DELETE", k.path + "/{new}", "", 404, ""},
				{"user1", "DELETE", k.path + "/{new}", "", 204, ""},
				{"user1", "GET", k.path + "/{new}", "", 404, ""},
				{"admin", "GET", k.path + "/{new}", "", 404, ""},
			}
			for _, s := range steps {
				r := e.Call(t, s.as, s.method, s.path, s.body)
				if r.Status != s.status || !strings.Contains(r.Body, e.Expand(t, s.want)) {
					t.Errorf("%s %s %s: %d %s, want %d with %s", s.as, s.method, s.path, r.Status, r.Body, s.status, s.want)
				}
			}
		})
	}
}
