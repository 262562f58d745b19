package webtest

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/fleetd/fleetd/app/model"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/storage"
	"github.com/gofiber/fiber/v2"
)

// World is what one scenario runs against: a fresh store, the core on it,
// the app serving the core, and the fixture's names. Each web package's
// world builder fills one (its fixture is its own) and embeds it in the
// type its hooks receive.
type World struct {
	DB   *storage.DB
	Core *app.Core
	App  *fiber.App

	// IDs are the fixture's ids by name, for {name} in paths, bodies and
	// fragments; Values are other strings by name, such as a code or a
	// token a hook obtained.
	IDs    map[string]int64
	Values map[string]string

	// Users are the credentials of the fixture's users by caller name,
	// for AuthBasic and AuthLogin; AuthSession needs the user's id in IDs.
	Users map[string]Credentials
	// Auth is how a named caller signs in when a scenario does not say;
	// unset, AuthSession.
	Auth Auth

	// Host is the Host of every request ("" httptest's example.com).
	Host string
	// Never are fragments no answer may hold, whatever the scenario: the
	// fixture's secrets.
	Never []string
	// Pages: answers are HTML pages, whose errors are pages too rather
	// than the JSON error body the APIs promise.
	Pages bool
	// Snapshot is what a scenario's Unchanged compares before and after
	// the request; nil, the whole store (StoreImage).
	Snapshot func(t testing.TB) string

	cookies map[string]*http.Cookie
}

// Credentials sign a fixture user in.
type Credentials struct{ Email, Password string }

// Auth is a way for a caller to sign in.
type Auth int

const (
	// AuthDefault is the world's way (World.Auth).
	AuthDefault Auth = iota
	// AuthBasic sends the caller's credentials as HTTP Basic.
	AuthBasic
	// AuthLogin sends the session cookie that POST /api/session gave for the
	// caller's credentials, as API clients do.
	AuthLogin
	// AuthSession sends the cookie of a session made through the core, for
	// tests that are not about signing in.
	AuthSession
)

// NewWorld is a world of db, core and f with empty names.
func NewWorld(db *storage.DB, core *app.Core, f *fiber.App) *World {
	return &World{DB: db, Core: core, App: f, IDs: map[string]int64{}, Values: map[string]string{},
		Users: map[string]Credentials{}}
}

func (w *World) world() *World { return w }

// Request is method path carrying body, declared as contentType unless
// that is empty, to the world's host; {name}s in path and body expand.
func (w *World) Request(t testing.TB, method, path, contentType, body string) *http.Request {
	t.Helper()
	req := NewRequest(method, w.Expand(t, path), contentType, w.Expand(t, body))
	if w.Host != "" {
		req.Host = w.Host
	}
	return req
}

// Call sends method path with a JSON body (none when body is empty) as
// the caller as ("" anonymous), signed in the world's way.
func (w *World) Call(t testing.TB, as, method, path, body string) *Response {
	t.Helper()
	contentType := ""
	if body != "" {
		contentType = fiber.MIMEApplicationJSON
	}
	return w.Send(t, as, w.Request(t, method, path, contentType, body))
}

// Send signs req for the caller as ("" anonymous) in the world's way and
// sends it through the app.
func (w *World) Send(t testing.TB, as string, req *http.Request) *Response {
	t.Helper()
	w.Sign(t, req, as, AuthDefault)
	return Do(t, w.App, req)
}

// Sign makes req the caller as's ("" leaves it anonymous), signed in by
// auth.
func (w *World) Sign(t testing.TB, req *http.Request, as string, auth Auth) {
	t.Helper()
	if as == "" {
		return
	}
	if auth == AuthDefault {
		auth = w.Auth
	}
	if auth == AuthBasic {
		c := w.credentials(t, as)
		req.SetBasicAuth(c.Email, c.Password)
		return
	}
	req.AddCookie(w.cookie(t, as, auth))
}

// Cookie is the session cookie of the caller name, signed in the world's
// way once per world.
func (w *World) Cookie(t testing.TB, name string) *http.Cookie {
	t.Helper()
	return w.cookie(t, name, w.Auth)
}

func (w *World) cookie(t testing.TB, name string, auth Auth) *http.Cookie {
	t.Helper()
	if auth == AuthDefault {
		auth = AuthSession
	}
	key := strconv.Itoa(int(auth)) + " " + name
	if c, ok := w.cookies[key]; ok {
		return c
	}
	if w.cookies == nil {
		w.cookies = map[string]*http.Cookie{}
	}
	var c *http.Cookie
	switch auth {
	case AuthLogin:
		c = w.Login(t, name)
	case AuthSession:
		c = w.Session(t, name)
	default:
		t.Fatalf("caller %s signs in with Basic: there is no session cookie", name)
	}
	w.cookies[key] = c
	return c
}

// Login signs the caller name in through POST /api/session and returns a
// new session's cookie.
func (w *World) Login(t testing.TB, name string) *http.Cookie {
	t.Helper()
	c := w.credentials(t, name)
	return Login(t, w.App, c.Email, c.Password)
}

// Session starts a new session for the fixture user name through the
// core and returns its cookie.
func (w *World) Session(t testing.TB, name string) *http.Cookie {
	t.Helper()
	id, ok := w.IDs[name]
	if !ok {
		t.Fatalf("unknown caller %q", name)
	}
	u, err := w.Core.Accounts.User(model.System(), id)
	if err != nil {
		t.Fatal(err)
	}
	return SessionCookie(t, w.Core, u)
}

func (w *World) credentials(t testing.TB, name string) Credentials {
	t.Helper()
	c, ok := w.Users[name]
	if !ok {
		t.Fatalf("unknown caller %q", name)
	}
	return c
}

// snapshot is the world's Snapshot, else the store's image.
func (w *World) snapshot(t testing.TB) string {
	t.Helper()
	if w.Snapshot != nil {
		return w.Snapshot(t)
	}
	return string(StoreImage(t, w.DB))
}
