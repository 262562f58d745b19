package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestServerSettings(t *testing.T) {
	runScenarios(t, []scenario{
		{name: "public read", method: "GET", path: "/api/server", status: 200,
			want: []string{`"version":"test"`, `"map":"osm"`, `"registration":false`, `"attributes":{}`}},
		{name: "admin update applies onto current settings", as: "admin", method: "PUT", path: "/api/server",
			body: `{"registration":true,"attributes":{"title":"Fleet"},"version":"forged"}`, status: 200,
			want: []string{`"registration":true`, `"map":"osm"`, `"title":"Fleet"`, `"version":"test"`},
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				s, err := e.core.Server()
				must(t, err)
				if !s.Registration || s.Attributes["title"] != "Fleet" || s.Map != "osm" {
					t.Errorf("stored settings %+v", s)
				}
			}},
		{name: "manager cannot update", as: "manager1", method: "PUT", path: "/api/server",
			body: `{"registration":true}`, status: 403},
		{name: "anonymous cannot update", method: "PUT", path: "/api/server", body: `{"registration":true}`, status: 401},
		{name: "health", method: "GET", path: "/api/health", status: 200, want: []string{`"status":"ok"`}},
		{name: "read-only server refuses user edits", as: "user1", method: "PUT", path: "/api/devices/{d1}",
			prepare: func(t *testing.T, e *env) {
				e.request(t, "admin", "PUT", "/api/server", "application/json", `{"readonly":true}`)
			},
			body: `{"name":"x"}`, status: 403, check: deviceNamed("d1", "Truck 1")},
	})
}
