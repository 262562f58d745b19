package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
	"github.com/pquerna/otp/totp"
)

// loginForm fetches the login page as a new browser: the nonce cookie and
// the token of the form.
func loginForm(t *testing.T, e *env) (nonce *http.Cookie, token string) {
	t.Helper()
	anon := &client{e: e}
	res := anon.get("/dashboard/login")
	if res.Status != 200 {
		t.Fatalf("GET login = %d", res.Status)
	}
	nonce, token = res.Cookie("fleetd_login"), csrfToken(res.Body)
	if nonce == nil || token == "" {
		t.Fatalf("login page without nonce cookie or token: %v %.200s", res.Header, res.Body)
	}
	return nonce, token
}

func TestLogin(t *testing.T) {
	e := newEnv(t)
	// The manager logs in with two-factor login on.
	key, err := accounts.NewTOTPKey()
	if err == nil {
		_, err = e.Core.Accounts.UpdateUser(model.System(), e.users["manager"].ID, func(u *model.User) error { u.TotpKey = key; return nil })
	}
	code, err2 := totp.GenerateCode(key, time.Now())
	if err := model.FirstError(err, err2); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, email, password, code string
		withNonce, withToken        bool
		status                      int
		want                        string
	}{
		{"administrator", "admin@example.com", password, "", true, true, 303, ""},
		{"two-factor, no code", "manager@example.com", password, "", true, true, 401, "the code of its authenticator app"},
		{"two-factor, a wrong code", "manager@example.com", password, "123456", true, true, 401, "Invalid one-time code"},
		{"two-factor, the code", "manager@example.com", password, code, true, true, 303, ""},
		{"plain user, to the profile", "driver1@example.com", password, "", true, true, 303, ""},
		{"wrong password", "admin@example.com", "nope", "", true, true, 401, "Invalid email or password"},
		{"no token", "admin@example.com", password, "", true, false, 403, "The form expired"},
		{"no nonce cookie", "admin@example.com", password, "", false, true, 403, "The form expired"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			nonce, token := loginForm(t, e)
			form := url.Values{"email": {tc.email}, "password": {tc.password}, "code": {tc.code}, "next": {"/dashboard/fleet"}}
			if tc.withToken {
				form.Set("_csrf", token)
			}
			req := webtest.NewRequest("POST", "/dashboard/login", fiber.MIMEApplicationForm, form.Encode())
			if tc.withNonce {
				req.AddCookie(nonce)
			}
			res := (&client{e: e}).do(req)
			if res.Status != tc.status {
				t.Fatalf("status %d, want %d: %.300s", res.Status, tc.status, res.Body)
			}
			webtest.Contains(t, "answer", res.Body, tc.want)
			var session string
			if c := res.Cookie(httpx.SessionCookie); c != nil {
				session = c.Value
			}
			if (tc.status == 303) != (session != "") {
				t.Fatalf("session cookie %q after status %d", session, res.Status)
			}
			if tc.status != 303 {
				return
			}
			want := "/dashboard/fleet"
			if tc.email == "driver1@example.com" { // the fleet is not for them
				want = "/dashboard/profile"
			}
			if loc := res.Header.Get("Location"); loc != want {
				t.Errorf("redirect to %q, want %q", loc, want)
			}
			// The dashboard's session is the API's.
			api := (&client{e: e, session: session}).get("/api/session")
			webtest.Contains(t, "GET /api/session", api.Body, `"email":"`+tc.email+`"`)
		})
	}
}

