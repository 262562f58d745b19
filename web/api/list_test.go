package api_test

import (
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"
)

// listed checks a list answer: the items' field values in order and the
// number of matches before paging in X-Total-Count.
func listed(field string, total int, want ...string) func(*testing.T, *env, *webtest.Response) {
	return func(t *testing.T, _ *env, r *webtest.Response) {
		t.Helper()
		var items []map[string]any
		r.Decode(t, &items)
		got := []string{}
		for _, item := range items {
			s, _ := item[field].(string)
			got = append(got, s)
		}
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", field, got, want)
		}
		if h := r.Header.Get("X-Total-Count"); h != strconv.Itoa(total) {
			t.Errorf("X-Total-Count %q, want %d", h, total)
		}
	}
}

// badValues are the scenarios every paged list refuses with 400.
func badValues(path string) []scenario {
	var out []scenario
	for _, bad := range []struct{ query, param string }{
		{"limit=-1", "limit"}, {"limit=abc", "limit"}, {"limit=1.5", "limit"}, {"limit=99999999999999999999", "limit"},
		{"offset=-2", "offset"}, {"limit=2&offset=x", "offset"},
	} {
		out = append(out, scenario{name: path + " " + bad.query, as: "admin", method: "GET", path: path + "?" + bad.query,
			status: 400, want: []string{`"message":"Invalid request"`, bad.param + " must be a whole number from 0"}})
	}
	return out
}

func TestListDevices(t *testing.T) {
	// d2 gets the fields only a keyword on phone, model or contact finds.
	details := func(t *testing.T, e *env) {
		_, err := e.core.Devices.Update(app.System(), e.ids["d2"], func(d *model.Device) error {
			d.Phone, d.Model, d.Contact = "+49 170 555", "GT06N", "Alice Smith"
			return nil
		})
		must(t, err)
	}
	all := []string{"Truck 1", "Truck 2", "Van 3"}
	scenarios := []scenario{
		{name: "no limit returns everything", as: "admin", method: "GET", path: "/api/devices", status: 200,
			check: listed("name", 3, all...)},
		{name: "limit 0 returns everything", as: "admin", method: "GET", path: "/api/devices?limit=0", status: 200,
			check: listed("name", 3, all...)},
		{name: "first page", as: "admin", method: "GET", path: "/api/devices?limit=2", status: 200,
			check: listed("name", 3, "Truck 1", "Truck 2")},
		{name: "second page", as: "admin", method: "GET", path: "/api/devices?limit=2&offset=2", status: 200,
			check: listed("name", 3, "Van 3")},
		{name: "past the end", as: "admin", method: "GET", path: "/api/devices?limit=2&offset=3", status: 200,
			check: listed("name", 3)},
		{name: "offset without limit is ignored, as in Traccar", as: "admin", method: "GET", path: "/api/devices?offset=2",
			status: 200, check: listed("name", 3, all...)},
		{name: "keyword on name ignores case", as: "admin", method: "GET", path: "/api/devices?keyword=tRUCK", status: 200,
			check: listed("name", 2, "Truck 1", "Truck 2")},
		{name: "keyword and paging", as: "admin", method: "GET", path: "/api/devices?keyword=truck&limit=1&offset=1",
			status: 200, check: listed("name", 2, "Truck 2")},
		{name: "keyword on uniqueId", as: "admin", method: "GET", path: "/api/devices?keyword=0003", status: 200,
			check: listed("name", 1, "Van 3")},
		{name: "keyword on phone", as: "admin", prepare: details, method: "GET", path: "/api/devices?keyword=%2B49%20170",
			status: 200, check: listed("name", 1, "Truck 2")},
		{name: "keyword on model", as: "admin", prepare: details, method: "GET", path: "/api/devices?keyword=gt06",
			status: 200, check: listed("name", 1, "Truck 2")},
		{name: "keyword on contact", as: "admin", prepare: details, method: "GET", path: "/api/devices?keyword=SMITH",
			status: 200, check: listed("name", 1, "Truck 2")},
		{name: "keyword matching nothing", as: "admin", method: "GET", path: "/api/devices?keyword=bus", status: 200,
			check: listed("name", 0)},
		{name: "keyword does not search category", as: "admin", method: "GET", path: "/api/devices?keyword=offline",
			status: 200, check: listed("name", 0)},
		{name: "keyword within what the user sees", as: "user1", method: "GET", path: "/api/devices?keyword=truck",
			status: 200, check: listed("name", 1, "Truck 1")},
		{name: "paging a manager's all", as: "manager2", method: "GET", path: "/api/devices?all=true&limit=1",
			status: 200, check: listed("name", 1, "Van 3")},
		{name: "paging another user's devices", as: "admin", method: "GET", path: "/api/devices?userId={user1}&limit=5&keyword=1",
			status: 200, check: listed("name", 1, "Truck 1")},

		// The id and uniqueId filters go through the store's key and index.
		{name: "uniqueId", as: "admin", method: "GET", path: "/api/devices?uniqueId=100000000000002", status: 200,
			check: listed("name", 1, "Truck 2")},
		{name: "unknown uniqueId", as: "admin", method: "GET", path: "/api/devices?uniqueId=999", status: 200,
			check: listed("name", 0)},
		{name: "several uniqueIds answer in id order", as: "admin", method: "GET",
			path: "/api/devices?uniqueId=100000000000003&uniqueId=100000000000001", status: 200,
			check: listed("name", 2, "Truck 1", "Van 3")},
		{name: "id and uniqueId of one device answer it once", as: "admin", method: "GET",
			path: "/api/devices?id={d2}&uniqueId=100000000000002&id={d2}", status: 200, check: listed("name", 1, "Truck 2")},
		{name: "unknown id", as: "admin", method: "GET", path: "/api/devices?id=999999", status: 200,
			check: listed("name", 0)},
		{name: "id the user may not see", as: "user1", method: "GET", path: "/api/devices?id={d2}&id={d1}", status: 200,
			check: listed("name", 1, "Truck 1")},
		{name: "uniqueId reached through a group", as: "user2", method: "GET", path: "/api/devices?uniqueId=100000000000003",
			status: 200, check: listed("name", 1, "Van 3")},
		{name: "uniqueId and another user's devices", as: "admin", method: "GET",
			path: "/api/devices?userId={user1}&uniqueId=100000000000002", status: 200, check: listed("name", 0)},
		{name: "ids with keyword and paging", as: "admin", method: "GET",
			path: "/api/devices?id={d1}&id={d2}&id={d3}&keyword=truck&limit=1&offset=1", status: 200, check: listed("name", 2, "Truck 2")},
	}
	runScenarios(t, append(scenarios, badValues("/api/devices")...))
}

