package web_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/throttle"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// The dashboard takes "/" over: a browser opening the server lands on it.
func TestRootRedirectsToDashboard(t *testing.T) {
	res, err := newAppEnv(t, web.Options{}).App.Test(httptest.NewRequest("GET", "/", nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 302 || res.Header.Get("Location") != "/dashboard/" {
		t.Fatalf("GET / = %d Location %q", res.StatusCode, res.Header.Get("Location"))
	}
}

// The login throttle counts by the client's address: the proxy header's
// when the peer is a trusted proxy, else the peer's (a header from anyone
// else is ignored, or a client could pick a fresh address per guess).
func TestClientAddressBehindProxy(t *testing.T) {
	tests := []struct {
		name    string
		trusted []string
		// whether a second client behind the same proxy is still let in
		// after the first one used up its failed logins
		secondAdmitted bool
	}{
		{"no trusted proxy: the header is ignored", nil, false},
		{"trusted peer address", []string{"127.0.0.1"}, true},
		{"trusted range", []string{"127.0.0.0/8"}, true},
		{"peer outside the trusted range", []string{"10.0.0.0/8"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newAppEnv(t, web.Options{TrustedProxies: tc.trusted, ProxyHeader: "X-Real-IP"}, func(o *app.Options) {
				o.Throttle = throttle.Options{MaxPerIP: 3, MaxPerAccount: 100, Window: time.Hour}
			})
			addr := webtest.Serve(t, e.App)
			login := func(client string) int {
				t.Helper()
				req, _ := http.NewRequest("POST", "http://"+addr+"/api/session",
					strings.NewReader("email=nobody%40example.com&password=wrong"))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("X-Real-IP", client)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				return res.StatusCode
			}
			for range 3 {
				if got := login("203.0.113.1"); got != http.StatusUnauthorized {
					t.Fatalf("failed login = %d, want 401", got)
				}
			}
			if got := login("203.0.113.1"); got != http.StatusTooManyRequests {
				t.Fatalf("login after the limit = %d, want 429", got)
			}
			want := http.StatusTooManyRequests
			if tc.secondAdmitted {
				want = http.StatusUnauthorized
			}
			if got := login("203.0.113.2"); got != want {
				t.Fatalf("another client's login = %d, want %d", got, want)
			}
		})
	}
}

// A proxy the config does not trust is reported once, so the operator
// learns why every client shares one login budget.
func TestWarnsOfUntrustedProxy(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted []string
		header  string
		warns   int
	}{
		{"direct clients", nil, "", 0},
		{"untrusted proxy", nil, "X-Forwarded-For", 1},
		{"trusted proxy", []string{"0.0.0.0"}, "X-Real-IP", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logged bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logged, nil))
			f := newAppEnv(t, web.Options{Logger: log, TrustedProxies: tc.trusted, ProxyHeader: "X-Real-IP"},
				func(o *app.Options) { o.Logger = log }).App
			for range 3 {
				req := httptest.NewRequest("GET", "/api/server", nil)
				if tc.header != "" {
					req.Header.Set(tc.header, "203.0.113.1")
				}
				if _, err := f.Test(req); err != nil {
					t.Fatal(err)
				}
			}
			if n := strings.Count(logged.String(), "web.trustedProxies does not name"); n != tc.warns {
				t.Fatalf("warned %d times, want %d:\n%s", n, tc.warns, logged.String())
			}
		})
	}
}
