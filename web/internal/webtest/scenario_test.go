package webtest

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"
)

// testEnv is a package's fixture type as the scenarios see it.
type testEnv struct {
	*World
	logins int // POST /api/session calls that signed in
}

// testWorld has one user, ada, and an app that tells what it received:
// GET and POST /echo answer with the request's parts as JSON, POST /write
// stores a group, /page?status= answers an HTML page, and POST
// /api/session signs ada in with a cookie naming the login's number.
func testWorld(t testing.TB) *testEnv {
	db := OpenStore(t)
	core := app.New(db, app.Options{BcryptCost: bcrypt.MinCost})
	ada, err := core.Accounts.CreateUser(model.System(), func(u *model.User) error {
		u.Name, u.Email, u.Password = "Ada", "ada@example.com", "ada-secret"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f := fiber.New()
	e := &testEnv{World: NewWorld(db, core, f)}
	f.All("/echo", func(c *fiber.Ctx) error {
		return c.Status(c.QueryInt("status", 200)).JSON(map[string]string{"method": c.Method(), "path": c.OriginalURL(),
			"type": c.Get("Content-Type"), "body": string(c.Body()), "auth": c.Get("Authorization"),
			"cookie": c.Cookies(httpx.SessionCookie), "host": c.Hostname(), "x": c.Get("X-Test"), "message": "echo"})
	})
	f.Post("/write", func(c *fiber.Ctx) error {
		if _, err := core.Fleet.Groups.Create(model.System(), func(g *model.Group) error { g.Name = "g"; return nil }); err != nil {
			return err
		}
		return c.SendString("{}")
	})
	f.Get("/page", func(c *fiber.Ctx) error {
		return c.Status(c.QueryInt("status", 200)).Type("html").SendString("<p>page</p>")
	})
	f.Post("/api/session", func(c *fiber.Ctx) error {
		if c.FormValue("email") != "ada@example.com" || c.FormValue("password") != "ada-secret" {
			return c.Status(401).JSON(map[string]string{"message": "Unauthorized"})
		}
		e.logins++
		c.Cookie(&fiber.Cookie{Name: httpx.SessionCookie, Value: "login-" + strconv.Itoa(e.logins)})
		return c.SendString("{}")
	})
	e.IDs["ada"] = ada.ID
	e.Users["ada"] = Credentials{Email: "ada@example.com", Password: "ada-secret"}
	return e
}

// echoed is what /echo received.
type echoed struct{ Method, Path, Type, Body, Auth, Cookie, Host, X string }

func (r *Response) echoed(t testing.TB) echoed {
	t.Helper()
	var e echoed
	r.Decode(t, &e)
	return e
}

func basic(email, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(email+":"+password))
}

func TestScenarioRequest(t *testing.T) {
	type scenario = Scenario[*testEnv]
	var got echoed
	keep := func(t *testing.T, _ *testEnv, r *Response) { got = r.echoed(t) }
	cases := []struct {
		s    scenario
		want echoed
	}{
		{scenario{Method: "GET", Path: "/echo"}, echoed{Method: "GET", Path: "/echo", Host: "example.com"}},
		{scenario{Method: "POST", Path: "/echo?id={ada}", Body: `{"id":{ada}}`},
			echoed{Method: "POST", Type: "application/json", Body: `{"id":1}`, Path: "/echo?id=1", Host: "example.com"}},
		{scenario{Method: "POST", Path: "/echo", ContentType: fiber.MIMEApplicationForm, Body: "a=1"},
			echoed{Method: "POST", Type: fiber.MIMEApplicationForm, Body: "a=1", Path: "/echo", Host: "example.com"}},
		{scenario{Method: "GET", Path: "/echo", Header: map[string]string{"X-Test": "yes", "Host": "fleet.example"}},
			echoed{Method: "GET", Path: "/echo", Host: "fleet.example", X: "yes"}},
		{scenario{Method: "POST", Path: "/echo", Body: "{}", Header: map[string]string{"Content-Type": ""}},
			echoed{Method: "POST", Path: "/echo", Body: "{}", Host: "example.com"}},
		{scenario{Method: "GET", Path: "/echo", As: "ada", Auth: AuthBasic},
			echoed{Method: "GET", Path: "/echo", Host: "example.com", Auth: basic("ada@example.com", "ada-secret")}},
		{scenario{Method: "GET", Path: "/echo", As: "ada", Auth: AuthLogin},
			echoed{Method: "GET", Path: "/echo", Host: "example.com", Cookie: "login-1"}},
		// The token a Before hook obtains is a value for {name}.
		{scenario{Method: "PUT", Path: "/echo", Body: `{"token":"{token}"}`,
			Before: func(t *testing.T, e *testEnv) { e.Values["token"] = "t-42" }},
			echoed{Method: "PUT", Type: "application/json", Body: `{"token":"t-42"}`, Path: "/echo", Host: "example.com"}},
	}
	for _, tc := range cases {
		tc.s.Name, tc.s.Status, tc.s.After = tc.s.Method+" "+tc.s.Path, 200, keep
		got = echoed{}
		Run(t, testWorld, []scenario{tc.s})
		if got != tc.want {
			t.Errorf("%s: the app received %+v, want %+v", tc.s.Name, got, tc.want)
		}
	}
}

// A caller signs in the world's way unless the scenario says otherwise; a
// session cookie is made once per world and caller.
func TestScenarioCallers(t *testing.T) {
	for _, auth := range []Auth{AuthDefault, AuthBasic, AuthLogin, AuthSession} {
		t.Run(strconv.Itoa(int(auth)), func(t *testing.T) {
			e := testWorld(t)
			e.Auth = auth
			a, b := e.Call(t, "ada", "GET", "/echo", "").echoed(t), e.Call(t, "ada", "GET", "/echo", "").echoed(t)
			if a != b {
				t.Errorf("two calls signed in differently: %+v, %+v", a, b)
			}
			switch auth {
			case AuthBasic:
				if a.Auth != basic("ada@example.com", "ada-secret") || a.Cookie != "" {
					t.Errorf("Basic: %+v", a)
				}
			case AuthLogin:
				if a.Cookie != "login-1" || e.logins != 1 {
					t.Errorf("Login: %+v after %d logins", a, e.logins)
				}
			default: // a session of the core's
				if u, err := e.Core.Accounts.SessionUser(a.Cookie); err != nil || u.ID != e.IDs["ada"] || a.Auth != "" {
					t.Errorf("Session: %+v is not ada's session (%v)", a, err)
				}
			}
			if anon := e.Call(t, "", "GET", "/echo", "").echoed(t); anon.Auth != "" || anon.Cookie != "" {
				t.Errorf("anonymous call signed in: %+v", anon)
			}
		})
	}
	// Login and Session make a new session each time.
	e := testWorld(t)
	if a, b := e.Login(t, "ada"), e.Login(t, "ada"); a.Value == b.Value {
		t.Errorf("two logins, one cookie %q", a.Value)
	}
	if a, b := e.Session(t, "ada"), e.Session(t, "ada"); a.Value == b.Value {
		t.Errorf("two sessions, one cookie %q", a.Value)
	}
}

func TestScenarioUnknownCaller(t *testing.T) {
	for _, auth := range []Auth{AuthBasic, AuthLogin, AuthSession} {
		e := testWorld(t)
		record(t, func(tb testing.TB) { e.Sign(tb, NewRequest("GET", "/", "", ""), "bob", auth) }).check(t, true, true, `unknown caller "bob"`)
	}
	e := testWorld(t)
	e.Auth = AuthBasic
	record(t, func(tb testing.TB) { e.Cookie(tb, "ada") }).check(t, true, true, "no session cookie")
}

func TestScenarioHooks(t *testing.T) {
	var steps []string
	Run(t, testWorld, []Scenario[*testEnv]{{Name: "hooks", Method: "POST", Path: "/write", Status: 200,
		Before: func(t *testing.T, e *testEnv) {
			n, err := countGroups(e)
			steps = append(steps, "before "+strconv.Itoa(n)+" "+strconv.FormatBool(err == nil))
		},
		After: func(t *testing.T, e *testEnv, r *Response) {
			list, err := e.Core.Fleet.Groups.List(model.System(), model.Query{})
			steps = append(steps, "after "+strconv.Itoa(len(list))+" "+strconv.FormatBool(err == nil)+" "+r.Body)
		}}})
	if got := strings.Join(steps, ", "); got != "before 0 true, after 1 true {}" {
		t.Errorf("steps %q", got)
	}
	// Each scenario has a world of its own; World builds a scenario's.
	var worlds []*testEnv
	note := func(t *testing.T, e *testEnv, _ *Response) { worlds = append(worlds, e) }
	var built int
	Run(t, testWorld, []Scenario[*testEnv]{
		{Name: "one", Method: "GET", Path: "/echo", Status: 200, After: note},
		{Name: "two", Method: "GET", Path: "/echo", Status: 200, After: note},
		{Name: "own", Method: "GET", Path: "/echo", Status: 200, After: note,
			World: func(t testing.TB) *testEnv { built++; return testWorld(t) }},
	})
	if len(worlds) != 3 || worlds[0] == worlds[1] || worlds[1] == worlds[2] || built != 1 {
		t.Errorf("worlds %p, built %d", worlds, built)
	}
}

// The checks: status, fragments present and absent, the world's Never, the
// JSON error body (not for pages) and Unchanged.
func TestScenarioChecks(t *testing.T) {
	never := func(e *testEnv) { e.Never = []string{"secret"} }
	pages := func(e *testEnv) { e.Pages = true }
	listed := func(e *testEnv) {
		e.Snapshot = func(testing.TB) string { n, _ := countGroups(e); return strconv.Itoa(n) + " groups" }
	}
	type scenario = Scenario[*testEnv]
	cases := []struct {
		s             scenario
		world         func(*testEnv)
		failed, fatal bool
		message       string
	}{
		{s: scenario{Method: "GET", Path: "/echo?a={ada}", Status: 200, Want: []string{`"method":"GET"`, `"path":"/echo?a={ada}"`}}},
		{s: scenario{Method: "GET", Path: "/echo", Status: 201}, failed: true, fatal: true, message: "GET /echo: status 200, want 201"},
		{s: scenario{Method: "GET", Path: "/echo", Status: 200, Want: []string{"POST"}}, failed: true, message: `lacks "POST"`},
		{s: scenario{Method: "GET", Path: "/echo", Status: 200, Absent: []string{"GET"}}, failed: true, message: `has "GET"`},
		// What a client reads: & is sent as \u0026 and found either way.
		{s: scenario{Method: "POST", Path: "/echo", Body: `{"a":"x&y"}`, Status: 200, Want: []string{`x&y`}}},
		{s: scenario{Method: "POST", Path: "/echo", Body: `{"a":"x&y"}`, Status: 200, Absent: []string{`x&y`}},
			failed: true, message: `has "x&y"`},
		{s: scenario{Method: "POST", Path: "/echo", Body: "a secret", ContentType: "text/plain", Status: 200}, world: never,
			failed: true, message: `has "secret"`},
		{s: scenario{Method: "GET", Path: "/page?status=404", Status: 404}, failed: true, fatal: true, message: "not JSON"},
		{s: scenario{Method: "GET", Path: "/page?status=404", Status: 404}, world: pages},
		{s: scenario{Method: "GET", Path: "/echo?status=400", Status: 400, Want: []string{`"message":"echo"`}}},
		{s: scenario{Method: "GET", Path: "/echo", Status: 200, Unchanged: true}},
		{s: scenario{Method: "POST", Path: "/write", Status: 200, Unchanged: true}, failed: true, message: "the request changed the store"},
		{s: scenario{Method: "POST", Path: "/write", Status: 200, Unchanged: true}, world: listed,
			failed: true, message: "before 0 groups\nafter  1 groups"},
		{s: scenario{Method: "GET", Path: "/echo/{nobody}", Status: 200}, failed: true, fatal: true, message: "unknown fixture name"},
	}
	for _, tc := range cases {
		t.Run(tc.s.Method+" "+tc.s.Path, func(t *testing.T) {
			e := testWorld(t)
			if tc.world != nil {
				tc.world(e)
			}
			r := record(t, func(tb testing.TB) { tc.s.send(tb, e.World) })
			if tc.message == "" {
				r.check(t, tc.failed, tc.fatal)
			} else {
				r.check(t, tc.failed, tc.fatal, tc.message)
			}
		})
	}
}

func countGroups(e *testEnv) (n int, err error) {
	err = e.DB.View(func(tx model.Tx) error { n, err = tx.Groups().Count(); return err })
	return n, err
}

// Call sends JSON, to the world's host, with {name}s expanded.
func TestWorldCall(t *testing.T) {
	e := testWorld(t)
	e.Host = "fleet.example"
	got := e.Call(t, "", "PATCH", "/echo?id={ada}", `{"id":{ada}}`).echoed(t)
	want := echoed{Method: "PATCH", Path: "/echo?id=1", Type: "application/json", Body: `{"id":1}`, Host: "fleet.example"}
	if got != want {
		t.Errorf("received %+v, want %+v", got, want)
	}
}

func TestRunner(t *testing.T) {
	var built int
	run := Runner(func(t testing.TB) *testEnv { built++; return testWorld(t) })
	run(t, []Scenario[*testEnv]{
		{Name: "one", Method: "GET", Path: "/echo", Status: 200},
		{Name: "two", Method: "GET", Path: "/echo", Status: 200},
	})
	if built != 2 {
		t.Errorf("%d worlds built, want one a scenario", built)
	}
}
