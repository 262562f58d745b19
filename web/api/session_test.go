package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
)

func TestSession(t *testing.T) {
	run(t, []scenario{
		{Name: "form login returns the user and an HttpOnly cookie", Method: "POST", Path: "/api/session",
			ContentType: fiber.MIMEApplicationForm, Body: "email=user1@example.com&password=user1-secret", Status: 200,
			Want: []string{`"id":{user1}`, `"email":"user1@example.com"`},
			After: func(t *testing.T, e *env, r *webtest.Response) {
				c := sessionCookie(t, r)
				if !c.HttpOnly || c.Path != "/" || c.SameSite != http.SameSiteLaxMode || c.Secure {
					t.Errorf("cookie %+v: want HttpOnly, Path=/, SameSite=Lax, not Secure", c)
				}
				if c.Expires.Before(time.Now().Add(24 * time.Hour)) {
					t.Errorf("cookie expires %v, want the session's lifetime", c.Expires)
				}
				if u, err := e.Core.Accounts.SessionUser(c.Value); err != nil || u.ID != e.IDs["user1"] {
					t.Errorf("cookie does not name user1's session: %v", err)
				}
			}},
		{Name: "JSON login", Method: "POST", Path: "/api/session",
			Body: `{"email":"USER1@example.com","password":"user1-secret"}`, Status: 200,
			Want: []string{`"id":{user1}`}},
		{Name: "wrong password", Method: "POST", Path: "/api/session",
			ContentType: fiber.MIMEApplicationForm, Body: "email=user1@example.com&password=nope", Status: 401,
			Want: []string{`"message":"Unauthorized"`}},
		{Name: "unknown account", Method: "POST", Path: "/api/session",
			ContentType: fiber.MIMEApplicationForm, Body: "email=nobody@example.com&password=nope", Status: 401},
		{Name: "missing password", Method: "POST", Path: "/api/session",
			ContentType: fiber.MIMEApplicationForm, Body: "email=user1@example.com", Status: 400, Want: []string{"email and password are required"}},
		{Name: "throttled after repeated failures, even with the right password", Method: "POST", Path: "/api/session",
			Before: func(t *testing.T, e *env) {
				for range 3 {
					e.Send(t, "", e.Request(t, "POST", "/api/session", fiber.MIMEApplicationForm, "email=user1@example.com&password=bad"))
				}
			},
			ContentType: fiber.MIMEApplicationForm, Body: "email=user1@example.com&password=user1-secret", Status: 429,
			Want: []string{`"message":"Too many requests"`}},
		{Name: "get with cookie", As: "manager1", Auth: webtest.AuthLogin, Method: "GET", Path: "/api/session", Status: 200,
			Want: []string{`"id":{manager1}`, `"userLimit":1`}},
		{Name: "get with Basic", As: "manager1", Method: "GET", Path: "/api/session", Status: 200,
			Want: []string{`"id":{manager1}`}},
		{Name: "get without a session is 404", Method: "GET", Path: "/api/session", Status: 404},
		{Name: "logout ends the session and clears the cookie", As: "user1", Auth: webtest.AuthLogin, Method: "DELETE", Path: "/api/session",
			Status: 204,
			After: func(t *testing.T, e *env, r *webtest.Response) {
				if c := sessionCookie(t, r); c.Value != "" || !c.Expires.Before(time.Now()) {
					t.Errorf("cookie not cleared: %+v", c)
				}
			}},
		{Name: "logout without a session", Method: "DELETE", Path: "/api/session", Status: 204},
	})
}

// TestSessionLifecycle follows one cookie through login, use and logout.
func TestSessionLifecycle(t *testing.T) {
	e := newEnv(t)
	cookie := e.Login(t, "user1")
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
	req := e.Request(t, "GET", "/api/devices", "", "")
	req.AddCookie(stale)
	if r := e.Send(t, "user1", req); r.Status != 200 || !strings.Contains(r.Body, `"Truck 1"`) {
		t.Errorf("stale cookie plus Basic: %d %s", r.Status, r.Body)
	}
}

func TestSecureCookie(t *testing.T) {
	e := newEnv(t)
	e.App = web.New(e.Core, web.Options{SecureCookies: true})
	c := sessionCookie(t, e.Send(t, "", e.Request(t, "POST", "/api/session", fiber.MIMEApplicationForm,
		"email=user1@example.com&password=user1-secret")))
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
