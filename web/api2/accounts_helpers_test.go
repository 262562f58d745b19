package api2_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"
)

// acctEnv is one account scenario's world: a fresh bbolt store, the core
// with a controllable clock and an outbox for OTPs, the Fiber app, and the
// fixture users by name.
type acctEnv struct {
	db     *storage.DB
	core   *app.Core
	app    *fiber.App
	clock  *clock
	outbox *outbox
	ids    map[string]int64
}

// acctUsers are the fixture users: name -> e-mail, phone, password.
// bob and carol share a phone.
var acctUsers = map[string][3]string{
	"admin": {"admin@example.com", "", "admin-secret"},
	"alice": {"alice@example.com", "+15550001", "alice-secret"},
	"bob":   {"bob@example.com", "+15550002", "bob-secret"},
	"carol": {"carol@example.com", "+1 555 0002", "carol-secret"},
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// outbox is a MessageSender that keeps what it was given.
type outbox struct {
	mu   sync.Mutex
	sent []sentMessage
}

type sentMessage struct{ to, subject, text string }

func (o *outbox) Send(_ context.Context, to, subject, text string) error {
	o.mu.Lock()
	o.sent = append(o.sent, sentMessage{to, subject, text})
	o.mu.Unlock()
	return nil
}

var sixDigits = regexp.MustCompile(`\b\d{6}\b`)

// code is the OTP of the last message sent to to ("" when none).
func (o *outbox) code(to string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.sent) - 1; i >= 0; i-- {
		if o.sent[i].to == to {
			return sixDigits.FindString(o.sent[i].text)
		}
	}
	return ""
}

// acctOptions adjusts the core's options before it is built.
type acctOption func(*app.Options)

func newAcctEnv(t *testing.T, opts ...acctOption) *acctEnv {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return buildAcctEnv(t, db, db, opts...)
}

// buildAcctEnv puts the fixture into db and serves a core over store (db,
// or a wrapper of it that injects failures).
func buildAcctEnv(t *testing.T, db *storage.DB, store app.Store, opts ...acctOption) *acctEnv {
	t.Helper()
	e := &acctEnv{db: db, clock: &clock{t: time.Now().UTC()}, outbox: &outbox{}, ids: map[string]int64{}}
	o := app.Options{
		Version: "test", BcryptCost: bcrypt.MinCost, Now: e.clock.now,
		Throttle: app.ThrottleOptions{MaxPerAccount: 3, MaxPerIP: 100, Window: time.Hour},
		Accounts: app.AccountOptions{Mail: e.outbox, SMS: e.outbox},
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	for _, fn := range opts {
		fn(&o)
	}
	setup := app.New(db, o)
	admin, _, err := setup.Bootstrap(acctUsers["admin"][0], acctUsers["admin"][2])
	must(t, err)
	e.ids["admin"] = admin.ID
	for _, name := range []string{"alice", "bob", "carol"} {
		u, err := setup.CreateUser(admin, func(u *app.User) error {
			c := acctUsers[name]
			u.Name, u.Email, u.Phone, u.Password = name, c[0], c[1], c[2]
			return nil
		})
		must(t, err)
		e.ids[name] = u.ID
	}
	_, err = setup.UpdateServer(admin, func(s *app.Server) error { s.Registration = true; return nil })
	must(t, err)
	e.core = app.New(store, o)
	e.app = web.New(e.core, web.Options{Logger: o.Logger})
	return e
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// response is one answer: status, raw body and the cookie set, if any.
type response struct {
	status int
	body   string
	cookie string
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.body), &m); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	return m
}

// call sends one request as caller ("" anonymous, else a fixture user
// whose session is created through the core).
func (e *acctEnv) call(t *testing.T, method, path, body, caller string) response {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if caller != "" {
		req.Header.Set("Cookie", httpx.SessionCookie+"="+e.session(t, caller))
	}
	res, err := e.app.Test(req, -1)
	must(t, err)
	raw, _ := io.ReadAll(res.Body)
	r := response{status: res.StatusCode, body: string(raw)}
	for _, c := range res.Cookies() {
		if c.Name == httpx.SessionCookie {
			r.cookie = c.Value
		}
	}
	return r
}

func (e *acctEnv) session(t *testing.T, name string) string {
	t.Helper()
	u, err := e.core.User(app.System(), e.ids[name])
	must(t, err)
	token, _, err := e.core.CreateSession(u)
	must(t, err)
	return token
}

// acctScenario is one request against a fresh fixture: setup may run
// earlier steps (and returns values for {placeholders} in body), then the
// request's status and body fragments are checked.
type acctScenario struct {
	name   string
	setup  func(t *testing.T, e *acctEnv) map[string]string
	opts   []acctOption
	method string
	path   string
	body   string
	caller string
	status int
	want   []string // fragments the body must contain
	check  func(t *testing.T, e *acctEnv, r response)
}

func runAcctScenarios(t *testing.T, scenarios []acctScenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			e := newAcctEnv(t, s.opts...)
			body := s.body
			if s.setup != nil {
				for k, v := range s.setup(t, e) {
					body = strings.ReplaceAll(body, "{"+k+"}", v)
				}
			}
			r := e.call(t, s.method, s.path, body, s.caller)
			if r.status != s.status {
				t.Fatalf("%s %s: status %d, want %d; body %s", s.method, s.path, r.status, s.status, r.body)
			}
			// Go's encoder writes & as \u0026; compare what a client reads.
			plain := strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">").Replace(r.body)
			for _, w := range s.want {
				if !strings.Contains(plain, w) {
					t.Errorf("body %s lacks %s", r.body, w)
				}
			}
			if s.check != nil {
				s.check(t, e, r)
			}
		})
	}
}

// otpFor runs path with body (an OTP request) and returns the code sent to to.
func (e *acctEnv) otpFor(t *testing.T, path, body, caller, to string) string {
	t.Helper()
	r := e.call(t, "POST", path, body, caller)
	if r.status != 200 {
		t.Fatalf("POST %s: %d %s", path, r.status, r.body)
	}
	code := e.outbox.code(to)
	if code == "" {
		t.Fatalf("no OTP sent to %s", to)
	}
	return code
}

// token verifies code for identifier and purpose (A1) and returns the token.
func (e *acctEnv) token(t *testing.T, code, identifier, purpose string) string {
	t.Helper()
	r := e.call(t, "POST", "/api2/auth/otp/verify",
		`{"otp":"`+code+`","identifier":"`+identifier+`","type":"`+purpose+`"}`, "")
	if r.status != 200 {
		t.Fatalf("A1: %d %s", r.status, r.body)
	}
	tok, _ := r.json(t)["token"].(string)
	if tok == "" {
		t.Fatalf("A1 gave no token: %s", r.body)
	}
	return tok
}

// maintenance switches maintenance mode on before the request.
func maintenance(t *testing.T, e *acctEnv) map[string]string {
	must(t, e.core.SetMaintenance(true))
	return nil
}
