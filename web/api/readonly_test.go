package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// readonly makes a fixture user read-only (a demo account).
func readonly(name string) func(t *testing.T, e *env) {
	return func(t *testing.T, e *env) {
		_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs[name], func(u *model.User) error { u.Readonly = true; return nil })
		must(t, err)
	}
}

// readonlyServer sets the server-wide read-only flag.
func readonlyServer(t *testing.T, e *env) {
	e.Call(t, "admin", "PUT", "/api/server", `{"readonly":true}`).
		Check(t, "PUT /api/server", 200, nil, nil)
}

// userEmail checks that name's e-mail is still want.
func userEmail(name, want string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		var u *model.User
		must(t, e.DB.View(func(tx model.Tx) (err error) {
			u, err = tx.Users().Get(e.IDs[name])
			return err
		}))
		if u.Email != want {
			t.Errorf("%s e-mail %q, want %q kept", name, u.Email, want)
		}
	}
}

// A read-only account, or any non-administrator on a read-only server,
// changes no user and no permission: not its own name, e-mail or phone,
// not a managed user; only its own password and display preferences, as in
// Traccar.
func TestReadonlyAccounts(t *testing.T) {
	run(t, []scenario{
		{Name: "read-only user cannot change itself", As: "user1", Before: readonly("user1"),
			Method: "PUT", Path: "/api/users/{user1}", Body: `{"email":"taken@example.com","phone":"+15551234567","password":"x"}`,
			Status: 403, Want: []string{"read-only"}, After: userEmail("user1", "user1@example.com")},
		{Name: "read-only user still sets its password and display preferences", As: "user1", Before: readonly("user1"),
			Method: "PUT", Path: "/api/users/{user1}", Body: `{"password":"a-new-secret","twelveHourFormat":true,"attributes":{"timezone":"Europe/Berlin"}}`,
			Status: 200, After: userEmail("user1", "user1@example.com")},
		{Name: "read-only user cannot rename itself", As: "user1", Before: readonly("user1"),
			Method: "PUT", Path: "/api/users/{user1}", Body: `{"name":"renamed"}`, Status: 403, Want: []string{"read-only"}},
		{Name: "read-only manager cannot change a managed user", As: "manager1", Before: readonly("manager1"),
			Method: "PUT", Path: "/api/users/{user1}", Body: `{"email":"other@example.com"}`,
			Status: 403, After: userEmail("user1", "user1@example.com")},
		{Name: "read-only manager cannot create a user", As: "manager2", Before: readonly("manager2"),
			Method: "POST", Path: "/api/users", Body: `{"name":"n","email":"new@example.com","password":"pw"}`, Status: 403},
		{Name: "read-only manager cannot delete a user", As: "manager1", Before: readonly("manager1"),
			Method: "DELETE", Path: "/api/users/{user1}", Status: 403, After: userEmail("user1", "user1@example.com")},
		{Name: "read-only server: no user change", As: "user1", Before: readonlyServer,
			Method: "PUT", Path: "/api/users/{user1}", Body: `{"email":"x@example.com"}`,
			Status: 403, After: userEmail("user1", "user1@example.com")},
		{Name: "read-only server: no permission change", As: "user1", Before: readonlyServer,
			Method: "POST", Path: "/api/permissions", Body: `{"deviceId":{d1},"geofenceId":{gf1}}`, Status: 403},
		{Name: "read-only server: the administrator still may", As: "admin", Before: readonlyServer,
			Method: "PUT", Path: "/api/users/{user1}", Body: `{"email":"user1@example.com","name":"renamed"}`, Status: 200},
		{Name: "writable user changes itself", As: "user1",
			Method: "PUT", Path: "/api/users/{user1}", Body: `{"email":"user1@example.com","name":"renamed"}`, Status: 200},
	})
}
