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
		out = append(out, scenario{Name: path + " " + bad.query, As: "admin", Method: "GET", Path: path + "?" + bad.query,
			Status: 400, Want: []string{`"message":"Invalid request"`, bad.param + " must be a whole number from 0"}})
	}
	return out
}

func TestListDevices(t *testing.T) {
	// d2 gets the fields only a keyword on phone, model or contact finds.
	details := func(t *testing.T, e *env) {
		_, err := e.Core.Fleet.Devices.Update(model.System(), e.IDs["d2"], func(d *model.Device) error {
			d.Phone, d.Model, d.Contact = "+49 170 555", "GT06N", "Alice Smith"
			return nil
		})
		must(t, err)
	}
	all := []string{"Truck 1", "Truck 2", "Van 3"}
	scenarios := []scenario{
		{Name: "no limit returns everything", As: "admin", Method: "GET", Path: "/api/devices", Status: 200,
			After: listed("name", 3, all...)},
		{Name: "limit 0 returns everything", As: "admin", Method: "GET", Path: "/api/devices?limit=0", Status: 200,
			After: listed("name", 3, all...)},
		{Name: "first page", As: "admin", Method: "GET", Path: "/api/devices?limit=2", Status: 200,
			After: listed("name", 3, "Truck 1", "Truck 2")},
		{Name: "second page", As: "admin", Method: "GET", Path: "/api/devices?limit=2&offset=2", Status: 200,
			After: listed("name", 3, "Van 3")},
		{Name: "past the end", As: "admin", Method: "GET", Path: "/api/devices?limit=2&offset=3", Status: 200,
			After: listed("name", 3)},
		{Name: "offset without limit is ignored, as in Traccar", As: "admin", Method: "GET", Path: "/api/devices?offset=2",
			Status: 200, After: listed("name", 3, all...)},
		{Name: "keyword on name ignores case", As: "admin", Method: "GET", Path: "/api/devices?keyword=tRUCK", Status: 200,
			After: listed("name", 2, "Truck 1", "Truck 2")},
		{Name: "keyword and paging", As: "admin", Method: "GET", Path: "/api/devices?keyword=truck&limit=1&offset=1",
			Status: 200, After: listed("name", 2, "Truck 2")},
		{Name: "keyword on uniqueId", As: "admin", Method: "GET", Path: "/api/devices?keyword=0003", Status: 200,
			After: listed("name", 1, "Van 3")},
		{Name: "keyword on phone", As: "admin", Before: details, Method: "GET", Path: "/api/devices?keyword=%2B49%20170",
			Status: 200, After: listed("name", 1, "Truck 2")},
		{Name: "keyword on model", As: "admin", Before: details, Method: "GET", Path: "/api/devices?keyword=gt06",
			Status: 200, After: listed("name", 1, "Truck 2")},
		{Name: "keyword on contact", As: "admin", Before: details, Method: "GET", Path: "/api/devices?keyword=SMITH",
			Status: 200, After: listed("name", 1, "Truck 2")},
		{Name: "keyword matching nothing", As: "admin", Method: "GET", Path: "/api/devices?keyword=bus", Status: 200,
			After: listed("name", 0)},
		{Name: "keyword does not search category", As: "admin", Method: "GET", Path: "/api/devices?keyword=offline",
			Status: 200, After: listed("name", 0)},
		{Name: "keyword within what the user sees", As: "user1", Method: "GET", Path: "/api/devices?keyword=truck",
			Status: 200, After: listed("name", 1, "Truck 1")},
		{Name: "paging a manager's all", As: "manager2", Method: "GET", Path: "/api/devices?all=true&limit=1",
			Status: 200, After: listed("name", 1, "Van 3")},
		{Name: "paging another user's devices", As: "admin", Method: "GET", Path: "/api/devices?userId={user1}&limit=5&keyword=1",
			Status: 200, After: listed("name", 1, "Truck 1")},

		// The id and uniqueId filters go through the store's key and index.
		{Name: "uniqueId", As: "admin", Method: "GET", Path: "/api/devices?uniqueId=100000000000002", Status: 200,
			After: listed("name", 1, "Truck 2")},
		{Name: "unknown uniqueId", As: "admin", Method: "GET", Path: "/api/devices?uniqueId=999", Status: 200,
			After: listed("name", 0)},
		{Name: "several uniqueIds answer in id order", As: "admin", Method: "GET",
			Path: "/api/devices?uniqueId=100000000000003&uniqueId=100000000000001", Status: 200,
			After: listed("name", 2, "Truck 1", "Van 3")},
		{Name: "id and uniqueId of one device answer it once", As: "admin", Method: "GET",
			Path: "/api/devices?id={d2}&uniqueId=100000000000002&id={d2}", Status: 200, After: listed("name", 1, "Truck 2")},
		{Name: "unknown id", As: "admin", Method: "GET", Path: "/api/devices?id=999999", Status: 200,
			After: listed("name", 0)},
		{Name: "id the user may not see", As: "user1", Method: "GET", Path: "/api/devices?id={d2}&id={d1}", Status: 200,
			After: listed("name", 1, "Truck 1")},
		{Name: "uniqueId reached through a group", As: "user2", Method: "GET", Path: "/api/devices?uniqueId=100000000000003",
			Status: 200, After: listed("name", 1, "Van 3")},
		{Name: "uniqueId and another user's devices", As: "admin", Method: "GET",
			Path: "/api/devices?userId={user1}&uniqueId=100000000000002", Status: 200, After: listed("name", 0)},
		{Name: "ids with keyword and paging", As: "admin", Method: "GET",
			Path: "/api/devices?id={d1}&id={d2}&id={d3}&keyword=truck&limit=1&offset=1", Status: 200, After: listed("name", 2, "Truck 2")},
	}
	run(t, append(scenarios, badValues("/api/devices")...))
}

