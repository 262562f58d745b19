package api_test

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"
)

// env is one scenario's world: a fresh bbolt store, the core on it, the
// Fiber app, and the fixture's ids by name ("admin", "d1", ...).
type env struct {
	db   *storage.DB
	core *app.Core
	app  *fiber.App
	ids  map[string]int64
}

// logins are the fixture's credentials by caller name.
var logins = map[string][2]string{
	"admin":    {"admin@example.com", "admin-secret"},
	"manager1": {"manager1@example.com", "manager1-secret"},
	"manager2": {"manager2@example.com", "manager2-secret"},
	"user1":    {"user1@example.com", "user1-secret"},
	"user2":    {"user2@example.com", "user2-secret"},
	"limited":  {"limited@example.com", "limited-secret"},
	"intruder": {"user1@example.com", "wrong"},
}

// Fixture times: d1 reports at 10:00, 11:00 and 12:00 on 2024-01-01 UTC.
var (
	t10 = time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	t11 = t10.Add(time.Hour)
	t12 = t10.Add(2 * time.Hour)
)

// newEnv builds the fixture every scenario starts from:
//
//	admin                         administrator
//	manager1 (userLimit 1)        manages user1
//	manager2 (userLimit 5)        manages user2
//	limited  (deviceLimit 1)      linked to d2
//	d1 (positions p1..p3, event e1)  linked to user1; command cmd1 and geofence gf1 linked to d1
//	d2                            linked to limited
//	g1 -> d3 (position p4, event e3) g1 linked to user2
//	cmd1, gf1 linked to user1; cmd2 linked to nobody but admin
func newEnv(t testing.TB) *env {
	t.Helper()
	db := webtest.OpenStore(t)
	core := app.New(db, app.Options{
		Version:    "test",
		BcryptCost: bcrypt.MinCost,
		Throttle:   app.ThrottleOptions{MaxPerAccount: 3, MaxPerIP: 100, Window: time.Hour},
		// The fixture's positions come from the "test" protocol.
		CommandTypes: map[string][]string{"test": {"custom", "engineStop"}},
	})
	e := &env{db: db, core: core, ids: map[string]int64{}}
	e.app = web.New(core, web.Options{Logger: slog.New(slog.DiscardHandler)})

	admin, _, err := core.Bootstrap(logins["admin"][0], logins["admin"][1])
	must(t, err)
	e.ids["admin"] = admin.ID
	e.user(t, admin, "manager1", func(u *model.User) { u.UserLimit = 1 })
	e.user(t, admin, "manager2", func(u *model.User) { u.UserLimit = 5 })
	e.user(t, admin, "limited", func(u *model.User) { u.DeviceLimit = 1 })
	e.user(t, e.caller(t, "manager1"), "user1", nil)
	e.user(t, e.caller(t, "manager2"), "user2", nil)

	create(t, e, "g1", core.Groups, func(g *model.Group) { g.Name = "Fleet" })
	create(t, e, "d1", core.Devices, func(d *model.Device) { d.Name, d.UniqueID = "Truck 1", "100000000000001" })
	create(t, e, "d2", core.Devices, func(d *model.Device) { d.Name, d.UniqueID = "Truck 2", "100000000000002" })
	create(t, e, "d3", core.Devices, func(d *model.Device) {
		d.Name, d.UniqueID, d.GroupID = "Van 3", "100000000000003", e.ids["g1"]
	})
	create(t, e, "cmd1", core.Commands, func(c *model.Command) { c.Description, c.Type = "Stop engine", "engineStop" })
	create(t, e, "cmd2", core.Commands, func(c *model.Command) { c.Description, c.Type = "Resume engine", "engineResume" })
	create(t, e, "gf1", core.Geofences, func(g *model.Geofence) { g.Name, g.Area = "Depot", "CIRCLE (0 0, 100)" })
	e.link(t, "user", "user1", "device", "d1")
	e.link(t, "user", "limited", "device", "d2")
	e.link(t, "user", "user2", "group", "g1")
	e.link(t, "user", "user1", "command", "cmd1")
	e.link(t, "user", "user1", "geofence", "gf1")
	e.link(t, "device", "d1", "command", "cmd1")
	e.link(t, "device", "d1", "geofence", "gf1")

	e.position(t, "p1", "d1", t10)
	e.position(t, "p2", "d1", t11)
	e.position(t, "p3", "d1", t12)
	e.position(t, "p4", "d3", t10)
	e.event(t, "e1", "d1", t11)
	e.event(t, "e3", "d3", t10)
	return e
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// user creates the fixture user name (credentials from logins) as actor.
func (e *env) user(t testing.TB, actor *model.User, name string, set func(*model.User)) {
	t.Helper()
	u, err := e.core.CreateUser(actor, func(u *model.User) error {
		u.Name, u.Email, u.Password = name, logins[name][0], logins[name][1]
		if set != nil {
			set(u)
		}
		return nil
	})
	must(t, err)
	e.ids[name] = u.ID
}

// caller is the stored fixture user name, as the core sees it.
func (e *env) caller(t testing.TB, name string) *model.User {
	t.Helper()
	u, err := e.core.User(app.System(), e.ids[name])
	must(t, err)
	return u
}

// create adds a fixture object through the core as the system actor.
func create[T any, P interface {
	*T
	model.Entity
}](t testing.TB, e *env, name string, objs *app.Objects[T, P], set func(*T)) {
	t.Helper()
	v, err := objs.Create(app.System(), func(v *T) error { set(v); return nil })
	must(t, err)
	e.ids[name] = P(v).GetID()
}

// link adds a permission between two fixture objects.
func (e *env) link(t testing.TB, ownerKind, owner, propKind, prop string) {
	t.Helper()
	must(t, e.core.Link(app.System(), model.Permission{
		OwnerKind: ownerKind, OwnerID: e.ids[owner], PropKind: propKind, PropID: e.ids[prop]}))
}

// position stores a fix for device at fixTime straight through the store,
// moving the device's positionId like the ingest does.
func (e *env) position(t testing.TB, name, device string, fixTime time.Time) {
	t.Helper()
	p := &model.Position{DeviceID: e.ids[device], Protocol: "test", ServerTime: fixTime, DeviceTime: fixTime,
		FixTime: fixTime, Valid: true, Latitude: 52.5, Longitude: 13.4, Attributes: model.Attributes{}}
	must(t, e.db.Update(func(tx model.Tx) error {
		if err := tx.AddPosition(p); err != nil {
			return err
		}
		if latest, err := tx.LatestPosition(p.DeviceID); err != nil || latest.ID != p.ID {
			return err
		}
		d, err := tx.Devices().Get(p.DeviceID)
		if err != nil {
			return err
		}
		d.PositionID = p.ID
		return tx.Devices().Put(d)
	}))
	e.ids[name] = p.ID
}

func (e *env) event(t testing.TB, name, device string, at time.Time) {
	t.Helper()
	ev := &model.Event{Type: "ignitionOn", EventTime: at, DeviceID: e.ids[device], Attributes: model.Attributes{}}
	must(t, e.db.Update(func(tx model.Tx) error { return tx.AddEvent(ev) }))
	e.ids[name] = ev.ID
}

// device reads a device straight from the store.
func (e *env) device(t testing.TB, name string) *model.Device {
	t.Helper()
	var d *model.Device
	must(t, e.db.View(func(tx model.Tx) (err error) { d, err = tx.Devices().Get(e.ids[name]); return err }))
	return d
}

// expand replaces {name} with the fixture id of name.
func (e *env) expand(t testing.TB, s string) string {
	t.Helper()
	return webtest.Expand(t, e.ids, s)
}

// request sends one request through the Fiber app. as names the caller:
// "" anonymous, a logins key for HTTP Basic, or "<name>-cookie" for a
// session cookie obtained from POST /api/session first.
func (e *env) request(t testing.TB, as, method, path, contentType, body string) *webtest.Response {
	t.Helper()
	req := e.newRequest(t, method, path, contentType, body)
	if name, ok := strings.CutSuffix(as, "-cookie"); ok {
		req.AddCookie(e.login(t, name))
	} else if as != "" {
		cred, ok := logins[as]
		if !ok {
			t.Fatalf("unknown caller %q", as)
		}
		req.SetBasicAuth(cred[0], cred[1])
	}
	return e.do(t, req)
}

// requestWithCookie sends a body-less request carrying cookie.
func (e *env) requestWithCookie(t testing.TB, cookie *http.Cookie, method, path string) *webtest.Response {
	t.Helper()
	req := e.newRequest(t, method, path, "", "")
	req.AddCookie(cookie)
	return e.do(t, req)
}

// newRequest is a request with {name} expanded in path and body.
func (e *env) newRequest(t testing.TB, method, path, contentType, body string) *http.Request {
	t.Helper()
	return webtest.NewRequest(method, e.expand(t, path), contentType, e.expand(t, body))
}

func (e *env) do(t testing.TB, req *http.Request) *webtest.Response {
	t.Helper()
	return webtest.Do(t, e.app, req)
}

// login starts a session for the fixture user name and returns its cookie.
func (e *env) login(t testing.TB, name string) *http.Cookie {
	t.Helper()
	return webtest.Login(t, e.app, logins[name][0], logins[name][1])
}

// scenario is one API call and what must come of it (PocketBase's
// ApiScenario idea): run against a fresh fixture.
type scenario struct {
	name    string
	as      string // caller, see env.request
	method  string
	path    string // {name} expands to a fixture id
	body    string // JSON unless form is set; {name} expands too
	form    bool   // send body as application/x-www-form-urlencoded
	prepare func(t *testing.T, e *env)
	status  int
	want    []string // fragments the body must contain ({name} expands)
	absent  []string // fragments it must not contain
	check   func(t *testing.T, e *env, r *webtest.Response)
}

// secrets must appear in no response: no password field, no plain
// password of the fixture, no bcrypt hash.
var secrets = []string{`"password"`, `"passwordHash"`, "$2a$", "-secret"}

func runScenarios(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			e := newEnv(t)
			if s.prepare != nil {
				s.prepare(t, e)
			}
			contentType := ""
			switch {
			case s.form:
				contentType = fiber.MIMEApplicationForm
			case s.body != "":
				contentType = fiber.MIMEApplicationJSON
			}
			r := e.request(t, s.as, s.method, s.path, contentType, s.body)
			r.Check(t, s.method+" "+s.path, s.status, webtest.ExpandAll(t, e.ids, s.want), webtest.ExpandAll(t, e.ids, append(s.absent, secrets...)))
			if s.check != nil {
				s.check(t, e, r)
			}
		})
	}
}
