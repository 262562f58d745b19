package webtest

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// Login signs in through POST /api/session with a form, as API clients
// do, and returns the session cookie (name and value only, ready for
// AddCookie). Anything but 200 with a cookie fails the test.
func Login(t testing.TB, f *fiber.App, email, password string) *http.Cookie {
	t.Helper()
	form := url.Values{"email": {email}, "password": {password}}.Encode()
	r := Do(t, f, NewRequest("POST", "/api/session", fiber.MIMEApplicationForm, form))
	if r.Status != http.StatusOK {
		t.Fatalf("login %s: %d %s", email, r.Status, r.Body)
	}
	c := r.Cookie(httpx.SessionCookie)
	if c == nil || c.Value == "" {
		t.Fatalf("login %s set no %s cookie: %v", email, httpx.SessionCookie, r.Header.Values("Set-Cookie"))
	}
	return &http.Cookie{Name: c.Name, Value: c.Value}
}

// SessionCookie starts a session for u straight through the core, for
// tests that are not about signing in.
func SessionCookie(t testing.TB, core *app.Core, u *model.User) *http.Cookie {
	t.Helper()
	token, _, err := core.Accounts.CreateSession(u, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	return &http.Cookie{Name: httpx.SessionCookie, Value: token}
}
