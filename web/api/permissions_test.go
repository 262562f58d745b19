package api_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"

	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestPermissions(t *testing.T) {
	run(t, []scenario{
		{Name: "link a device to a user", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":{user2},"deviceId":{d1}}`, Status: 204, After: sees("user2", "d1", "d3")},
		{Name: "key order does not pick the owner", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"deviceId":{d1},"userId":{user2}}`, Status: 204, After: sees("user2", "d1", "d3")},
		{Name: "unlink", As: "admin", Method: "DELETE", Path: "/api/permissions",
			Body: `{"userId":{user1},"deviceId":{d1}}`, Status: 204, After: sees("user1")},
		{Name: "manager links its own device to its user", As: "manager2", Auth: webtest.AuthLogin, Method: "POST", Path: "/api/permissions",
			Before: func(t *testing.T, e *env) { e.link(t, "user", "manager2", "device", "d2") },
			Body:   `{"userId":{user2},"deviceId":{d2}}`, Status: 204, After: sees("user2", "d2", "d3")},
		{Name: "user cannot link to a user it does not manage", As: "user1", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":{user2},"deviceId":{d1}}`, Status: 404, After: sees("user2", "d3")},
		{Name: "device limit counts links", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":{limited},"deviceId":{d1}}`, Status: 400, Want: []string{"Device limit reached"}},
		{Name: "managed user", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":{manager2},"managedUserId":{user1}}`, Status: 204,
			After: manages("manager2", "user1@example.com", "user2@example.com")},
		{Name: "geofence to a group", As: "user2", Method: "POST", Path: "/api/permissions",
			Before: func(t *testing.T, e *env) { e.link(t, "user", "user2", "geofence", "gf1") },
			Body:   `{"groupId":{g1},"geofenceId":{gf1}}`, Status: 204},
		{Name: "bulk link", As: "admin", Method: "POST", Path: "/api/permissions/bulk",
			Body: `[{"userId":{user2},"deviceId":{d1}},{"userId":{user2},"deviceId":{d2}}]`, Status: 204,
			After: sees("user2", "d1", "d2", "d3")},
		{Name: "bulk is all or nothing", As: "admin", Method: "POST", Path: "/api/permissions/bulk",
			Body: `[{"userId":{user2},"deviceId":{d1}},{"userId":{user2},"deviceId":9999}]`, Status: 404,
			After: sees("user2", "d3")},
		{Name: "bulk unlink", As: "admin", Method: "DELETE", Path: "/api/permissions/bulk",
			Body: `[{"userId":{user1},"deviceId":{d1}},{"userId":{user2},"groupId":{g1}}]`, Status: 204,
			After: func(t *testing.T, e *env, r *webtest.Response) { sees("user1")(t, e, r); sees("user2")(t, e, r) }},
		{Name: "bulk with a bad element", As: "admin", Method: "POST", Path: "/api/permissions/bulk",
			Body: `[{"userId":{user2},"deviceId":{d1}},{"userId":{user2}}]`, Status: 400, After: sees("user2", "d3")},
		{Name: "bulk needs an array", As: "admin", Method: "POST", Path: "/api/permissions/bulk",
			Body: `{"userId":{user2},"deviceId":{d1}}`, Status: 400},
		{Name: "bulk of more than 1000", As: "admin", Method: "POST", Path: "/api/permissions/bulk",
			Body:   "[" + strings.Repeat(`{"userId":{user2},"deviceId":{d1}},`, 1000) + `{"userId":{user2},"deviceId":{d1}}]`,
			Status: 400, Want: []string{"at most 1000 permissions"}, After: sees("user2", "d3")},

		{Name: "device to group is unsupported", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"deviceId":{d1},"groupId":{g1}}`, Status: 400, Want: []string{"unsupported permission pair"}},
		{Name: "pair without an owner", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"geofenceId":{gf1},"commandId":{cmd1}}`, Status: 400, Want: []string{"commandId/geofenceId"}},
		{Name: "a pair Traccar does not have", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"deviceId":{d1},"calendarId":1}`, Status: 400, Want: []string{"unsupported permission pair"}},
		{Name: "three keys", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":{user1},"deviceId":{d1},"groupId":{g1}}`, Status: 400, Want: []string{"exactly two"}},
		{Name: "unknown key", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":{user1},"truckId":1}`, Status: 400, Want: []string{"truckId"}},
		{Name: "ids as numeric strings, as the Traccar web app sends them", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":"{user2}","deviceId":"{d1}"}`, Status: 204, After: sees("user2", "d1", "d3")},
		{Name: "id as a string that is no number", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":"one","deviceId":{d1}}`, Status: 400, Want: []string{"userId must be an integer"}},
		{Name: "id as a fraction", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":"1.5","deviceId":{d1}}`, Status: 400, Want: []string{"userId must be an integer"}},
		{Name: "non-positive id", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":0,"deviceId":{d1}}`, Status: 400},
		{Name: "anonymous", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":{user1},"deviceId":{d2}}`, Status: 401, After: sees("user1", "d1")},
	})
}

// manages checks that manager manages exactly the users with these e-mails.
func manages(manager string, emails ...string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		t.Helper()
		users, err := e.Core.Accounts.Users(e.caller(t, manager), 0)
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
		list, err := e.Core.Fleet.Devices.List(e.caller(t, user), model.Query{})
		must(t, err)
		var got, want []int64
		for _, d := range list {
			got = append(got, d.ID)
		}
		for _, d := range devices {
			want = append(want, e.IDs[d])
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s sees devices %v, want %v", user, got, want)
		}
	}
}
