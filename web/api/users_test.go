package api_test

import (
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestUsers(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "admin lists everyone", as: "admin", method: "GET", path: "/api/users", status: 200,
			want: []string{"admin@example.com", "manager1@example.com", "user1@example.com", "user2@example.com"}},
		{name: "manager lists only its users", as: "manager1", method: "GET", path: "/api/users", status: 200,
			want: []string{"user1@example.com"}, absent: []string{"user2@example.com", "admin@example.com"}},
		{name: "plain user lists nobody", as: "user1", method: "GET", path: "/api/users", status: 200, want: []string{"[]"}},
		{name: "manager cannot list another manager's users", as: "manager1", method: "GET",
			path: "/api/users?userId={manager2}", status: 404, absent: []string{"user2@example.com"}},
		{name: "admin lists a manager's users", as: "admin", method: "GET", path: "/api/users?userId={manager2}",
			status: 200, want: []string{"user2@example.com"}, absent: []string{"user1@example.com"}},
		{name: "userId by a plain user", as: "user1", method: "GET", path: "/api/users?userId={user1}", status: 403},
		{name: "anonymous list", method: "GET", path: "/api/users", status: 401},

		{name: "manager reads its user", as: "manager1", method: "GET", path: "/api/users/{user1}", status: 200,
			want: []string{`"email":"user1@example.com"`}},
		{name: "manager cannot read another manager's user", as: "manager1", method: "GET",
			path: "/api/users/{user2}", status: 404},
		{name: "user reads itself", as: "user1", method: "GET", path: "/api/users/{user1}", status: 200},
		{name: "user cannot read its manager", as: "user1", method: "GET", path: "/api/users/{manager1}", status: 404},

		{name: "registration disabled", method: "POST", path: "/api/users",
			body: `{"name":"New","email":"new@example.com","password":"pw"}`, status: 403,
			want: []string{"Registration is disabled"}},
		{name: "self-registration", method: "POST", path: "/api/users", prepare: allowRegistration,
			body: `{"name":"New","email":"new@example.com","password":"new-pw","unknownField":1}`, status: 200,
			want: []string{`"email":"new@example.com"`, `"administrator":false`, `"attributes":{}`},
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				if _, err := e.core.Login("new@example.com", "new-pw", "test"); err != nil {
					t.Errorf("registered user cannot log in: %v", err)
				}
			}},
		{name: "self-registration cannot grant administrator", method: "POST", path: "/api/users", prepare: allowRegistration,
			body: `{"email":"new@example.com","password":"pw","administrator":true}`, status: 403},
		{name: "manager creates a managed user", as: "manager2", method: "POST", path: "/api/users",
			body: `{"name":"Driver","email":"driver@example.com","password":"pw"}`, status: 200,
			want:  []string{`"email":"driver@example.com"`},
			check: manages("manager2", "driver@example.com", "user2@example.com")},
		{name: "manager user limit", as: "manager1", method: "POST", path: "/api/users",
			body: `{"email":"driver@example.com","password":"pw"}`, status: 400, want: []string{"User limit reached"}},
		{name: "plain user cannot create users", as: "user1", method: "POST", path: "/api/users",
			body: `{"email":"driver@example.com","password":"pw"}`, status: 403},
		{name: "duplicate e-mail", as: "admin", method: "POST", path: "/api/users",
			body: `{"email":"User1@Example.com","password":"pw"}`, status: 400, want: []string{"Duplicate value"}},
		{name: "password required", as: "admin", method: "POST", path: "/api/users",
			body: `{"email":"driver@example.com"}`, status: 400, want: []string{"password is required"}},
		{name: "wrong Basic credentials fail even where anonymous is allowed", as: "intruder", method: "POST",
			path: "/api/users", prepare: allowRegistration, body: `{"email":"driver@example.com","password":"pw"}`,
			status: 401},

		{name: "update merges and replaces attributes", as: "user1", method: "PUT", path: "/api/users/{user1}",
			prepare: func(t *testing.T, e *env) {
				_, err := e.core.UpdateUser(app.System(), e.ids["user1"], func(u *model.User) error {
					u.Phone, u.Attributes = "+4930", model.Attributes{"a": 1.0, "b": 2.0}
					return nil
				})
				must(t, err)
			},
			body: `{"name":"Renamed","attributes":{"b":3}}`, status: 200,
			want:   []string{`"name":"Renamed"`, `"phone":"+4930"`, `"attributes":{"b":3}`},
			absent: []string{`"a":1`}},
		{name: "user cannot make itself administrator", as: "user1", method: "PUT", path: "/api/users/{user1}",
			body: `{"administrator":true}`, status: 403,
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				if e.caller(t, "user1").Administrator {
					t.Error("user1 became administrator")
				}
			}},
		{name: "manager cannot update another manager's user", as: "manager2", method: "PUT",
			path: "/api/users/{user1}", body: `{"name":"x"}`, status: 404},
		{name: "password change", as: "user1", method: "PUT", path: "/api/users/{user1}",
			body: `{"password":"changed"}`, status: 200,
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				if _, err := e.core.Login("user1@example.com", "user1-secret", "test"); err == nil {
					t.Error("old password still works")
				}
				if _, err := e.core.Login("user1@example.com", "changed", "test"); err != nil {
					t.Errorf("new password: %v", err)
				}
			}},
		{name: "manager deletes its user", as: "manager1", method: "DELETE", path: "/api/users/{user1}", status: 204,
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				if _, err := e.core.User(app.System(), e.ids["user1"]); !errors.Is(err, model.ErrNotFound) {
					t.Errorf("user1 still there: %v", err)
				}
			}},
		{name: "manager cannot delete another manager's user", as: "manager1", method: "DELETE",
			path: "/api/users/{user2}", status: 404},
		{name: "last administrator stays", as: "admin", method: "DELETE", path: "/api/users/{admin}", status: 400},
		{name: "unknown user", as: "admin", method: "GET", path: "/api/users/9999", status: 404},
	})
}

func allowRegistration(t *testing.T, e *env) {
	t.Helper()
	_, err := e.core.UpdateServer(app.System(), func(s *model.Server) error { s.Registration = true; return nil })
	must(t, err)
}
