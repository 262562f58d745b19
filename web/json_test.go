package web_test

import (
	"testing"

	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
)

// JSON endpoints take a body only when it says it is JSON: a browser sends
// text/plain and forms cross-site without asking first. Form logins and
// uploads are forms by nature.
func TestJSONEndpointsRequireJSON(t *testing.T) {
	upload, uploadType := multipartBody(t, 100)
	tests := []struct {
		name   string
		as     auth
		method string
		path   string
		ctype  string
		body   string
		status int
	}{
		{"JSON sent as text/plain", cookie, "POST", "/api/devices", "text/plain", newDevice, 415},
		{"JSON sent as a form", cookie, "POST", "/api/devices", fiber.MIMEApplicationForm, newDevice, 415},
		{"JSON without a Content-Type", cookie, "POST", "/api/devices", "", newDevice, 415},
		{"an extended API body as text/plain", cookie, "POST", "/api2/support/tickets", "text/plain;charset=UTF-8",
			`{"category":"general","title":"t","description":"d"}`, 415},
		{"JSON", cookie, "POST", "/api/devices", "application/json; charset=utf-8", newDevice, 200},
		{"JSON of a +json type", basic, "POST", "/api/devices", "application/vnd.fleet+json", newDevice, 200},
		{"a form login", anonymous, "POST", "/api/session", fiber.MIMEApplicationForm,
			"email=" + adminEmail + "&password=" + adminPassword, 200},
		{"a JSON login", anonymous, "POST", "/api/session", fiber.MIMEApplicationJSON,
			`{"email":"` + adminEmail + `","password":"` + adminPassword + `"}`, 200},
		{"an upload", cookie, "POST", "/api2/files", uploadType, string(upload), 201},
	}
	var scenarios []webtest.Scenario[*appEnv]
	for _, tc := range tests {
		s := webtest.Scenario[*appEnv]{Name: tc.name, Method: tc.method, Path: tc.path, ContentType: tc.ctype, Body: tc.body,
			Status: tc.status}
		tc.as.sign(&s)
		if tc.ctype == "" {
			s.Header = map[string]string{"Content-Type": ""} // the body goes without one
		}
		if tc.status == 415 { // the JSON error
			s.Want = []string{`"message":"Unsupported Media Type"`}
		}
		scenarios = append(scenarios, s)
	}
	webtest.Run(t, appWorld(web.Options{}), scenarios)
}
