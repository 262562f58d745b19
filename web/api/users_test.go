package api_test

import (
	"errors"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestUsers(t *testing.T) {
	run(t, []scenario{
		{Name: "admin lists everyone", As: "admin", Method: "GET", Path: "/api/users", Status: 200,
			Want: []string{"admin@example.com", "manager1@example.com", "user1@example.com", "user2@example.com"}},
		{Name: "manager lists only its users", As: "manager1", Method: "GET", Path: "/api/users", Status: 200,
			Want: []string{"user1@example.com"}, Absent: []string{"user2@example.com", "admin@example.com"}},
		{Name: "plain user lists nobody", As: "user1", Method: "GET", Path: "/api/users", Status: 200, Want: []string{"[]"}},
		{Name: "manager cannot list another manager's users", As: "manager1", Method: "GET",
			Path: "/api/users?userId={manager2}", Status: 404, Absent: []string{"user2@example.com"}},
		{Name: "admin lists a manager's users", As: "admin", Method: "GET", Path: "/api/users?userId={manager2}",
			Status: 200, Want: []string{"user2@example.com"}, Absent: []string{"user1@example.com"}},
		{Name: "userId by a plain user", As: "user1", Method: "GET", Path: "/api/users?userId={user1}", Status: 403},
		{Name: "anonymous list", Method: "GET", Path: "/api/users", Status: 401},

		{Name: "manager reads its user", As: "manager1", Method: "GET", Path: "/api/users/{user1}", Status: 200,
			Want: []string{`"email":"user1@example.com"`}},
		{Name: "manager cannot read another manager's user", As: "manager1", Method: "GET",
			Path: "/api/users/{user2}", Status: 404},
		{Name: "user reads itself", As: "user1", Method: "GET", Path: "/api/users/{user1}", Status: 200},
		{Name: "user cannot read its manager", As: "user1", Method: "GET", Path: "/api/users/{manager1}", Status: 404},

		{Name: "registration disabled", Method: "POST", Path: "/api/users",
			Body: `{"name":"New","email":"new@example.com","password":"pw"}`, Status: 403,
			Want: []string{"Registration is disabled"}},
		{Name: "self-registration", Method: "POST", Path: "/api/users", Before: allowRegistration,
			Body: `{"name":"New","email":"new@example.com","password":"new-pw","unknownField":1}`, Status: 200,
			Want: []string{`"email":"new@example.com"`, `"administrator":false`, `"attributes":{}`},
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if _, err := e.Core.Accounts.Login("new@example.com", "new-pw", "", "test"); err != nil {
					t.Errorf("registered user cannot log in: %v", err)
				}
			}},
		{Name: "self-registration cannot grant administrator", Method: "POST", Path: "/api/users", Before: allowRegistration,
			Body: `{"email":"new@example.com","password":"pw","administrator":true}`, Status: 403},
		{Name: "manager creates a managed user", As: "manager2", Method: "POST", Path: "/api/users",
			Body: `{"name":"Driver","email":"driver@example.com","password":"pw"}`, Status: 200,
			Want:  []string{`"email":"driver@example.com"`},
			After: manages("manager2", "driver@example.com", "user2@example.com")},
		{Name: "manager user limit", As: "manager1", Method: "POST", Path: "/api/users",
			Body: `{"email":"driver@example.com","password":"pw"}`, Status: 400, Want: []string{"User limit reached"}},
		{Name: "plain user cannot create users", As: "user1", Method: "POST", Path: "/api/users",
			Body: `{"email":"driver@example.com","password":"pw"}`, Status: 403},
		{Name: "duplicate e-mail", As: "admin", Method: "POST", Path: "/api/users",
			Body: `{"email":"User1@Example.com","password":"pw"}`, Status: 400, Want: []string{"Duplicate value"}},
		{Name: "password required", As: "admin", Method: "POST", Path: "/api/users",
			Body: `{"email":"driver@example.com"}`, Status: 400, Want: []string{"password is required"}},
		{Name: "wrong Basic credentials fail even where anonymous is allowed", As: "intruder", Method: "POST",
			Path: "/api/users", Before: allowRegistration, Body: `{"email":"driver@example.com","password":"pw"}`,
			Status: 401},

		{Name: "update merges and replaces attributes", As: "user1", Method: "PUT", Path: "/api/users/{user1}",
			Before: func(t *testing.T, e *env) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error {
					u.Phone, u.Attributes = "+4930", model.Attributes{"a": 1.0, "b": 2.0}
					return nil
				})
				must(t, err)
			},
			Body: `{"name":"Renamed","attributes":{"b":3}}`, Status: 200,
			Want:   []string{`"name":"Renamed"`, `"phone":"+4930"`, `"attributes":{"b":3}`},
			Absent: []string{`"a":1`}},
		{Name: "user cannot make itself administrator", As: "user1", Method: "PUT", Path: "/api/users/{user1}",
			Body: `{"administrator":true}`, Status: 403,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if e.caller(t, "user1").Administrator {
					t.Error("user1 became administrator")
				}
			}},
		{Name: "manager cannot update another manager's user", As: "manager2", Method: "PUT",
			Path: "/api/users/{user1}", Body: `{"name":"x"}`, Status: 404},
		{Name: "password change", As: "user1", Method: "PUT", Path: "/api/users/{user1}",
			Body: `{"password":"changed"}`, Status: 200,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if _, err := e.Core.Accounts.Login("user1@example.com", "user1-secret", "", "test"); err == nil {
					t.Error("old password still works")
				}
				if _, err := e.Core.Accounts.Login("user1@example.com", "changed", "", "test"); err != nil {
					t.Errorf("new password: %v", err)
				}
			}},
		{Name: "manager deletes its user", As: "manager1", Method: "DELETE", Path: "/api/users/{user1}", Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				if _, err := e.Core.Accounts.User(model.System(), e.IDs["user1"]); !errors.Is(err, model.ErrNotFound) {
					t.Errorf("user1 still there: %v", err)
				}
			}},
		{Name: "manager cannot delete another manager's user", As: "manager1", Method: "DELETE",
			Path: "/api/users/{user2}", Status: 404},
		{Name: "last administrator stays", As: "admin", Method: "DELETE", Path: "/api/users/{admin}", Status: 400},
		{Name: "unknown user", As: "admin", Method: "GET", Path: "/api/users/9999", Status: 404},
	})
}

func allowRegistration(t *testing.T, e *env) {
	t.Helper()
	_, err := e.Core.Accounts.UpdateServer(model.System(), func(s *model.Server) error { s.Registration = true; return nil })
	must(t, err)
}