func TestListGroups(t *testing.T) {
	more := func(t *testing.T, e *env) {
		create(t, e, "g2", e.core.Groups, func(g *model.Group) { g.Name = "Trailers" })
		create(t, e, "g3", e.core.Groups, func(g *model.Group) { g.Name = "Fleet spares"; g.GroupID = e.ids["g1"] })
	}
	scenarios := []scenario{
		{name: "everything", as: "admin", prepare: more, method: "GET", path: "/api/groups", status: 200,
			check: listed("name", 3, "Fleet", "Trailers", "Fleet spares")},
		{name: "page", as: "admin", prepare: more, method: "GET", path: "/api/groups?limit=1&offset=1", status: 200,
			check: listed("name", 3, "Trailers")},
		{name: "keyword", as: "admin", prepare: more, method: "GET", path: "/api/groups?keyword=FLEET", status: 200,
			check: listed("name", 2, "Fleet", "Fleet spares")},
		{name: "keyword through the group tree", as: "user2", prepare: more, method: "GET", path: "/api/groups?keyword=spare",
			status: 200, check: listed("name", 1, "Fleet spares")},
		{name: "keyword outside what the user sees", as: "user2", prepare: more, method: "GET", path: "/api/groups?keyword=trailer",
			status: 200, check: listed("name", 0)},
	}
	runScenarios(t, append(scenarios, badValues("/api/groups")...))
}

func TestListCommands(t *testing.T) {
	scenarios := []scenario{
		{name: "everything", as: "admin", method: "GET", path: "/api/commands", status: 200,
			check: listed("description", 2, "Stop engine", "Resume engine")},
		{name: "page", as: "admin", method: "GET", path: "/api/commands?limit=1", status: 200,
			check: listed("description", 2, "Stop engine")},
		{name: "keyword on description", as: "admin", method: "GET", path: "/api/commands?keyword=resume", status: 200,
			check: listed("description", 1, "Resume engine")},
		{name: "keyword does not search type", as: "admin", method: "GET", path: "/api/commands?keyword=engineStop", status: 200,
			check: listed("description", 0)},
		{name: "linked to a device, paged", as: "admin", method: "GET", path: "/api/commands?deviceId={d1}&limit=1&keyword=ENGINE",
			status: 200, check: listed("description", 1, "Stop engine")},
		{name: "keyword within what the user sees", as: "user1", method: "GET", path: "/api/commands?keyword=engine",
			status: 200, check: listed("description", 1, "Stop engine")},
	}
	runScenarios(t, append(scenarios, badValues("/api/commands")...))
}

