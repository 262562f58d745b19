package api_test

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestDrivers(t *testing.T) {
	withDriver := func(t *testing.T, e *env) {
		create(t, e, "dr1", e.Core.Fleet.Drivers, func(d *model.Driver) { d.Name, d.UniqueID = "Ann", "RFID-1" })
		e.link(t, "user", "user1", "driver", "dr1")
	}
	run(t, []scenario{
		{Name: "create", As: "user1", Method: "POST", Path: "/api/drivers", Body: `{"name":"Bob","uniqueId":"RFID-2"}`,
			Status: 200, Want: []string{`"name":"Bob"`, `"uniqueId":"RFID-2"`, `"attributes":{}`}},
		{Name: "uniqueId required", As: "user1", Method: "POST", Path: "/api/drivers", Body: `{"name":"Bob"}`, Status: 400},
		{Name: "duplicate uniqueId", As: "user2", Before: withDriver, Method: "POST", Path: "/api/drivers",
			Body: `{"name":"Eve","uniqueId":"RFID-1"}`, Status: 400, Want: []string{"already exists"}},
		{Name: "linked user lists it", As: "user1", Before: withDriver, Method: "GET", Path: "/api/drivers",
			Status: 200, Want: []string{`"id":{dr1}`}},
		{Name: "other user cannot read it", As: "user2", Before: withDriver, Method: "GET", Path: "/api/drivers/{dr1}", Status: 404},
		{Name: "rename keeps the uniqueId free for nobody else", As: "user1", Before: withDriver, Method: "PUT",
			Path: "/api/drivers/{dr1}", Body: `{"uniqueId":"RFID-9"}`, Status: 200,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				// The old uniqueId is free again, the new one taken.
				_, err := e.Core.Fleet.Drivers.Create(model.System(), func(d *model.Driver) error { d.Name, d.UniqueID = "X", "RFID-1"; return nil })
				must(t, err)
				if _, err := e.Core.Fleet.Drivers.Create(model.System(), func(d *model.Driver) error { d.Name, d.UniqueID = "Y", "RFID-9"; return nil }); err == nil {
					t.Fatal("RFID-9 accepted twice")
				}
			}},
		{Name: "link to a device", As: "user1", Before: withDriver, Method: "POST", Path: "/api/permissions",
			Body: `{"deviceId":{d1},"driverId":{dr1}}`, Status: 204},
		{Name: "delete frees the uniqueId", As: "user1", Before: withDriver, Method: "DELETE", Path: "/api/drivers/{dr1}", Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				_, err := e.Core.Fleet.Drivers.Create(model.System(), func(d *model.Driver) error { d.Name, d.UniqueID = "X", "RFID-1"; return nil })
				must(t, err)
			}},
	})
}
