package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestSession(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "form login returns the user and an HttpOnly cookie", method: "POST", path: "/api/session",
			form: true, body: "email=user1@example.com&password=user1-secret", status: 200,
			want: []string{`"id":{user1}`, `"email":"user1@example.com"`},
			check: func(t *testing.T, e *env, r *webtest.Response) {
				c := sessionCookie(t, r)
				if !c.HttpOnly || c.Path != "/" || c.SameSite != http.SameSiteLaxMode || c.Secure {
					t.Errorf("cookie %+v: want HttpOnly, Path=/, SameSite=Lax, not Secure", c)
				}
				if c.Expires.Before(time.Now().Add(24 * time.Hour)) {
					t.Errorf("cookie expires %v, want the session's lifetime", c.Expires)
				}
				if u, err := e.core.SessionUser(c.Value); err != nil || u.ID != e.ids["user1"] {
					t.Errorf("cookie does not name user1's session: %v", err)
				}
			}},
		{name: "JSON login", method: "POST", path: "/api/session",
			body: `{"email":"USER1@example.com","password":"user1-secret"}`, status: 200,
			want: []string{`"id":{user1}`}},
		{name: "wrong password", method: "POST", path: "/api/session",
			form: true, body: "email=user1@example.com&password=nope", status: 401,
			want: []string{`"message":"Unauthorized"`}},
		{name: "unknown account", method: "POST", path: "/api/session",
			form: true, body: "email=nobody@example.com&password=nope", status: 401},
		{name: "missing password", method: "POST", path: "/api/session",
			form: true, body: "email=user1@example.com", status: 400, want: []string{"email and password are required"}},
		{name: "throttled after repeated failures, even with the right password", method: "POST", path: "/api/session",
			prepare: func(t *testing.T, e *env) {
				for range 3 {
					e.request(t, "", "POST", "/api/session", "application/x-www-form-urlencoded", "email=user1@example.com&password=bad")
				}
			},
			form: true, body: "email=user1@example.com&password=user1-secret", status: 429,
			want: []string{`"message":"Too many requests"`}},
		{name: "get with cookie", as: "manager1-cookie", method: "GET", path: "/api/session", status: 200,
			want: []string{`"id":{manager1}`, `"userLimit":1`}},
		{name: "get with Basic", as: "manager1", method: "GET", path: "/api/session", status: 200,
			want: []string{`"id":{manager1}`}},
		{name: "get without a session is 404", method: "GET", path: "/api/session", status: 404},
		{name: "logout ends the session and clears the cookie", as: "user1-cookie", method: "DELETE", path: "/api/session",
			status: 204,
			check: func(t *testing.T, e *env, r *webtest.Response) {
				if c := sessionCookie(t, r); c.Value != "" || !c.Expires.Before(time.Now()) {
					t.Errorf("cookie not cleared: %+v", c)
				}
			}},
		{name: "logout without a session", method: "DELETE", path: "/api/session", status: 204},
	})
}

// TestSessionLifecycle follows one cookie through login, use and logout.
func TestSessionLifecycle(t *testing.T) {
	e := newEnv(t)
	cookie := e.login(t, "user1")
	call := func(method, path string) int {
		t.Helper()
		return e.requestWithCookie(t, cookie, method, path).Status
	}
	if got := call("GET", "/api/devices"); got != 200 {
		t.Fatalf("devices with cookie: %d", got)
	}
	if got := call("DELETE", "/api/session"); got != 204 {
		t.Fatalf("logout: %d", got)
	}
	for _, path := range []string{"/api/devices", "/api/users/{user1}"} {
		if got := call("GET", path); got != 401 {
			t.Errorf("GET %s after logout: %d, want 401", path, got)
		}
	}
	if got := call("GET", "/api/session"); got != 404 {
		t.Errorf("GET /api/session after logout: %d, want 404", got)
	}
}

// TestStaleCookie: an unknown or ended session counts as no credentials,
// so public endpoints still answer and Basic sent beside it still works.
func TestStaleCookie(t *testing.T) {
	e := newEnv(t)
	stale := &http.Cookie{Name: "JSESSIONID", Value: "not-a-session"}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/api/session", 404},
		{"GET", "/api/devices", 401},
		{"GET", "/api/server", 200},
		{"DELETE", "/api/session", 204},
	} {
		if r := e.requestWithCookie(t, stale, c.method, c.path); r.Status != c.status {
			t.Errorf("%s %s with a stale cookie: %d, want %d (%s)", c.method, c.path, r.Status, c.status, r.Body)
		}
	}
	req := e.newRequest(t, "GET", "/api/devices", "", "")
	req.AddCookie(stale)
	req.SetBasicAuth(logins["user1"][0], logins["user1"][1])
	if r := e.do(t, req); r.Status != 200 || !strings.Contains(r.Body, `"Truck 1"`) {
		t.Errorf("stale cookie plus Basic: %d %s", r.Status, r.Body)
	}
}

func TestSecureCookie(t *testing.T) {
	e := newEnv(t)
	e.app = web.New(e.core, web.Options{SecureCookies: true})
	c := sessionCookie(t, e.request(t, "", "POST", "/api/session", "application/x-www-form-urlencoded",
		"email=user1@example.com&password=user1-secret"))
	if !c.Secure {
		t.Errorf("cookie %+v is not Secure with SecureCookies", c)
	}
}

// sessionCookie is the session cookie r sets; none fails the test.
func sessionCookie(t *testing.T, r *webtest.Response) *http.Cookie {
	t.Helper()
	c := r.Cookie(httpx.SessionCookie)
	if c == nil {
		t.Fatalf("no %s cookie in %v", httpx.SessionCookie, r.Header.Values("Set-Cookie"))
	}
	return c
}
