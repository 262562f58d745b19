package web_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"

	"github.com/fasthttp/websocket"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
)

// devices counts the devices the administrator sees.
func (e *appEnv) devices(t *testing.T) int {
	t.Helper()
	list, err := e.Core.Fleet.Devices.List(e.admin(t), model.Query{All: true})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// A page of another site cannot act with the user's session: the browser
// sends its Origin (or at least its Referer), and fleetd refuses. Its own
// pages, apps without a browser and HTTP Basic clients are not affected.
func TestCrossSiteRequestsRefused(t *testing.T) {
	const json = fiber.MIMEApplicationJSON
	tests := []struct {
		name    string
		opts    web.Options
		as      auth
		method  string
		path    string
		ctype   string
		body    string
		headers map[string]string
		status  int
	}{
		{"another site's page, with the cookie", web.Options{}, cookie, "POST", "/api/devices", json, newDevice,
			map[string]string{"Origin": "https://elsewhere.example"}, 403},
		{"another site's page, Referer only", web.Options{}, cookie, "POST", "/api/devices", json, newDevice,
			map[string]string{"Referer": "https://elsewhere.example/trap.html"}, 403},
		{"a sandboxed page (Origin null)", web.Options{}, cookie, "POST", "/api/devices", json, newDevice,
			map[string]string{"Origin": "null"}, 403},
		{"another site reading with the cookie", web.Options{}, cookie, "GET", "/api/devices", "", "",
			map[string]string{"Origin": "https://elsewhere.example"}, 403},
		{"another site's login form", web.Options{}, anonymous, "POST", "/api/session", fiber.MIMEApplicationForm,
			"email=" + adminEmail + "&password=" + adminPassword, map[string]string{"Origin": "https://elsewhere.example"}, 403},
		{"another site's dashboard form", web.Options{}, cookie, "POST", "/dashboard/logout", fiber.MIMEApplicationForm, "",
			map[string]string{"Origin": "https://elsewhere.example"}, 403},
		{"the server's own page", web.Options{}, cookie, "POST", "/api/devices", json, newDevice,
			map[string]string{"Origin": "https://" + fleetHost}, 200},
		{"the server's own page on another port", web.Options{}, cookie, "POST", "/api/devices", json, newDevice,
			map[string]string{"Origin": "http://" + fleetHost + ":8082", "Referer": "http://" + fleetHost + ":8082/"}, 200},
		{"a native app (no Origin, no Referer)", web.Options{}, cookie, "POST", "/api/devices", json, newDevice, nil, 200},
		{"a link from another site (GET, Referer only)", web.Options{}, cookie, "GET", "/api/devices", "", "",
			map[string]string{"Referer": "https://elsewhere.example/"}, 200},
		{"an HTTP Basic client", web.Options{}, basic, "POST", "/api/devices", json, newDevice, nil, 200},
		{"a site in web.allowedOrigins", web.Options{AllowedOrigins: []string{"https://Traccar.example.com"}}, cookie,
			"POST", "/api/devices", json, newDevice, map[string]string{"Origin": "https://traccar.example.com"}, 200},
		{"behind a trusted proxy that rewrites Host", web.Options{TrustedProxies: []string{"0.0.0.0"}, ProxyHeader: "X-Real-IP"}, cookie,
			"POST", "/api/devices", json, newDevice,
			map[string]string{"Origin": "https://" + fleetHost, "Host": "127.0.0.1:8082", "X-Forwarded-Host": fleetHost}, 200},
		{"X-Forwarded-Host from a peer that is no trusted proxy", web.Options{}, cookie, "POST", "/api/devices", json, newDevice,
			map[string]string{"Origin": "https://" + fleetHost, "Host": "127.0.0.1:8082", "X-Forwarded-Host": fleetHost}, 403},
	}
	var scenarios []webtest.Scenario[*appEnv]
	for _, tc := range tests {
		created := tc.path == "/api/devices" && tc.method == "POST" && tc.status == 200
		s := webtest.Scenario[*appEnv]{Name: tc.name, World: appWorld(tc.opts), Method: tc.method, Path: tc.path,
			ContentType: tc.ctype, Body: tc.body, Header: tc.headers, Status: tc.status,
			After: func(t *testing.T, e *appEnv, _ *webtest.Response) {
				if n := e.devices(t); (n == 1) != created {
					t.Errorf("%d devices after the request; created: %v", n, created)
				}
			}}
		tc.as.sign(&s)
		if tc.status == 403 { // the JSON error
			s.Want = []string{`"message":"Forbidden"`}
		}
		scenarios = append(scenarios, s)
	}
	webtest.Run(t, appWorld(web.Options{}), scenarios)
}

// The live socket opens only for the server's own pages and for clients
// without a browser: another site's page could otherwise read the user's
// fleet live.
func TestSocketChecksOrigin(t *testing.T) {
	s := newSite(t, web.Options{})
	tests := []struct {
		name   string
		origin string
		basic  bool
		status int
	}{
		{"another site's page", "https://elsewhere.example", false, 403},
		{"another site's page with Basic credentials", "https://elsewhere.example", true, 403},
		{"the server's own page", "http://" + s.addr, false, 101},
		{"a native app", "", false, 101},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
			if tc.basic {
				req := httptest.NewRequest("GET", "/", nil)
				s.Sign(t, req, "admin", webtest.AuthBasic)
				h.Set("Authorization", req.Header.Get("Authorization"))
			} else {
				h.Set("Cookie", s.cookie.String())
			}
			c, res, err := websocket.DefaultDialer.Dial("ws://"+s.addr+"/api/socket", h)
			if c != nil {
				c.Close()
			}
			if res == nil {
				t.Fatalf("no answer: %v", err)
			}
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.status)
			}
			if tc.status == 403 {
				var body bytes.Buffer
				body.ReadFrom(res.Body)
				if !strings.Contains(body.String(), `"message":"Forbidden"`) {
					t.Errorf("refusal %q is not the JSON error", body.String())
				}
			}
		})
	}
}
