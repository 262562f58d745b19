package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
)

// TestBadInput: malformed bodies, ids and queries answer 4xx with the JSON
// error shape, never a 500 (runScenarios checks the shape and no secrets).
func TestBadInput(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "truncated JSON", as: "admin", method: "POST", path: "/api/devices", body: `{"name":`, status: 400,
			want: []string{"malformed JSON"}},
		{name: "array instead of object", as: "admin", method: "POST", path: "/api/devices", body: `[]`, status: 400,
			want: []string{"must be an object"}},
		{name: "null body", as: "admin", method: "POST", path: "/api/devices", body: `null`, status: 400},
		{name: "empty body", as: "admin", method: "PUT", path: "/api/devices/{d1}", status: 400,
			want: []string{"body is required"}},
		{name: "wrong field type", as: "admin", method: "POST", path: "/api/devices", body: `{"name":5,"uniqueId":"1"}`,
			status: 400, want: []string{`field \"name\" must be a string`}},
		{name: "wrong id type on update", as: "admin", method: "PUT", path: "/api/devices/{d1}", body: `{"groupId":"x"}`,
			status: 400, check: deviceNamed("d1", "Truck 1")},
		{name: "bad timestamp in body", as: "admin", method: "PUT", path: "/api/users/{user1}",
			body: `{"expirationTime":"soon"}`, status: 400, want: []string{"ISO 8601"}},
		{name: "attributes not an object", as: "admin", method: "PUT", path: "/api/devices/{d1}",
			body: `{"attributes":[1]}`, status: 400},
		{name: "non-numeric id", as: "admin", method: "GET", path: "/api/devices/abc", status: 404},
		{name: "zero id", as: "admin", method: "GET", path: "/api/devices/0", status: 400},
		{name: "negative id", as: "admin", method: "DELETE", path: "/api/users/-3", status: 400},
		{name: "id beyond int64", as: "admin", method: "GET", path: "/api/devices/99999999999999999999", status: 404},
		{name: "bad repeated id", as: "admin", method: "GET", path: "/api/devices?id=1&id=x", status: 400,
			want: []string{"id must be a positive integer"}},
		{name: "bad all", as: "admin", method: "GET", path: "/api/commands?all=maybe", status: 400},
		{name: "bad userId", as: "admin", method: "GET", path: "/api/users?userId=-1", status: 400},
		{name: "bad deviceId", as: "admin", method: "GET", path: "/api/geofences?deviceId=1.5", status: 400},
		{name: "fractional permission id", as: "admin", method: "POST", path: "/api/permissions",
			body: `{"userId":1.5,"deviceId":{d1}}`, status: 400},
		{name: "unknown route", as: "admin", method: "GET", path: "/api/trucks", status: 404, want: []string{`"message":"Not Found"`}},
		{name: "unknown route anonymous", method: "GET", path: "/api/trucks", status: 404},
		{name: "method not allowed", as: "admin", method: "PATCH", path: "/api/devices/{d1}", status: 405,
			want: []string{`"message":"Method Not Allowed"`}},
	})
}

func TestAuthorizationHeaders(t *testing.T) {
	e := newEnv(t)
	for _, header := range []string{"Basic !!!", "Bearer abc", "Basic", "Basic " + "dXNlcjFAZXhhbXBsZS5jb20="} {
		req := e.newRequest(t, "GET", "/api/devices", "", "")
		req.Header.Set("Authorization", header)
		if r := e.do(t, req); r.Status != 401 || !strings.Contains(r.Body, `"message"`) {
			t.Errorf("Authorization %q: %d %s, want 401 JSON", header, r.Status, r.Body)
		}
	}
}

// TestBodyTooLarge runs on a real listener: fasthttp refuses the body
// while reading the request, before any handler.
func TestBodyTooLarge(t *testing.T) {
	e := newEnv(t)
	addr := webtest.Serve(t, web.New(e.core, web.Options{Limits: httpx.Limits{MaxUpload: 1024}}))

	body := `{"name":"` + strings.Repeat("x", 2048) + `","uniqueId":"1"}`
	req, err := http.NewRequest("POST", "http://"+addr+"/api/devices", strings.NewReader(body))
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(logins["admin"][0], logins["admin"][1])
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	if r := webtest.Read(t, res); r.Status != http.StatusRequestEntityTooLarge || !strings.Contains(r.Body, `"message":"Request Entity Too Large"`) {
		t.Errorf("large body: %d %s, want 413 JSON", r.Status, r.Body)
	}
}

// TestPanicRecovered: a panicking handler answers a generic 500 JSON and
// the panic's text does not leak.
func TestPanicRecovered(t *testing.T) {
	e := newEnv(t)
	e.app.Get("/api/test-panic", func(*fiber.Ctx) error { panic("secret internal state") })
	r := e.do(t, e.newRequest(t, "GET", "/api/test-panic", "", ""))
	if r.Status != 500 || strings.Contains(r.Body, "secret internal") || !strings.Contains(r.Body, `"message":"Internal server error"`) {
		t.Errorf("panic: %d %s", r.Status, r.Body)
	}
}
