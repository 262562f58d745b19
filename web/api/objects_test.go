package api_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestDevices(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "admin lists all", as: "admin", method: "GET", path: "/api/devices", status: 200,
			want: []string{"Truck 1", "Truck 2", "Van 3", `"status":"offline"`}},
		{name: "user lists its linked device", as: "user1", method: "GET", path: "/api/devices", status: 200,
			want: []string{"Truck 1", `"positionId":{p3}`}, absent: []string{"Truck 2", "Van 3"}},
		{name: "device visible through a group", as: "user2", method: "GET", path: "/api/devices", status: 200,
			want: []string{"Van 3"}, absent: []string{"Truck 1", "Truck 2"}},
		{name: "device through a group, by id", as: "user2-cookie", method: "GET", path: "/api/devices/{d3}", status: 200,
			want: []string{`"groupId":{g1}`}},
		{name: "repeated id", as: "admin", method: "GET", path: "/api/devices?id={d1}&id={d2}", status: 200,
			want: []string{"Truck 1", "Truck 2"}, absent: []string{"Van 3"}},
		{name: "uniqueId", as: "admin", method: "GET", path: "/api/devices?uniqueId=100000000000003", status: 200,
			want: []string{"Van 3"}, absent: []string{"Truck 1"}},
		{name: "uniqueId outside the caller's devices", as: "user1", method: "GET",
			path: "/api/devices?uniqueId=100000000000003", status: 200, want: []string{"[]"}},
		{name: "all by a plain user", as: "user1", method: "GET", path: "/api/devices?all=true", status: 403},
		{name: "all by a manager reaches managed users' devices", as: "manager1", method: "GET",
			path: "/api/devices?all=true", status: 200, want: []string{"Truck 1"}, absent: []string{"Van 3"}},
		{name: "userId by admin", as: "admin", method: "GET", path: "/api/devices?userId={user2}", status: 200,
			want: []string{"Van 3"}, absent: []string{"Truck 1"}},
		{name: "userId of another user by a plain user", as: "user1", method: "GET",
			path: "/api/devices?userId={user2}", status: 403},
		{name: "userId of another manager's user", as: "manager1", method: "GET",
			path: "/api/devices?userId={user2}", status: 404},

		{name: "read an unlinked device", as: "user1", method: "GET", path: "/api/devices/{d2}", status: 404,
			absent: []string{"Truck 2"}},
		{name: "update an unlinked device", as: "user1", method: "PUT", path: "/api/devices/{d2}",
			body: `{"name":"Stolen"}`, status: 404, check: deviceNamed("d2", "Truck 2")},
		{name: "delete an unlinked device", as: "user1", method: "DELETE", path: "/api/devices/{d2}",
			status: 404, check: deviceNamed("d2", "Truck 2")},

		{name: "create links to the creator", as: "user1", method: "POST", path: "/api/devices",
			body:   `{"name":" Car ","uniqueId":"200000000000001","status":"online","positionId":77,"attributes":{"speedLimit":80}}`,
			status: 200, want: []string{`"name":"Car"`, `"status":"offline"`, `"positionId":0`, `"speedLimit":80`},
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				list, err := e.core.Devices.List(e.caller(t, "user1"), app.ListQuery{})
				must(t, err)
				if len(list) != 2 {
					t.Errorf("user1 sees %d devices, want d1 and the new one", len(list))
				}
			}},
		{name: "device limit reached", as: "limited", method: "POST", path: "/api/devices",
			body: `{"name":"Car","uniqueId":"200000000000001"}`, status: 400,
			want: []string{`"message":"Device limit reached"`, "device limit is reached"}},
		{name: "duplicate uniqueId", as: "admin", method: "POST", path: "/api/devices",
			body: `{"name":"Copy","uniqueId":"100000000000001"}`, status: 400, want: []string{"Duplicate value"}},
		{name: "name and uniqueId required", as: "admin", method: "POST", path: "/api/devices",
			body: `{"name":"No id"}`, status: 400, want: []string{"name and uniqueId are required"}},
		{name: "uniqueId with a control character", as: "admin", method: "POST", path: "/api/devices",
			body: `{"name":"Bell","uniqueId":"2000\u00070001"}`, status: 400,
			want: []string{`"message":"Invalid request"`, "uniqueId holds the unprintable character U+0007"}},
		{name: "uniqueId over 128 characters", as: "admin", method: "POST", path: "/api/devices",
			body: `{"name":"Long","uniqueId":"` + strings.Repeat("1", 129) + `"}`, status: 400,
			want: []string{"uniqueId may have at most 128 characters"}},
		{name: "group must be visible", as: "user1", method: "POST", path: "/api/devices",
			body: `{"name":"Car","uniqueId":"200000000000001","groupId":{g1}}`, status: 400},

		{name: "update merges fields and keeps ingest fields", as: "user1", method: "PUT", path: "/api/devices/{d1}",
			prepare: setDeviceAttributes("d1", model.Attributes{"old": "x", "keep": "y"}),
			body:    `{"id":999,"name":"Truck One","positionId":1,"attributes":{"keep":"y","new":true}}`, status: 200,
			want:   []string{`"id":{d1}`, `"name":"Truck One"`, `"uniqueId":"100000000000001"`, `"positionId":{p3}`, `"new":true`},
			absent: []string{`"old"`},
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				d := e.device(t, "d1")
				if d.Name != "Truck One" || d.PositionID != e.ids["p3"] || len(d.Attributes) != 2 || d.Attributes["old"] != nil {
					t.Errorf("stored device %+v", d)
				}
			}},
		{name: "update without attributes keeps them", as: "admin", method: "PUT", path: "/api/devices/{d1}",
			prepare: setDeviceAttributes("d1", model.Attributes{"old": "x"}), body: `{"phone":"123"}`, status: 200,
			want: []string{`"attributes":{"old":"x"}`, `"phone":"123"`}},
		{name: "deviceReadonly user cannot edit", as: "user1", method: "PUT", path: "/api/devices/{d1}",
			prepare: func(t *testing.T, e *env) {
				_, err := e.core.UpdateUser(app.System(), e.ids["user1"], func(u *model.User) error { u.DeviceReadonly = true; return nil })
				must(t, err)
			},
			body: `{"name":"x"}`, status: 403, check: deviceNamed("d1", "Truck 1")},
		{name: "delete removes the device and its positions", as: "user1", method: "DELETE", path: "/api/devices/{d1}",
			status: 204, check: func(t *testing.T, e *env, _ *webtest.Response) {
				err := e.db.View(func(tx model.Tx) error { _, err := tx.Devices().Get(e.ids["d1"]); return err })
				if !errors.Is(err, model.ErrNotFound) {
					t.Errorf("d1 still stored: %v", err)
				}
				list, err := e.core.Positions(app.System(), app.PositionQuery{})
				must(t, err)
				for _, p := range list {
					if p.DeviceID == e.ids["d1"] {
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
		_, err := e.core.Devices.Update(app.System(), e.ids[device], func(d *model.Device) error { d.Attributes = attrs; return nil })
		must(t, err)
	}
}

func TestGroups(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "user sees its group", as: "user2", method: "GET", path: "/api/groups", status: 200, want: []string{"Fleet"}},
		{name: "user without groups", as: "user1", method: "GET", path: "/api/groups", status: 200, want: []string{"[]"}},
		{name: "unknown parent", as: "user2", method: "POST", path: "/api/groups",
			body: `{"name":"Sub","groupId":9999}`, status: 400},
		{name: "unknown parent, even for an admin", as: "admin", method: "POST", path: "/api/groups",
			body: `{"name":"Sub","groupId":9999}`, status: 400, want: []string{"group 9999 not found"}},
		{name: "device in an unknown group", as: "admin", method: "POST", path: "/api/devices",
			body: `{"name":"X","uniqueId":"X1","groupId":9999}`, status: 400, want: []string{"group 9999 not found"}},
		{name: "not inside itself", as: "user2", method: "PUT", path: "/api/groups/{g1}",
			body: `{"groupId":{g1}}`, status: 400, want: []string{"inside itself"}},
		{name: "delete moves members up", as: "admin", method: "DELETE", path: "/api/groups/{g1}", status: 204,
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				if d := e.device(t, "d3"); d.GroupID != 0 {
					t.Errorf("d3 still in group %d", d.GroupID)
				}
			}},
	})
}

