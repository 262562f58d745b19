package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestDrivers(t *testing.T) {
	withDriver := func(t *testing.T, e *env) {
		create(t, e, "dr1", e.core.Drivers, func(d *model.Driver) { d.Name, d.UniqueID = "Ann", "RFID-1" })
		e.link(t, "user", "user1", "driver", "dr1")
	}
	runScenarios(t, []scenario{
		{name: "create", as: "user1", method: "POST", path: "/api/drivers", body: `{"name":"Bob","uniqueId":"RFID-2"}`,
			status: 200, want: []string{`"name":"Bob"`, `"uniqueId":"RFID-2"`, `"attributes":{}`}},
		{name: "uniqueId required", as: "user1", method: "POST", path: "/api/drivers", body: `{"name":"Bob"}`, status: 400},
		{name: "duplicate uniqueId", as: "user2", prepare: withDriver, method: "POST", path: "/api/drivers",
			body: `{"name":"Eve","uniqueId":"RFID-1"}`, status: 400, want: []string{"already exists"}},
		{name: "linked user lists it", as: "user1", prepare: withDriver, method: "GET", path: "/api/drivers",
			status: 200, want: []string{`"id":{dr1}`}},
		{name: "other user cannot read it", as: "user2", prepare: withDriver, method: "GET", path: "/api/drivers/{dr1}", status: 404},
		{name: "rename keeps the uniqueId free for nobody else", as: "user1", prepare: withDriver, method: "PUT",
			path: "/api/drivers/{dr1}", body: `{"uniqueId":"RFID-9"}`, status: 200,
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				// The old uniqueId is free again, the new one taken.
				_, err := e.core.Drivers.Create(app.System(), func(d *model.Driver) error { d.Name, d.UniqueID = "X", "RFID-1"; return nil })
				must(t, err)
				if _, err := e.core.Drivers.Create(app.System(), func(d *model.Driver) error { d.Name, d.UniqueID = "Y", "RFID-9"; return nil }); err == nil {
					t.Fatal("RFID-9 accepted twice")
				}
			}},
		{name: "link to a device", as: "user1", prepare: withDriver, method: "POST", path: "/api/permissions",
			body: `{"deviceId":{d1},"driverId":{dr1}}`, status: 204},
		{name: "delete frees the uniqueId", as: "user1", prepare: withDriver, method: "DELETE", path: "/api/drivers/{dr1}", status: 204,
			check: func(t *testing.T, e *env, _ *webtest.Response) {
				_, err := e.core.Drivers.Create(app.System(), func(d *model.Driver) error { d.Name, d.UniqueID = "X", "RFID-1"; return nil })
				must(t, err)
			}},
	})
}