func TestListGeofences(t *testing.T) {
	more := func(t *testing.T, e *env) {
		create(t, e, "gf2", e.core.Geofences, func(g *model.Geofence) { g.Name, g.Area = "Yard", "CIRCLE (1 1, 50)" })
		create(t, e, "gf3", e.core.Geofences, func(g *model.Geofence) {
			g.Name, g.Description, g.Area = "North depot", "yard of the north", "CIRCLE (2 2, 50)"
		})
	}
	scenarios := []scenario{
		{name: "everything", as: "admin", prepare: more, method: "GET", path: "/api/geofences", status: 200,
			check: listed("name", 3, "Depot", "Yard", "North depot")},
		{name: "page", as: "admin", prepare: more, method: "GET", path: "/api/geofences?limit=2&offset=1", status: 200,
			check: listed("name", 3, "Yard", "North depot")},
		{name: "keyword on name only", as: "admin", prepare: more, method: "GET", path: "/api/geofences?keyword=yard", status: 200,
			check: listed("name", 1, "Yard")},
		{name: "keyword", as: "admin", prepare: more, method: "GET", path: "/api/geofences?keyword=DEPOT", status: 200,
			check: listed("name", 2, "Depot", "North depot")},
		{name: "keyword within what the user sees", as: "user1", prepare: more, method: "GET", path: "/api/geofences?keyword=depot",
			status: 200, check: listed("name", 1, "Depot")},
	}
	runScenarios(t, append(scenarios, badValues("/api/geofences")...))
}

func TestListDrivers(t *testing.T) {
	drivers := func(t *testing.T, e *env) {
		for _, d := range [][3]string{{"dr1", "Anna", "RFID-1"}, {"dr2", "Ben", "RFID-2"}, {"dr3", "Carl", "TAG-3"}} {
			create(t, e, d[0], e.core.Drivers, func(v *model.Driver) { v.Name, v.UniqueID = d[1], d[2] })
		}
		e.link(t, "user", "user1", "driver", "dr2")
	}
	scenarios := []scenario{
		{name: "everything", as: "admin", prepare: drivers, method: "GET", path: "/api/drivers", status: 200,
			check: listed("name", 3, "Anna", "Ben", "Carl")},
		{name: "page", as: "admin", prepare: drivers, method: "GET", path: "/api/drivers?limit=2", status: 200,
			check: listed("name", 3, "Anna", "Ben")},
		{name: "keyword on uniqueId", as: "admin", prepare: drivers, method: "GET", path: "/api/drivers?keyword=rfid", status: 200,
			check: listed("name", 2, "Anna", "Ben")},
		{name: "keyword on name", as: "admin", prepare: drivers, method: "GET", path: "/api/drivers?keyword=CARL", status: 200,
			check: listed("name", 1, "Carl")},
		{name: "keyword within what the user sees", as: "user1", prepare: drivers, method: "GET", path: "/api/drivers?keyword=rfid",
			status: 200, check: listed("name", 1, "Ben")},
	}
	runScenarios(t, append(scenarios, badValues("/api/drivers")...))
}

func TestListComputedAttributes(t *testing.T) {
	attributes := func(t *testing.T, e *env) {
		for _, a := range [][2]string{{"ca1", "Fuel level"}, {"ca2", "Odometer"}, {"ca3", "Fuel used"}} {
			create(t, e, a[0], e.core.ComputedAttributes, func(v *model.ComputedAttribute) {
				v.Description, v.Attribute, v.Expression, v.Type = a[1], "x"+a[0], "speed * 2", "number"
			})
		}
	}
	scenarios := []scenario{
		{name: "everything", as: "admin", prepare: attributes, method: "GET", path: "/api/attributes/computed", status: 200,
			check: listed("description", 3, "Fuel level", "Odometer", "Fuel used")},
		{name: "page", as: "admin", prepare: attributes, method: "GET", path: "/api/attributes/computed?limit=1&offset=2",
			status: 200, check: listed("description", 3, "Fuel used")},
		{name: "keyword on description", as: "admin", prepare: attributes, method: "GET", path: "/api/attributes/computed?keyword=fuel",
			status: 200, check: listed("description", 2, "Fuel level", "Fuel used")},
		{name: "keyword does not search the attribute", as: "admin", prepare: attributes, method: "GET",
			path: "/api/attributes/computed?keyword=xca", status: 200, check: listed("description", 0)},
	}
	runScenarios(t, append(scenarios, badValues("/api/attributes/computed")...))
}