func TestListGroups(t *testing.T) {
	more := func(t *testing.T, e *env) {
		create(t, e, "g2", e.Core.Fleet.Groups, func(g *model.Group) { g.Name = "Trailers" })
		create(t, e, "g3", e.Core.Fleet.Groups, func(g *model.Group) { g.Name = "Fleet spares"; g.GroupID = e.IDs["g1"] })
	}
	scenarios := []scenario{
		{Name: "everything", As: "admin", Before: more, Method: "GET", Path: "/api/groups", Status: 200,
			After: listed("name", 3, "Fleet", "Trailers", "Fleet spares")},
		{Name: "page", As: "admin", Before: more, Method: "GET", Path: "/api/groups?limit=1&offset=1", Status: 200,
			After: listed("name", 3, "Trailers")},
		{Name: "keyword", As: "admin", Before: more, Method: "GET", Path: "/api/groups?keyword=FLEET", Status: 200,
			After: listed("name", 2, "Fleet", "Fleet spares")},
		{Name: "keyword through the group tree", As: "user2", Before: more, Method: "GET", Path: "/api/groups?keyword=spare",
			Status: 200, After: listed("name", 1, "Fleet spares")},
		{Name: "keyword outside what the user sees", As: "user2", Before: more, Method: "GET", Path: "/api/groups?keyword=trailer",
			Status: 200, After: listed("name", 0)},
	}
	run(t, append(scenarios, badValues("/api/groups")...))
}

func TestListCommands(t *testing.T) {
	scenarios := []scenario{
		{Name: "everything", As: "admin", Method: "GET", Path: "/api/commands", Status: 200,
			After: listed("description", 2, "Stop engine", "Resume engine")},
		{Name: "page", As: "admin", Method: "GET", Path: "/api/commands?limit=1", Status: 200,
			After: listed("description", 2, "Stop engine")},
		{Name: "keyword on description", As: "admin", Method: "GET", Path: "/api/commands?keyword=resume", Status: 200,
			After: listed("description", 1, "Resume engine")},
		{Name: "keyword does not search type", As: "admin", Method: "GET", Path: "/api/commands?keyword=engineStop", Status: 200,
			After: listed("description", 0)},
		{Name: "linked to a device, paged", As: "admin", Method: "GET", Path: "/api/commands?deviceId={d1}&limit=1&keyword=ENGINE",
			Status: 200, After: listed("description", 1, "Stop engine")},
		{Name: "keyword within what the user sees", As: "user1", Method: "GET", Path: "/api/commands?keyword=engine",
			Status: 200, After: listed("description", 1, "Stop engine")},
	}
	run(t, append(scenarios, badValues("/api/commands")...))
}

func TestListGeofences(t *testing.T) {
	more := func(t *testing.T, e *env) {
		create(t, e, "gf2", e.Core.Fleet.Geofences, func(g *model.Geofence) { g.Name, g.Area = "Yard", "CIRCLE (1 1, 50)" })
		create(t, e, "gf3", e.Core.Fleet.Geofences, func(g *model.Geofence) {
			g.Name, g.Description, g.Area = "North depot", "yard of the north", "CIRCLE (2 2, 50)"
		})
	}
	scenarios := []scenario{
		{Name: "everything", As: "admin", Before: more, Method: "GET", Path: "/api/geofences", Status: 200,
			After: listed("name", 3, "Depot", "Yard", "North depot")},
		{Name: "page", As: "admin", Before: more, Method: "GET", Path: "/api/geofences?limit=2&offset=1", Status: 200,
			After: listed("name", 3, "Yard", "North depot")},
		{Name: "keyword on name only", As: "admin", Before: more, Method: "GET", Path: "/api/geofences?keyword=yard", Status: 200,
			After: listed("name", 1, "Yard")},
		{Name: "keyword", As: "admin", Before: more, Method: "GET", Path: "/api/geofences?keyword=DEPOT", Status: 200,
			After: listed("name", 2, "Depot", "North depot")},
		{Name: "keyword within what the user sees", As: "user1", Before: more, Method: "GET", Path: "/api/geofences?keyword=depot",
			Status: 200, After: listed("name", 1, "Depot")},
	}
	run(t, append(scenarios, badValues("/api/geofences")...))
}