func TestLoginKeepsRedirectInside(t *testing.T) {
	e := newEnv(t)
	for _, next := range []string{"https://evil.example/", "//evil.example/", "/api/users", `/dashboard/\evil`} {
		nonce, token := loginForm(t, e)
		form := url.Values{"email": {"admin@example.com"}, "password": {password}, "next": {next}, "_csrf": {token}}
		req := webtest.NewRequest("POST", "/dashboard/login", fiber.MIMEApplicationForm, form.Encode())
		req.AddCookie(nonce)
		res := (&client{e: e}).do(req)
		if loc := res.Header.Get("Location"); res.Status != 303 || loc != "/dashboard/" {
			t.Errorf("next=%q: %d to %q", next, res.Status, loc)
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
		if !strings.Contains(res.Header.Get(tc.wantHeader), tc.want) {
			t.Errorf("GET %s (htmx %q): %d %s=%q, want %q", tc.path, tc.htmx, res.Status, tc.wantHeader,
				res.Header.Get(tc.wantHeader), tc.want)
		}
	}
	// A script asking for JSON (the vehicle page's route) is told why, in
	// JSON, not sent the login page.
	res := anon.get("/dashboard/fleet/devices/1/route", "Accept", "application/json")
	if res.Status != 401 || !strings.Contains(res.Body, "Your session has ended: sign in again.") || res.Header.Get("Location") != "" {
		t.Errorf("route without a session: %d %q %s", res.Status, res.Header.Get("Location"), res.Body)
	}
	// A stale cookie is no session.
	stale := &client{e: e, session: "not-a-session"}
	if res := stale.get("/dashboard/"); res.Status != 303 {
		t.Errorf("stale cookie: %d", res.Status)
	}
}

// Users who are neither administrators nor managers have their profile
// and nothing else.
func TestPlainUserProfileOnly(t *testing.T) {
	refused := func(path string) scenario {
		return scenario{Name: path, As: "driver1", Method: "GET", Path: path, Status: 403,
			Want:   []string{"administrators and managers", "Sign out", `<a href="/dashboard/profile" class="">Profile</a></nav>`},
			Absent: []string{`href="/dashboard/fleet"`}}
	}
	run(t, []scenario{
		refused("/dashboard/fleet"),
		refused("/dashboard/users"),
		refused("/dashboard/users/{driver1}"),
		refused("/dashboard/tickets"),
		{Name: "profile", As: "driver1", Method: "GET", Path: "/dashboard/profile", Status: 200,
			Want: []string{"Your profile", "Dora Driver", "Current password"}, Absent: []string{"Server defaults"}},
		{Name: "home is the profile", As: "driver1", Method: "GET", Path: "/dashboard/", Status: 303,
			After: func(t *testing.T, _ *env, r *webtest.Response) {
				if loc := r.Header.Get("Location"); loc != "/dashboard/profile" {
					t.Errorf("home sends a plain user to %q", loc)
				}
			}},
		{Name: "no user changes", As: "driver1", Method: "POST", Path: "/dashboard/users/{driver1}/password",
			ContentType: fiber.MIMEApplicationForm, Body: "newPassword=another-secret", Status: 403, Unchanged: true},
	})
}

func TestLogout(t *testing.T) {
	e := newEnv(t)
	c := e.as("admin")
	if res := c.post("/dashboard/logout", url.Values{"_csrf": {"forged"}}); res.Status != 403 {
		t.Fatalf("logout with a forged token: %d", res.Status)
	}
	if res := c.get("/dashboard/"); res.Status != 200 {
		t.Fatalf("session ended by a forged logout: %d", res.Status)
	}
	if res := c.post("/dashboard/logout", nil); res.Status != 303 || res.Header.Get("Location") != "/dashboard/login" {
		t.Fatalf("logout: %d %q", res.Status, res.Header.Get("Location"))
	}
	if res := c.get("/dashboard/"); res.Status != 303 {
		t.Fatalf("after logout: %d", res.Status)
	}
}

// Every state-changing request needs the session's token: missing, forged
// or another session's token is refused and changes nothing.
func TestCSRF(t *testing.T) {
	e := newEnv(t)
	admin, other := e.as("admin"), e.as("admin")
	for name, token := range map[string]string{"missing": "", "forged": "abc", "other session's": other.csrf} {
		form := url.Values{"_csrf": {token}, "name": {"Sneaky"}, "uniqueId": {"999"}}
		if res := admin.post("/dashboard/fleet/devices", form); res.Status != 403 {
			t.Errorf("%s token: %d", name, res.Status)
		}
	}
	if res := admin.get("/dashboard/fleet?q=Sneaky"); strings.Contains(res.Body, "Sneaky</a>") {
		t.Fatal("a refused request created a device")
	}
	// The header htmx sends works like the field.
	req := webtest.NewRequest("POST", "/dashboard/fleet/devices", fiber.MIMEApplicationForm, "name=Header&uniqueId=1000")
	req.Header.Set("X-CSRF-Token", admin.csrf)
	if res := admin.do(req); res.Status != 303 {
		t.Fatalf("token in header: %d %.300s", res.Status, res.Body)
	}
}