func TestCommands(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "user lists its commands", as: "user1", method: "GET", path: "/api/commands", status: 200,
			want: []string{"engineStop"}, absent: []string{"engineResume"}},
		{name: "all by admin", as: "admin", method: "GET", path: "/api/commands?all=true", status: 200,
			want: []string{"engineStop", "engineResume"}},
		{name: "all by a plain user", as: "user1", method: "GET", path: "/api/commands?all=true", status: 403},
		{name: "userId", as: "admin", method: "GET", path: "/api/commands?userId={user1}", status: 200,
			want: []string{"engineStop"}, absent: []string{"engineResume"}},
		{name: "deviceId", as: "admin", method: "GET", path: "/api/commands?deviceId={d1}", status: 200,
			want: []string{"engineStop"}, absent: []string{"engineResume"}},
		{name: "deviceId of an invisible device", as: "user2", method: "GET", path: "/api/commands?deviceId={d1}", status: 404},
		{name: "groupId with nothing linked", as: "admin", method: "GET", path: "/api/commands?groupId={g1}", status: 200,
			want: []string{"[]"}},
		{name: "command for an invisible device", as: "user1", method: "POST", path: "/api/commands",
			body: `{"type":"engineStop","deviceId":{d2}}`, status: 400},
		{name: "type required", as: "admin", method: "POST", path: "/api/commands", body: `{"description":"x"}`, status: 400},
		{name: "command for a missing device", as: "admin", method: "POST", path: "/api/commands",
			body: `{"type":"custom","deviceId":9999}`, status: 400, want: []string{"device 9999 not found"}},
		{name: "limitCommands server", as: "user1", method: "POST", path: "/api/commands",
			prepare: func(t *testing.T, e *env) {
				_, err := e.core.UpdateServer(app.System(), func(s *model.Server) error { s.LimitCommands = true; return nil })
				must(t, err)
			},
			body: `{"type":"custom"}`, status: 403},
	})
}

func TestGeofences(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "deviceId filter", as: "user1", method: "GET", path: "/api/geofences?deviceId={d1}", status: 200,
			want: []string{"Depot"}},
		{name: "deviceId of an invisible device", as: "user2", method: "GET", path: "/api/geofences?deviceId={d1}", status: 404},
		{name: "area required", as: "user1", method: "POST", path: "/api/geofences", body: `{"name":"x"}`, status: 400},
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
			created := e.request(t, "user1", "POST", k.path, "application/json", k.create)
			var v struct{ ID int64 }
			if created.Status != 200 {
				t.Fatalf("create: %d %s", created.Status, created.Body)
			}
			created.Decode(t, &v)
			e.ids["new"] = v.ID
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
				ct := ""
				if s.body != "" {
					ct = "application/json"
				}
				r := e.request(t, s.as, s.method, s.path, ct, s.body)
				if r.Status != s.status || !strings.Contains(r.Body, e.expand(t, s.want)) {
					t.Errorf("%s %s %s: %d %s, want %d with %s", s.as, s.method, s.path, r.Status, r.Body, s.status, s.want)
				}
			}
		})
	}
}
