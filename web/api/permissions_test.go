package api_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestPermissions(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "link a device to a user", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":{user2},"deviceId":{d1}}`, status: 204, check: sees("user2", "d1", "d3")},
		{name: "key order does not pick the owner", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"deviceId":{d1},"userId":{user2}}`, status: 204, check: sees("user2", "d1", "d3")},
		{name: "unlink", as: "admin", method: "DELETE", path: "/api/permissions",
			body: `{"userId":{user1},"deviceId":{d1}}`, status: 204, check: sees("user1")},
		{name: "manager links its own device to its user", as: "manager2-cookie", method: "POST", path: "/api/permissions",
			prepare: func(t *testing.T, e *env) { e.link(t, "user", "manager2", "device", "d2") },
			body:    `{"userId":{user2},"deviceId":{d2}}`, status: 204, check: sees("user2", "d2", "d3")},
		{name: "user cannot link to a user it does not manage", as: "user1", method: "POST", path: "/api/permissions",
			body: `{"userId":{user2},"deviceId":{d1}}`, status: 404, check: sees("user2", "d3")},
		{name: "device limit counts links", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":{limited},"deviceId":{d1}}`, status: 400, want: []string{"Device limit reached"}},
		{name: "managed user", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":{manager2},"managedUserId":{user1}}`, status: 204,
			check: manages("manager2", "user1@example.com", "user2@example.com")},
		{name: "geofence to a group", as: "user2", method: "POST", path: "/api/permissions",
			prepare: func(t *testing.T, e *env) { e.link(t, "user", "user2", "geofence", "gf1") },
			body:    `{"groupId":{g1},"geofenceId":{gf1}}`, status: 204},
		{name: "bulk link", as: "admin", method: "POST", path: "/api/permissions/bulk",
			body: `[{"userId":{user2},"deviceId":{d1}},{"userId":{user2},"deviceId":{d2}}]`, status: 204,
			check: sees("user2", "d1", "d2", "d3")},
		{name: "bulk is all or nothing", as: "admin", method: "POST", path: "/api/permissions/bulk",
			body: `[{"userId":{user2},"deviceId":{d1}},{"userId":{user2},"deviceId":9999}]`, status: 404,
			check: sees("user2", "d3")},
		{name: "bulk unlink", as: "admin", method: "DELETE", path: "/api/permissions/bulk",
			body: `[{"userId":{user1},"deviceId":{d1}},{"userId":{user2},"groupId":{g1}}]`, status: 204,
			check: func(t *testing.T, e *env, r *webtest.Response) { sees("user1")(t, e, r); sees("user2")(t, e, r) }},
		{name: "bulk with a bad element", as: "admin", method: "POST", path: "/api/permissions/bulk",
			body: `[{"userId":{user2},"deviceId":{d1}},{"userId":{user2}}]`, status: 400, check: sees("user2", "d3")},
		{name: "bulk needs an array", as: "admin", method: "POST", path: "/api/permissions/bulk",
			body: `{"userId":{user2},"deviceId":{d1}}`, status: 400},
		{name: "bulk of more than 1000", as: "admin", method: "POST", path: "/api/permissions/bulk",
			body:   "[" + strings.Repeat(`{"userId":{user2},"deviceId":{d1}},`, 1000) + `{"userId":{user2},"deviceId":{d1}}]`,
			status: 400, want: []string{"at most 1000 permissions"}, check: sees("user2", "d3")},

		{name: "device to group is unsupported", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"deviceId":{d1},"groupId":{g1}}`, status: 400, want: []string{"unsupported permission pair"}},
		{name: "pair without an owner", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"geofenceId":{gf1},"commandId":{cmd1}}`, status: 400, want: []string{"commandId/geofenceId"}},
		{name: "kind fleetd does not have", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":{user1},"notificationId":1}`, status: 400, want: []string{"unsupported permission pair"}},
		{name: "three keys", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":{user1},"deviceId":{d1},"groupId":{g1}}`, status: 400, want: []string{"exactly two"}},
		{name: "unknown key", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":{user1},"truckId":1}`, status: 400, want: []string{"truckId"}},
		{name: "id as a string", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":"1","deviceId":{d1}}`, status: 400, want: []string{"userId must be an integer"}},
		{name: "non-positive id", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":0,"deviceId":{d1}}`, status: 400},
		{name: "anonymous", method: "POST", path: "/api/permissions",
			body: `{"userId":{user1},"deviceId":{d2}}`, status: 401, check: sees("user1", "d1")},
	})
}

// manages checks that manager manages exactly the users with these e-mails.
func manages(manager string, emails ...string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		t.Helper()
		users, err := e.core.Users(e.caller(t, manager), 0)
		must(t, err)
		var got []string
		for _, u := range users {
			got = append(got, u.Email)
		}
		slices.Sort(got)
		if !slices.Equal(got, emails) {
			t.Errorf("%s manages %v, want %v", manager, got, emails)
		}
	}
}

// sees checks that user sees exactly the named devices afterwards.
func sees(user string, devices ...string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		t.Helper()
		list, err := e.core.Devices.List(e.caller(t, user), app.ListQuery{})
		must(t, err)
		var got, want []int64
		for _, d := range list {
			got = append(got, d.ID)
		}
		for _, d := range devices {
			want = append(want, e.ids[d])
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s sees devices %v, want %v", user, got, want)
		}
	}
}
