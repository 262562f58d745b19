package api2_test

import (
	"context"
	"log/slog"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/throttle"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"golang.org/x/crypto/bcrypt"
)

// acctEnv is one account scenario's world (webtest.World: a fresh bbolt
// store, the core, the Fiber app, the fixture users by name), the core's
// controllable clock and its outbox for OTPs.
type acctEnv struct {
	*webtest.World
	clock  *clock
	outbox *outbox
}

// acctScenario is one request against a fresh accounts fixture. A Before
// hook may run earlier steps and name what they gave ("code", "token")
// in e.Values, for {placeholders} in the body. Callers get a session made
// through the core.
type acctScenario = webtest.Scenario[*acctEnv]

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

func newAcctEnv(t testing.TB, opts ...acctOption) *acctEnv {
	t.Helper()
	return buildAcctEnv(t, nil, opts...)
}

// runAccounts runs scenarios, each on a fresh accounts fixture with the
// default options.
var runAccounts = webtest.Runner(func(t testing.TB) *acctEnv { return newAcctEnv(t) })

// buildAcctEnv builds the fixture with a core over store(db) (nil: the
// store itself, else a wrapper of it that injects failures).
func buildAcctEnv(t testing.TB, store func(*storage.DB) model.Store, opts ...acctOption) *acctEnv {
	t.Helper()
	e := &acctEnv{clock: &clock{t: time.Now().UTC()}, outbox: &outbox{}}
	o := app.Options{
		Version: "test", BcryptCost: bcrypt.MinCost, Now: e.clock.now,
		Throttle: throttle.Options{MaxPerAccount: 3, MaxPerIP: 100, Window: time.Hour},
		Accounts: accounts.Options{Mail: e.outbox, SMS: e.outbox},
		Logger:   slog.New(slog.DiscardHandler),
	}
	for _, fn := range opts {
		fn(&o)
	}
	e.World = newWorld(t, o, store)
	e.Auth = webtest.AuthSession
	core := e.Core
	admin, _, err := core.Accounts.Bootstrap(acctUsers["admin"][0], acctUsers["admin"][2])
	must(t, err)
	e.IDs["admin"] = admin.ID
	for _, name := range []string{"alice", "bob", "carol"} {
		u, err := core.Accounts.CreateUser(admin, func(u *model.User) error {
			c := acctUsers[name]
			u.Name, u.Email, u.Phone, u.Password = name, c[0], c[1], c[2]
			return nil
		})
		must(t, err)
		e.IDs[name] = u.ID
	}
	_, err = core.Accounts.UpdateServer(admin, func(s *model.Server) error { s.Registration = true; return nil })
	must(t, err)
	return e
}

// setsSession reports whether r sets a session cookie with a value.
func setsSession(r *webtest.Response) bool {
	c := r.Cookie(httpx.SessionCookie)
	return c != nil && c.Value != ""
}

// otpFor runs path with body (an OTP request) and returns the code sent to to.
func (e *acctEnv) otpFor(t *testing.T, path, body, caller, to string) string {
	t.Helper()
	r := e.Call(t, caller, "POST", path, body)
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
	r := e.Call(t, "", "POST", "/api2/auth/otp/verify", `{"otp":"`+code+`","identifier":"`+identifier+`","type":"`+purpose+`"}`)
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
func maintenance(t *testing.T, e *acctEnv) {
	must(t, e.Core.Accounts.SetMaintenance(true))
}

// set names values for {placeholders} in the request: name, value, name,
// value...
func (e *acctEnv) set(kv ...string) {
	for i := 0; i+1 < len(kv); i += 2 {
		e.Values[kv[i]] = kv[i+1]
	}
}
