package dashboard_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/fleetd/fleetd/protocols/catalog"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
)

// env is one test's world (webtest.World: a fresh store with seeded data,
// the core and the whole HTTP app, API and dashboard, the seeded objects'
// ids by name) and the seeded objects themselves. Scenarios sign their
// caller in by a session made through the core and read pages.
type env struct {
	*webtest.World
	t       testing.TB
	users   map[string]*model.User
	devices map[string]*model.Device
	// now is the clock of the core, fixed so expiry states are stable.
	now time.Time
}

// scenario is one page request on a fresh seeded world.
type scenario = webtest.Scenario[*env]

// run runs scenarios, each on a freshly seeded world with the default
// options (or the scenario's own).
var run = webtest.Runner(func(t testing.TB) *env { return newEnv(t) })

const password = "secret-pass"

// newEnv seeds:
//
//	admin (administrator), manager (userLimit 5) managing driver1, driver1 (plain user)
//	truck1 with a position in Berlin, van2 without a position,
//	van3 (linked to manager) with a position in Hamburg; a report makes a
//	device online, so truck1 and van3 are online and van2 offline
//
// with changes the core's options.
func newEnv(t testing.TB, with ...func(*app.Options)) *env {
	t.Helper()
	db := webtest.OpenStore(t)
	now := time.Now().UTC().Truncate(time.Second)
	opts := app.Options{BcryptCost: 4, Now: func() time.Time { return now },
		Office: office.Options{FilesDir: filepath.Join(t.TempDir(), "files")}}
	for _, w := range with {
		w(&opts)
	}
	core := app.New(db, opts)
	ports := map[string]int{}
	for _, p := range catalog.ConfigDefaults().Protocols {
		ports[p.Name] = p.Port
	}
	webOpts := web.Options{Trackers: catalog.Listeners(ports), AutoPort: catalog.AutoPort}
	e := &env{World: webtest.NewWorld(db, core, web.New(core, webOpts)), t: t, users: map[string]*model.User{},
		devices: map[string]*model.Device{}, now: now}
	e.Auth, e.Pages = webtest.AuthSession, true
	e.users["admin"] = e.must(core.Accounts.CreateUser(model.System(), func(u *model.User) error {
		u.Name, u.Email, u.Password, u.Administrator = "Ada Admin", "admin@example.com", password, true
		return nil
	}))
	e.users["manager"] = e.must(core.Accounts.CreateUser(model.System(), func(u *model.User) error {
		u.Name, u.Email, u.Password, u.UserLimit = "Max Manager", "manager@example.com", password, 5
		return nil
	}))
	e.users["driver1"] = e.must(core.Accounts.CreateUser(e.users["manager"], func(u *model.User) error {
		u.Name, u.Email, u.Password = "Dora Driver", "driver1@example.com", password
		return nil
	}))
	e.addDevice("admin", "truck1", "Truck One", "356938035643809", &model.Position{Latitude: 52.52, Longitude: 13.405, Speed: 27})
	e.addDevice("admin", "van2", "Van Two", "356938035643810", nil)
	e.addDevice("manager", "van3", "Van Three", "356938035643811", &model.Position{Latitude: 53.55, Longitude: 9.99})
	for name, u := range e.users {
		e.IDs[name] = u.ID
	}
	for name, d := range e.devices {
		e.IDs[name] = d.ID
	}
	return e
}

func (e *env) must(u *model.User, err error) *model.User {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

func (e *env) addDevice(owner, key, name, uniqueID string, p *model.Position) {
	e.t.Helper()
	d, err := e.Core.Fleet.Devices.Create(e.users[owner], func(d *model.Device) error {
		d.Name, d.UniqueID = name, uniqueID
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if p != nil {
		p.DeviceID, p.Valid, p.Protocol = d.ID, true, "gt06"
		p.FixTime, p.DeviceTime = e.now.Add(-time.Minute), e.now.Add(-time.Minute)
		if err := e.Core.Ingest.Ingest(d.ID, []*model.Position{p}); err != nil {
			e.t.Fatal(err)
		}
	}
	e.devices[key] = d
}

// drive stores a 36-minute day for device key from 2024-01-02 08:00 UTC
// (key "bus4" is first added for the manager): parked 10 minutes, a
// 10-minute trip north at 20 km/h (about 3.3 km), parked again. attrs
// gives each minute's attributes (nil: none).
func (e *env) drive(t testing.TB, key string, attrs func(minute int) model.Attributes) {
	t.Helper()
	if key == "bus4" {
		e.addDevice("manager", "bus4", "Bus Four", "356938035643812", nil)
		e.IDs["bus4"] = e.devices["bus4"].ID
	}
	start := time.Date(2024, 1, 2, 8, 0, 0, 0, time.UTC)
	lat := 52.5
	var ps []*model.Position
	for m := 0; m <= 35; m++ {
		speed := 0.0
		if m > 10 && m <= 20 {
			lat, speed = lat+0.003, 10.8
		}
		at := start.Add(time.Duration(m) * time.Minute)
		a := model.Attributes{}
		if attrs != nil {
			a = attrs(m)
		}
		ps = append(ps, &model.Position{Protocol: "gt06", FixTime: at, DeviceTime: at, Valid: true,
			Latitude: lat, Longitude: 13.4, Speed: speed, Attributes: a})
	}
	if err := e.Core.Ingest.Ingest(e.IDs[key], ps); err != nil {
		t.Fatal(err)
	}
}

// client is a browser-like caller: its session cookie and CSRF token.
type client struct {
	e       *env
	session string
	csrf    string
}

// as signs in as a seeded user through the core and picks the CSRF token
// up from a page, as a browser would.
func (e *env) as(name string) *client {
	e.t.Helper()
	c := &client{e: e, session: e.Session(e.t, name).Value}
	res := c.get("/dashboard/fleet")
	c.csrf = csrfToken(res.Body)
	if c.csrf == "" {
		e.t.Fatalf("no CSRF token on the fleet page (%d): %.300s", res.Status, res.Body)
	}
	return c
}

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// csrfToken is the token of the first form in page ("" when none).
func csrfToken(page string) string {
	if m := csrfField.FindStringSubmatch(page); m != nil {
		return m[1]
	}
	return ""
}

func (c *client) do(req *http.Request) *webtest.Response {
	c.e.t.Helper()
	if c.session != "" {
		req.AddCookie(&http.Cookie{Name: httpx.SessionCookie, Value: c.session})
	}
	return c.e.Send(c.e.t, "", req)
}

func (c *client) get(path string, headers ...string) *webtest.Response {
	req := c.e.Request(c.e.t, "GET", path, "", "")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return c.do(req)
}

// post sends a form with the client's CSRF token (unless form sets _csrf).
func (c *client) post(path string, form url.Values) *webtest.Response {
	if form == nil {
		form = url.Values{}
	}
	if _, set := form["_csrf"]; !set {
		form.Set("_csrf", c.csrf)
	}
	return c.do(c.e.Request(c.e.t, "POST", path, fiber.MIMEApplicationForm, form.Encode()))
}
