package api2_test

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
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
	db := webtest.OpenStore(t)
	return buildAcctEnv(t, db, db, opts...)
}

// buildAcctEnv puts the fixture into db and serves a core over store (db,
// or a wrapper of it that injects failures).
func buildAcctEnv(t *testing.T, db *storage.DB, store model.Store, opts ...acctOption) *acctEnv {
	t.Helper()
	e := &acctEnv{db: db, clock: &clock{t: time.Now().UTC()}, outbox: &outbox{}, ids: map[string]int64{}}
	o := app.Options{
		Version: "test", BcryptCost: bcrypt.MinCost, Now: e.clock.now,
		Throttle: app.ThrottleOptions{MaxPerAccount: 3, MaxPerIP: 100, Window: time.Hour},
		Accounts: app.AccountOptions{Mail: e.outbox, SMS: e.outbox},
		Logger:   slog.New(slog.DiscardHandler),
	}
	for _, fn := range opts {
		fn(&o)
	}
	setup := app.New(db, o)
	admin, _, err := setup.Bootstrap(acctUsers["admin"][0], acctUsers["admin"][2])
	must(t, err)
	e.ids["admin"] = admin.ID
	for _, name := range []string{"alice", "bob", "carol"} {
		u, err := setup.CreateUser(admin, func(u *model.User) error {
			c := acctUsers[name]
			u.Name, u.Email, u.Phone, u.Password = name, c[0], c[1], c[2]
			return nil
		})
		must(t, err)
		e.ids[name] = u.ID
	}
	_, err = setup.UpdateServer(admin, func(s *model.Server) error { s.Registration = true; return nil })
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

// call sends one request as caller ("" anonymous, else a fixture user
// whose session is created through the core).
func (e *acctEnv) call(t *testing.T, method, path, body, caller string) *webtest.Response {
	t.Helper()
	req := webtest.NewJSONRequest(method, path, body)
	if caller != "" {
		u, err := e.core.User(app.System(), e.ids[caller])
		must(t, err)
		req.AddCookie(webtest.SessionCookie(t, e.core, u))
	}
	return webtest.Do(t, e.app, req)
}

// setsSession reports whether r sets a session cookie with a value.
func setsSession(r *webtest.Response) bool {
	c := r.Cookie(httpx.SessionCookie)
	return c != nil && c.Value != ""
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
	check  func(t *testing.T, e *acctEnv, r *webtest.Response)
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
			if r.Status != s.status {
				t.Fatalf("%s %s: status %d, want %d; body %s", s.method, s.path, r.Status, s.status, r.Body)
			}
			// Go's encoder writes & as \u0026; compare what a client reads.
			plain := strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">").Replace(r.Body)
			webtest.Contains(t, "body "+r.Body, plain, s.want...)
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
	if r.Status != 200 {
		t.Fatalf("POST %s: %d %s", path, r.Status, r.Body)
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
	if r.Status != 200 {
		t.Fatalf("A1: %d %s", r.Status, r.Body)
	}
	var out struct{ Token string }
	if r.Decode(t, &out); out.Token == "" {
		t.Fatalf("A1 gave no token: %s", r.Body)
	}
	return out.Token
}

// maintenance switches maintenance mode on before the request.
func maintenance(t *testing.T, e *acctEnv) map[string]string {
	must(t, e.core.SetMaintenance(true))
	return nil
}