func TestListUsers(t *testing.T) {
	everyone := []string{"Administrator", "manager1", "manager2", "limited", "user1", "user2"}
	scenarios := []scenario{
		{name: "everything", as: "admin", method: "GET", path: "/api/users", status: 200,
			check: listed("name", 6, everyone...)},
		{name: "page", as: "admin", method: "GET", path: "/api/users?limit=2&offset=1", status: 200,
			check: listed("name", 6, "manager1", "manager2")},
		{name: "keyword on name", as: "admin", method: "GET", path: "/api/users?keyword=MANAGER", status: 200,
			check: listed("name", 2, "manager1", "manager2")},
		{name: "keyword on email", as: "admin", method: "GET", path: "/api/users?keyword=%40example.COM&limit=1", status: 200,
			check: listed("name", 6, "Administrator")},
		{name: "keyword does not search phone", as: "admin", method: "GET", path: "/api/users?keyword=%2B49",
			prepare: func(t *testing.T, e *env) {
				_, err := e.core.UpdateUser(app.System(), e.ids["user1"], func(u *model.User) error { u.Phone = "+49 170 1"; return nil })
				must(t, err)
			}, status: 200, check: listed("name", 0)},
		{name: "a manager's users", as: "manager2", method: "GET", path: "/api/users?keyword=user", status: 200,
			check: listed("name", 1, "user2")},
		{name: "another manager's users, paged", as: "admin", method: "GET", path: "/api/users?userId={manager1}&limit=1",
			status: 200, check: listed("name", 1, "user1")},
		{name: "a plain user lists nobody", as: "user1", method: "GET", path: "/api/users?limit=5", status: 200,
			check: listed("name", 0)},
	}
	runScenarios(t, append(scenarios, badValues("/api/users")...))
}

// noScanStore fails any transaction that reads every device, so a request
// answered through it provably used the key and the uniqueId index.
type noScanStore struct{ model.Store }

type noScanTx struct{ model.Tx }

type noScanDevices struct{ model.Table[model.Device] }

var errScanned = errors.New("every device was read")

func (s noScanStore) View(fn func(model.Tx) error) error {
	return s.Store.View(func(tx model.Tx) error { return fn(noScanTx{tx}) })
}

func (tx noScanTx) Devices() model.Table[model.Device] { return noScanDevices{tx.Tx.Devices()} }

func (noScanDevices) List(func(*model.Device) bool) error { return errScanned }

func TestDeviceLookupUsesIndex(t *testing.T) {
	e := newEnv(t)
	core := app.New(noScanStore{e.db}, app.Options{Version: "test", BcryptCost: bcrypt.MinCost})
	f := web.New(core, web.Options{Logger: slog.New(slog.DiscardHandler)})
	for _, c := range []struct {
		as, path string
		status   int
		want     string
	}{
		{"admin", "/api/devices?uniqueId=100000000000002", 200, `"name":"Truck 2"`},
		{"admin", "/api/devices?id={d3}", 200, `"name":"Van 3"`},
		{"user1", "/api/devices?uniqueId=100000000000001", 200, `"name":"Truck 1"`},
		{"user1", "/api/devices?uniqueId=100000000000002", 200, `[]`},
		{"user1", "/api/devices", 200, `"name":"Truck 1"`}, // the linked ids only
		{"admin", "/api/devices", 500, ""},                 // the guard works: this one reads them all
	} {
		req := e.newRequest(t, fiber.MethodGet, c.path, "", "")
		req.SetBasicAuth(logins[c.as][0], logins[c.as][1])
		r := webtest.Do(t, f, req)
		if r.Status != c.status {
			t.Errorf("%s %s: %d %s", c.as, c.path, r.Status, r.Body)
		}
		webtest.Contains(t, c.path, r.Body, c.want)
	}
}