func TestListDrivers(t *testing.T) {
	drivers := func(t *testing.T, e *env) {
		for _, d := range [][3]string{{"dr1", "Anna", "RFID-1"}, {"dr2", "Ben", "RFID-2"}, {"dr3", "Carl", "TAG-3"}} {
			create(t, e, d[0], e.Core.Fleet.Drivers, func(v *model.Driver) { v.Name, v.UniqueID = d[1], d[2] })
		}
		e.link(t, "user", "user1", "driver", "dr2")
	}
	scenarios := []scenario{
		{Name: "everything", As: "admin", Before: drivers, Method: "GET", Path: "/api/drivers", Status: 200,
			After: listed("name", 3, "Anna", "Ben", "Carl")},
		{Name: "page", As: "admin", Before: drivers, Method: "GET", Path: "/api/drivers?limit=2", Status: 200,
			After: listed("name", 3, "Anna", "Ben")},
		{Name: "keyword on uniqueId", As: "admin", Before: drivers, Method: "GET", Path: "/api/drivers?keyword=rfid", Status: 200,
			After: listed("name", 2, "Anna", "Ben")},
		{Name: "keyword on name", As: "admin", Before: drivers, Method: "GET", Path: "/api/drivers?keyword=CARL", Status: 200,
			After: listed("name", 1, "Carl")},
		{Name: "keyword within what the user sees", As: "user1", Before: drivers, Method: "GET", Path: "/api/drivers?keyword=rfid",
			Status: 200, After: listed("name", 1, "Ben")},
	}
	run(t, append(scenarios, badValues("/api/drivers")...))
}

func TestListComputedAttributes(t *testing.T) {
	attributes := func(t *testing.T, e *env) {
		for _, a := range [][2]string{{"ca1", "Fuel level"}, {"ca2", "Odometer"}, {"ca3", "Fuel used"}} {
			create(t, e, a[0], e.Core.Fleet.ComputedAttributes, func(v *model.ComputedAttribute) {
				v.Description, v.Attribute, v.Expression, v.Type = a[1], "x"+a[0], "speed * 2", "number"
			})
		}
	}
	scenarios := []scenario{
		{Name: "everything", As: "admin", Before: attributes, Method: "GET", Path: "/api/attributes/computed", Status: 200,
			After: listed("description", 3, "Fuel level", "Odometer", "Fuel used")},
		{Name: "page", As: "admin", Before: attributes, Method: "GET", Path: "/api/attributes/computed?limit=1&offset=2",
			Status: 200, After: listed("description", 3, "Fuel used")},
		{Name: "keyword on description", As: "admin", Before: attributes, Method: "GET", Path: "/api/attributes/computed?keyword=fuel",
			Status: 200, After: listed("description", 2, "Fuel level", "Fuel used")},
		{Name: "keyword does not search the attribute", As: "admin", Before: attributes, Method: "GET",
			Path: "/api/attributes/computed?keyword=xca", Status: 200, After: listed("description", 0)},
	}
	run(t, append(scenarios, badValues("/api/attributes/computed")...))
}

func TestListUsers(t *testing.T) {
	everyone := []string{"Administrator", "manager1", "manager2", "limited", "user1", "user2"}
	scenarios := []scenario{
		{Name: "everything", As: "admin", Method: "GET", Path: "/api/users", Status: 200,
			After: listed("name", 6, everyone...)},
		{Name: "page", As: "admin", Method: "GET", Path: "/api/users?limit=2&offset=1", Status: 200,
			After: listed("name", 6, "manager1", "manager2")},
		{Name: "keyword on name", As: "admin", Method: "GET", Path: "/api/users?keyword=MANAGER", Status: 200,
			After: listed("name", 2, "manager1", "manager2")},
		{Name: "keyword on email", As: "admin", Method: "GET", Path: "/api/users?keyword=%40example.COM&limit=1", Status: 200,
			After: listed("name", 6, "Administrator")},
		{Name: "keyword does not search phone", As: "admin", Method: "GET", Path: "/api/users?keyword=%2B49",
			Before: func(t *testing.T, e *env) {
				_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["user1"], func(u *model.User) error { u.Phone = "+49 170 1"; return nil })
				must(t, err)
			}, Status: 200, After: listed("name", 0)},
		{Name: "a manager's users", As: "manager2", Method: "GET", Path: "/api/users?keyword=user", Status: 200,
			After: listed("name", 1, "user2")},
		{Name: "another manager's users, paged", As: "admin", Method: "GET", Path: "/api/users?userId={manager1}&limit=1",
			Status: 200, After: listed("name", 1, "user1")},
		{Name: "a plain user lists nobody", As: "user1", Method: "GET", Path: "/api/users?limit=5", Status: 200,
			After: listed("name", 0)},
	}
	run(t, append(scenarios, badValues("/api/users")...))
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
	core := app.New(noScanStore{e.DB}, app.Options{Version: "test", BcryptCost: bcrypt.MinCost})
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
		req := e.Request(t, fiber.MethodGet, c.path, "", "")
		e.Sign(t, req, c.as, webtest.AuthBasic)
		r := webtest.Do(t, f, req)
		if r.Status != c.status {
			t.Errorf("%s %s: %d %s", c.as, c.path, r.Status, r.Body)
		}
		webtest.Contains(t, c.path, r.Body, c.want)
	}
}
