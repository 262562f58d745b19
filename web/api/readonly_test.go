package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// readonly makes a fixture user read-only (a demo account).
func readonly(name string) func(t *testing.T, e *env) {
	return func(t *testing.T, e *env) {
		_, err := e.core.UpdateUser(app.System(), e.ids[name], func(u *model.User) error { u.Readonly = true; return nil })
		must(t, err)
	}
}

// readonlyServer sets the server-wide read-only flag.
func readonlyServer(t *testing.T, e *env) {
	e.request(t, "admin", "PUT", "/api/server", "application/json", `{"readonly":true}`).
		Check(t, "PUT /api/server", 200, nil, nil)
}

// userEmail checks that name's e-mail is still want.
func userEmail(name, want string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, e *env, _ *webtest.Response) {
		var u *model.User
		must(t, e.db.View(func(tx model.Tx) (err error) {
			u, err = tx.Users().Get(e.ids[name])
			return err
		}))
		if u.Email != want {
			t.Errorf("%s e-mail %q, want %q kept", name, u.Email, want)
		}
	}
}

// A read-only account, or any non-administrator on a read-only server,
// changes no user and no permission: not its own e-mail, phone or password
// (a demo account's password is shared), not a managed user.
func TestReadonlyAccounts(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "read-only user cannot change itself", as: "user1", prepare: readonly("user1"),
			method: "PUT", path: "/api/users/{user1}", body: `{"email":"taken@example.com","phone":"+15551234567","password":"x"}`,
			status: 403, want: []string{"read-only"}, check: userEmail("user1", "user1@example.com")},
		{name: "read-only manager cannot change a managed user", as: "manager1", prepare: readonly("manager1"),
			method: "PUT", path: "/api/users/{user1}", body: `{"email":"other@example.com"}`,
			status: 403, check: userEmail("user1", "user1@example.com")},
		{name: "read-only manager cannot create a user", as: "manager2", prepare: readonly("manager2"),
			method: "POST", path: "/api/users", body: `{"name":"n","email":"new@example.com","password":"pw"}`, status: 403},
		{name: "read-only manager cannot delete a user", as: "manager1", prepare: readonly("manager1"),
			method: "DELETE", path: "/api/users/{user1}", status: 403, check: userEmail("user1", "user1@example.com")},
		{name: "read-only server: no user change", as: "user1", prepare: readonlyServer,
			method: "PUT", path: "/api/users/{user1}", body: `{"email":"x@example.com"}`,
			status: 403, check: userEmail("user1", "user1@example.com")},
		{name: "read-only server: no permission change", as: "user1", prepare: readonlyServer,
			method: "POST", path: "/api/permissions", body: `{"deviceId":{d1},"geofenceId":{gf1}}`, status: 403},
		{name: "read-only server: the administrator still may", as: "admin", prepare: readonlyServer,
			method: "PUT", path: "/api/users/{user1}", body: `{"email":"user1@example.com","name":"renamed"}`, status: 200},
		{name: "writable user changes itself", as: "user1",
			method: "PUT", path: "/api/users/{user1}", body: `{"email":"user1@example.com","name":"renamed"}`, status: 200},
	})
}
