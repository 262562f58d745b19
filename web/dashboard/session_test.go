package dashboard_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/web/httpx"
)

// loginForm fetches the login page as a new browser: the nonce cookie and
// the token of the form.
func loginForm(t *testing.T, e *env) (nonce *http.Cookie, token string) {
	t.Helper()
	anon := &client{e: e}
	res := anon.get("/dashboard/login")
	if res.status != 200 {
		t.Fatalf("GET login = %d", res.status)
	}
	for _, c := range (&http.Response{Header: res.header}).Cookies() {
		if c.Name == "fleetd_login" {
			nonce = c
		}
	}
	m := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(res.body)
	if nonce == nil || m == nil {
		t.Fatalf("login page without nonce cookie or token: %v %.200s", res.header, res.body)
	}
	return nonce, m[1]
}

func TestLogin(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, email, password string
		withNonce, withToken  bool
		status                int
		want                  string
	}{
		{"administrator", "admin@example.com", password, true, true, 303, ""},
		{"manager", "manager@example.com", password, true, true, 303, ""},
		{"plain user refused", "driver1@example.com", password, true, true, 403, "administrators and managers"},
		{"wrong password", "admin@example.com", "nope", true, true, 401, "Invalid email or password"},
		{"no token", "admin@example.com", password, true, false, 403, "The form expired"},
		{"no nonce cookie", "admin@example.com", password, false, true, 403, "The form expired"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nonce, token := loginForm(t, e)
			form := url.Values{"email": {tc.email}, "password": {tc.password}, "next": {"/dashboard/fleet"}}
			if tc.withToken {
				form.Set("_csrf", token)
			}
			req := httptest.NewRequest("POST", "/dashboard/login", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.withNonce {
				req.AddCookie(nonce)
			}
			res := (&client{e: e}).do(req)
			if res.status != tc.status {
				t.Fatalf("status %d, want %d: %.300s", res.status, tc.status, res.body)
			}
			contains(t, "answer", res.body, tc.want)
			var session string
			for _, c := range (&http.Response{Header: res.header}).Cookies() {
				if c.Name == httpx.SessionCookie {
					session = c.Value
				}
			}
			if (tc.status == 303) != (session != "") {
				t.Fatalf("session cookie %q after status %d", session, res.status)
			}
			if tc.status != 303 {
				return
			}
			if loc := res.header.Get("Location"); loc != "/dashboard/fleet" {
				t.Errorf("redirect to %q", loc)
			}
			// The dashboard's session is the API's.
			api := (&client{e: e, session: session}).get("/api/session")
			contains(t, "GET /api/session", api.body, `"email":"`+tc.email+`"`)
		})
	}
}

func TestLoginKeepsRedirectInside(t *testing.T) {
	e := newEnv(t)
	for _, next := range []string{"https://evil.example/", "//evil.example/", "/api/users", `/dashboard/\evil`} {
		nonce, token := loginForm(t, e)
		form := url.Values{"email": {"admin@example.com"}, "password": {password}, "next": {next}, "_csrf": {token}}
		req := httptest.NewRequest("POST", "/dashboard/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(nonce)
		res := (&client{e: e}).do(req)
		if loc := res.header.Get("Location"); res.status != 303 || loc != "/dashboard/" {
			t.Errorf("next=%q: %d to %q", next, res.status, loc)
		}
	}
}

func TestSignedOutGoesToLogin(t *testing.T) {
	e := newEnv(t)
	anon := &client{e: e}
	cases := []struct {
		path, htmx, wantHeader, want string
	}{
		{"/dashboard/", "", "Location", "/dashboard/login"},
		{"/dashboard/fleet?q=x", "", "Location", "/dashboard/login?next=%2Fdashboard%2Ffleet%3Fq%3Dx"},
		{"/dashboard/fleet", "true", "HX-Redirect", "/dashboard/login?next=%2Fdashboard%2Ffleet"},
	}
	for _, tc := range cases {
		res := anon.get(tc.path, "HX-Request", tc.htmx)
		if !strings.Contains(res.header.Get(tc.wantHeader), tc.want) {
			t.Errorf("GET %s (htmx %q): %d %s=%q, want %q", tc.path, tc.htmx, res.status, tc.wantHeader,
				res.header.Get(tc.wantHeader), tc.want)
		}
	}
	// A stale cookie is no session.
	stale := &client{e: e, session: "not-a-session"}
	if res := stale.get("/dashboard/"); res.status != 303 {
		t.Errorf("stale cookie: %d", res.status)
	}
}

func TestPlainUserSessionRefused(t *testing.T) {
	e := newEnv(t)
	token, _, err := e.core.CreateSession(e.users["driver1"])
	if err != nil {
		t.Fatal(err)
	}
	res := (&client{e: e, session: token}).get("/dashboard/")
	if res.status != 403 {
		t.Fatalf("plain user: %d", res.status)
	}
	contains(t, "refusal", res.body, "administrators and managers", "Sign out")
}

func TestLogout(t *testing.T) {
	e := newEnv(t)
	c := e.as("admin")
	if res := c.post("/dashboard/logout", url.Values{"_csrf": {"forged"}}); res.status != 403 {
		t.Fatalf("logout with a forged token: %d", res.status)
	}
	if res := c.get("/dashboard/"); res.status != 200 {
		t.Fatalf("session ended by a forged logout: %d", res.status)
	}
	if res := c.post("/dashboard/logout", nil); res.status != 303 || res.header.Get("Location") != "/dashboard/login" {
		t.Fatalf("logout: %d %q", res.status, res.header.Get("Location"))
	}
	if res := c.get("/dashboard/"); res.status != 303 {
		t.Fatalf("after logout: %d", res.status)
	}
}

// Every state-changing request needs the session's token: missing, forged
// or another session's token is refused and changes nothing.
func TestCSRF(t *testing.T) {
	e := newEnv(t)
	admin, other := e.as("admin"), e.as("admin")
	for name, token := range map[string]string{"missing": "", "forged": "abc", "other session's": other.csrf} {
		form := url.Values{"_csrf": {token}, "name": {"Sneaky"}, "uniqueId": {"999"}}
		if res := admin.post("/dashboard/fleet/devices", form); res.status != 403 {
			t.Errorf("%s token: %d", name, res.status)
		}
	}
	if res := admin.get("/dashboard/fleet?q=Sneaky"); strings.Contains(res.body, "Sneaky</a>") {
		t.Fatal("a refused request created a device")
	}
	// The header htmx sends works like the field.
	req := httptest.NewRequest("POST", "/dashboard/fleet/devices", strings.NewReader("name=Header&uniqueId=1000"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", admin.csrf)
	if res := admin.do(req); res.status != 303 {
		t.Fatalf("token in header: %d %.300s", res.status, res.body)
	}
}
