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
// error shape, never a 500 (webtest.Run checks the shape; the fixture's
// Never, that no secret leaks).
func TestBadInput(t *testing.T) {
	run(t, []scenario{
		{Name: "truncated JSON", As: "admin", Method: "POST", Path: "/api/devices", Body: `{"name":`, Status: 400,
			Want: []string{"malformed JSON"}},
		{Name: "array instead of object", As: "admin", Method: "POST", Path: "/api/devices", Body: `[]`, Status: 400,
			Want: []string{"must be an object"}},
		{Name: "null body", As: "admin", Method: "POST", Path: "/api/devices", Body: `null`, Status: 400},
		{Name: "empty body", As: "admin", Method: "PUT", Path: "/api/devices/{d1}", Status: 400,
			Want: []string{"body is required"}},
		{Name: "wrong field type", As: "admin", Method: "POST", Path: "/api/devices", Body: `{"name":5,"uniqueId":"1"}`,
			Status: 400, Want: []string{`field \"name\" must be a string`}},
		{Name: "wrong id type on update", As: "admin", Method: "PUT", Path: "/api/devices/{d1}", Body: `{"groupId":"x"}`,
			Status: 400, After: deviceNamed("d1", "Truck 1")},
		{Name: "bad timestamp in body", As: "admin", Method: "PUT", Path: "/api/users/{user1}",
			Body: `{"expirationTime":"soon"}`, Status: 400, Want: []string{"ISO 8601"}},
		{Name: "attributes not an object", As: "admin", Method: "PUT", Path: "/api/devices/{d1}",
			Body: `{"attributes":[1]}`, Status: 400},
		{Name: "non-numeric id", As: "admin", Method: "GET", Path: "/api/devices/abc", Status: 404},
		{Name: "zero id", As: "admin", Method: "GET", Path: "/api/devices/0", Status: 400},
		{Name: "negative id", As: "admin", Method: "DELETE", Path: "/api/users/-3", Status: 400},
		{Name: "id beyond int64", As: "admin", Method: "GET", Path: "/api/devices/99999999999999999999", Status: 404},
		{Name: "bad repeated id", As: "admin", Method: "GET", Path: "/api/devices?id=1&id=x", Status: 400,
			Want: []string{"id must be a positive integer"}},
		{Name: "bad all", As: "admin", Method: "GET", Path: "/api/commands?all=maybe", Status: 400},
		{Name: "bad userId", As: "admin", Method: "GET", Path: "/api/users?userId=-1", Status: 400},
		{Name: "bad deviceId", As: "admin", Method: "GET", Path: "/api/geofences?deviceId=1.5", Status: 400},
		{Name: "fractional permission id", As: "admin", Method: "POST", Path: "/api/permissions",
			Body: `{"userId":1.5,"deviceId":{d1}}`, Status: 400},
		{Name: "unknown route", As: "admin", Method: "GET", Path: "/api/trucks", Status: 404, Want: []string{`"message":"Not Found"`}},
		{Name: "unknown route anonymous", Method: "GET", Path: "/api/trucks", Status: 404},
		{Name: "method not allowed", As: "admin", Method: "PATCH", Path: "/api/devices/{d1}", Status: 405,
			Want: []string{`"message":"Method Not Allowed"`}},
	})
}

func TestAuthorizationHeaders(t *testing.T) {
	var scenarios []scenario
	for _, header := range []string{"Basic !!!", "Bearer abc", "Basic", "Basic " + "dXNlcjFAZXhhbXBsZS5jb20="} {
		scenarios = append(scenarios, scenario{Name: header, Method: "GET", Path: "/api/devices",
			Header: map[string]string{"Authorization": header}, Status: 401, Want: []string{`"message"`}})
	}
	run(t, scenarios)
}

// TestBodyTooLarge runs on a real listener: fasthttp refuses the body
// while reading the request, before any handler.
func TestBodyTooLarge(t *testing.T) {
	e := newEnv(t)
	addr := webtest.Serve(t, web.New(e.Core, web.Options{Limits: httpx.Limits{MaxUpload: 1024}}))

	body := `{"name":"` + strings.Repeat("x", 2048) + `","uniqueId":"1"}`
	req, err := http.NewRequest("POST", "http://"+addr+"/api/devices", strings.NewReader(body))
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	e.Sign(t, req, "admin", webtest.AuthBasic)
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
	e.App.Get("/api/test-panic", func(*fiber.Ctx) error { panic("secret internal state") })
	r := e.Call(t, "", "GET", "/api/test-panic", "")
	if r.Status != 500 || strings.Contains(r.Body, "secret internal") || !strings.Contains(r.Body, `"message":"Internal server error"`) {
		t.Errorf("panic: %d %s", r.Status, r.Body)
	}
}
