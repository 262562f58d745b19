package api_test

import (
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/app/throttle"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"golang.org/x/crypto/bcrypt"
)

// env is one scenario's world (webtest.World: a fresh bbolt store, the
// core on it, the Fiber app, the fixture's ids by name: "admin", "d1", ...).
type env struct{ *webtest.World }

// scenario is one API call on a fresh fixture and what must come of it.
type scenario = webtest.Scenario[*env]

// run runs scenarios, each on a fresh fixture.
var run = webtest.Runner(newEnv)

// logins are the fixture's credentials by caller name. A named caller
// signs in with HTTP Basic unless its scenario says otherwise.
var logins = map[string]webtest.Credentials{
	"admin":    {Email: "admin@example.com", Password: "admin-secret"},
	"manager1": {Email: "manager1@example.com", Password: "manager1-secret"},
	"manager2": {Email: "manager2@example.com", Password: "manager2-secret"},
	"user1":    {Email: "user1@example.com", Password: "user1-secret"},
	"user2":    {Email: "user2@example.com", Password: "user2-secret"},
	"limited":  {Email: "limited@example.com", Password: "limited-secret"},
	"intruder": {Email: "user1@example.com", Password: "wrong"},
}

// secrets must appear in no response: no password field, no plain
// password of the fixture, no bcrypt hash.
var secrets = []string{`"password"`, `"passwordHash"`, "$2a$", "-secret"}

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
func newEnv(t testing.TB) *env { return newEnvWith(t, nil) }

// newEnvWith is newEnv with more core options.
func newEnvWith(t testing.TB, more func(*app.Options)) *env {
	t.Helper()
	db := webtest.OpenStore(t)
	opts := app.Options{
		Version:    "test",
		BcryptCost: bcrypt.MinCost,
		Throttle:   throttle.Options{MaxPerAccount: 3, MaxPerIP: 100, Window: time.Hour},
		// The fixture's positions come from the "test" protocol.
		CommandTypes: map[string][]string{"test": {"custom", "engineStop"}},
		Reports:      fleet.ReportOptions{MaxPeriod: 366 * 24 * time.Hour},
		// A disk of 100 GB with 40 GB usable.
		Space: ops.Options{Statfs: func() (uint64, uint64, error) { return 40e9, 100e9, nil }},
	}
	if more != nil {
		more(&opts)
	}
	core := app.New(db, opts)
	e := &env{webtest.NewWorld(db, core, web.New(core, web.Options{Logger: slog.New(slog.DiscardHandler)}))}
	e.Users, e.Auth, e.Never = logins, webtest.AuthBasic, secrets

	admin, _, err := core.Accounts.Bootstrap(logins["admin"].Email, logins["admin"].Password)
	must(t, err)
	e.IDs["admin"] = admin.ID
	e.user(t, admin, "manager1", func(u *model.User) { u.UserLimit = 1 })
	e.user(t, admin, "manager2", func(u *model.User) { u.UserLimit = 5 })
	e.user(t, admin, "limited", func(u *model.User) { u.DeviceLimit = 1 })
	e.user(t, e.caller(t, "manager1"), "user1", nil)
	e.user(t, e.caller(t, "manager2"), "user2", nil)

	create(t, e, "g1", core.Fleet.Groups, func(g *model.Group) { g.Name = "Fleet" })
	create(t, e, "d1", core.Fleet.Devices, func(d *model.Device) { d.Name, d.UniqueID = "Truck 1", "100000000000001" })
	create(t, e, "d2", core.Fleet.Devices, func(d *model.Device) { d.Name, d.UniqueID = "Truck 2", "100000000000002" })
	create(t, e, "d3", core.Fleet.Devices, func(d *model.Device) {
		d.Name, d.UniqueID, d.GroupID = "Van 3", "100000000000003", e.IDs["g1"]
	})
	create(t, e, "cmd1", core.Fleet.Commands, func(c *model.Command) { c.Description, c.Type = "Stop engine", "engineStop" })
	create(t, e, "cmd2", core.Fleet.Commands, func(c *model.Command) { c.Description, c.Type = "Resume engine", "engineResume" })
	create(t, e, "gf1", core.Fleet.Geofences, func(g *model.Geofence) { g.Name, g.Area = "Depot", "CIRCLE (0 0, 100)" })
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
	u, err := e.Core.Accounts.CreateUser(actor, func(u *model.User) error {
		u.Name, u.Email, u.Password = name, logins[name].Email, logins[name].Password
		if set != nil {
			set(u)
		}
		return nil
	})
	must(t, err)
	e.IDs[name] = u.ID
}

// caller is the stored fixture user name, as the core sees it.
func (e *env) caller(t testing.TB, name string) *model.User {
	t.Helper()
	u, err := e.Core.Accounts.User(model.System(), e.IDs[name])
	must(t, err)
	return u
}

// create adds a fixture object through the core as the system actor.
func create[T any, P interface {
	*T
	model.Entity
}](t testing.TB, e *env, name string, objs *fleet.Objects[T, P], set func(*T)) {
	t.Helper()
	v, err := objs.Create(model.System(), func(v *T) error { set(v); return nil })
	must(t, err)
	e.IDs[name] = P(v).GetID()
}

// link adds a permission between two fixture objects.
func (e *env) link(t testing.TB, ownerKind, owner, propKind, prop string) {
	t.Helper()
	must(t, e.Core.Fleet.Link(model.System(), model.Permission{
		OwnerKind: ownerKind, OwnerID: e.IDs[owner], PropKind: propKind, PropID: e.IDs[prop]}))
}

// position stores a fix for device at fixTime straight through the store,
// moving the device's positionId like the ingest does.
func (e *env) position(t testing.TB, name, device string, fixTime time.Time) {
	t.Helper()
	p := &model.Position{DeviceID: e.IDs[device], Protocol: "test", ServerTime: fixTime, DeviceTime: fixTime,
		FixTime: fixTime, Valid: true, Latitude: 52.5, Longitude: 13.4, Attributes: model.Attributes{}}
	must(t, e.DB.Update(func(tx model.Tx) error {
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
	e.IDs[name] = p.ID
}

func (e *env) event(t testing.TB, name, device string, at time.Time) {
	t.Helper()
	ev := &model.Event{Type: "ignitionOn", EventTime: at, DeviceID: e.IDs[device], Attributes: model.Attributes{}}
	must(t, e.DB.Update(func(tx model.Tx) error { return tx.AddEvent(ev) }))
	e.IDs[name] = ev.ID
}

// device reads a device straight from the store.
func (e *env) device(t testing.TB, name string) *model.Device {
	t.Helper()
	var d *model.Device
	must(t, e.DB.View(func(tx model.Tx) (err error) { d, err = tx.Devices().Get(e.IDs[name]); return err }))
	return d
}

// requestWithCookie sends a body-less request carrying cookie.
func (e *env) requestWithCookie(t testing.TB, cookie *http.Cookie, method, path string) *webtest.Response {
	t.Helper()
	req := e.Request(t, method, path, "", "")
	req.AddCookie(cookie)
	return e.Send(t, "", req)
}
