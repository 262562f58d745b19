package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestServerSettings(t *testing.T) {
	run(t, []scenario{
		{Name: "public read", Method: "GET", Path: "/api/server", Status: 200,
			Want: []string{`"version":"test"`, `"map":"osm"`, `"registration":false`, `"attributes":{}`,
				`"emailEnabled":false`, `"textEnabled":false`, `"newServer":false`},
			Absent: []string{"storageSpace"}},
		{Name: "administrators see the disk, usable and total", As: "admin", Method: "GET", Path: "/api/server", Status: 200,
			Want: []string{`"storageSpace":[40000000000,100000000000]`}},
		{Name: "users do not", As: "user1", Method: "GET", Path: "/api/server", Status: 200, Absent: []string{"storageSpace"}},
		{Name: "admin update applies onto current settings", As: "admin", Method: "PUT", Path: "/api/server",
			Body: `{"registration":true,"attributes":{"title":"Fleet"},"version":"forged"}`, Status: 200,
			Want: []string{`"registration":true`, `"map":"osm"`, `"title":"Fleet"`, `"version":"test"`},
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				s, err := e.Core.Accounts.Server()
				must(t, err)
				if !s.Registration || s.Attributes["title"] != "Fleet" || s.Map != "osm" {
					t.Errorf("stored settings %+v", s)
				}
			}},
		{Name: "manager cannot update", As: "manager1", Method: "PUT", Path: "/api/server",
			Body: `{"registration":true}`, Status: 403},
		{Name: "anonymous cannot update", Method: "PUT", Path: "/api/server", Body: `{"registration":true}`, Status: 401},
		{Name: "time zones", As: "user1", Method: "GET", Path: "/api/server/timezones", Status: 200,
			Want: []string{`"Europe/Berlin"`, `"UTC"`, `"America/Argentina/Buenos_Aires"`}},
		{Name: "time zones need a login", Method: "GET", Path: "/api/server/timezones", Status: 401},
		{Name: "health", Method: "GET", Path: "/api/health", Status: 200, Want: []string{`"status":"ok"`}},
		{Name: "read-only server refuses user edits", As: "user1", Method: "PUT", Path: "/api/devices/{d1}",
			Before: func(t *testing.T, e *env) {
				e.Call(t, "admin", "PUT", "/api/server", `{"readonly":true}`)
			},
			Body: `{"name":"x"}`, Status: 403, After: deviceNamed("d1", "Truck 1")},
	})
}
