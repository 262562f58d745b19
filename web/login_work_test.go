package web_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/throttle"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// Every way of logging in does one password hash per attempt whether the
// account exists or not, so the answer's timing does not tell which. The
// work is counted, not timed. The answers stay distinct where the spec
// says so (A2's 404 for an unknown identifier).
func TestLoginWorkDoesNotTellWhetherAnAccountExists(t *testing.T) {
	e := newAppEnv(t, web.Options{}, func(o *app.Options) {
		o.Throttle = throttle.Options{MaxPerIP: 1000, MaxPerAccount: 1000, Window: time.Hour}
	})
	core := e.Core
	base := "http://" + webtest.Serve(t, e.App)

	send := func(t *testing.T, req *http.Request) (int, string) {
		t.Helper()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	form := func(path string, v url.Values) *http.Request {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		return req
	}
	ways := []struct {
		name    string
		attempt func(t *testing.T, email string) int
		unknown int // the status for an unknown account (wrong password: wrong)
		wrong   int
	}{
		{"api session form", func(t *testing.T, email string) int {
			s, _ := send(t, form("/api/session", url.Values{"email": {email}, "password": {"guess"}}))
			return s
		}, 401, 401},
		{"HTTP Basic", func(t *testing.T, email string) int {
			req, _ := http.NewRequest("GET", base+"/api/devices", nil)
			req.SetBasicAuth(email, "guess")
			s, _ := send(t, req)
			return s
		}, 401, 401},
		{"api2 login (A2)", func(t *testing.T, email string) int {
			req, _ := http.NewRequest("POST", base+"/api2/auth/login",
				strings.NewReader(`{"identifier":"`+email+`","password":"guess"}`))
			req.Header.Set("Content-Type", "application/json")
			s, _ := send(t, req)
			return s
		}, 404, 401},
		{"dashboard", func(t *testing.T, email string) int {
			page, _ := http.NewRequest("GET", base+"/dashboard/login", nil)
			res, err := http.DefaultClient.Do(page)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			token := regexp.MustCompile(`name="_csrf" value="([^"]+)"`).FindStringSubmatch(string(body))
			if token == nil {
				t.Fatal("no CSRF token on the login page")
			}
			req := form("/dashboard/login", url.Values{"email": {email}, "password": {"guess"}, "_csrf": {token[1]}})
			for _, ck := range res.Cookies() {
				req.AddCookie(ck)
			}
			s, _ := send(t, req)
			return s
		}, 401, 401},
	}
	for _, w := range ways {
		t.Run(w.name, func(t *testing.T) {
			for _, tc := range []struct {
				email string
				want  int
			}{{"nobody@example.com", w.unknown}, {"admin@example.com", w.wrong}} {
				before := core.Stats().PasswordChecks
				if got := w.attempt(t, tc.email); got != tc.want {
					t.Errorf("%s: status %d, want %d", tc.email, got, tc.want)
				}
				if n := core.Stats().PasswordChecks - before; n != 1 {
					t.Errorf("%s: %d password hashes, want 1", tc.email, n)
				}
			}
		})
	}
}
