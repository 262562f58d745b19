package api2_test

import (
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

const (
	aliceEmail = "alice@example.com"
	resetPath  = "/api2/auth/account/reset"
	regPath    = "/api2/auth/registration/init"
)

// resetCode sends alice a reset OTP and returns it.
func resetCode(t *testing.T, e *acctEnv) string {
	return e.otpFor(t, resetPath, `{"email":"`+aliceEmail+`"}`, "", aliceEmail)
}

// wrong is a six-digit code that differs from code.
func wrong(code string) string {
	d := (int(code[0]-'0') + 1) % 10
	return strconv.Itoa(d) + code[1:]
}

func resetToken(t *testing.T, e *acctEnv) string {
	return e.token(t, resetCode(t, e), aliceEmail, accounts.PurposeReset)
}

func registrationToken(t *testing.T, e *acctEnv, identifier string) string {
	field := "email"
	if !strings.Contains(identifier, "@") {
		field = "phone"
	}
	code := e.otpFor(t, regPath, `{"`+field+`":"`+identifier+`"}`, "", identifier)
	return e.token(t, code, identifier, accounts.PurposeRegistration)
}

// loginWorks checks that identifier/password log in through A2.
func loginWorks(t *testing.T, e *acctEnv, identifier, password string) {
	t.Helper()
	r := e.Call(t, "", "POST", "/api2/auth/login", `{"identifier":"`+identifier+`","password":"`+password+`"}`)
	if r.Status != 200 || !setsSession(r) {
		t.Fatalf("login %s: %d %s", identifier, r.Status, r.Body)
	}
}

func TestAccountAccess(t *testing.T) {
	const a1 = "/api2/auth/otp/verify"
	const login = "/api2/auth/login"
	aliceReset := func(t *testing.T, e *acctEnv) {
		code := resetCode(t, e)
		e.set("code", code, "wrong", wrong(code))
	}
	// token names the token of get "token"; expired lets it expire first.
	token := func(get func(*testing.T, *acctEnv) string) func(*testing.T, *acctEnv) {
		return func(t *testing.T, e *acctEnv) { e.set("token", get(t, e)) }
	}
	expired := func(get func(*testing.T, *acctEnv) string) func(*testing.T, *acctEnv) {
		return func(t *testing.T, e *acctEnv) {
			tok := get(t, e)
			e.clock.add(11 * time.Minute)
			e.set("token", tok)
		}
	}
	registration := func(identifier string) func(*testing.T, *acctEnv) string {
		return func(t *testing.T, e *acctEnv) string { return registrationToken(t, e, identifier) }
	}
	runAccounts(t, []acctScenario{
		// A1
		{Name: "A1 otp missing", Method: "POST", Path: a1, Body: `{"identifier":"alice@example.com","type":"reset"}`,
			Status: 400, Want: []string{`"message":"OTP & Identifier are required!"`}},
		{Name: "A1 identifier missing", Method: "POST", Path: a1, Body: `{"otp":"123456","type":"reset"}`,
			Status: 400, Want: []string{`"message":"OTP & Identifier are required!"`}},
		{Name: "A1 wrong otp", Before: aliceReset, Method: "POST", Path: a1,
			Body: `{"otp":"{wrong}","identifier":"alice@example.com","type":"reset"}`, Status: 400, Want: []string{`"message":"Invalid OTP!"`}},
		{Name: "A1 otp of another purpose", Before: aliceReset, Method: "POST", Path: a1,
			Body: `{"otp":"{code}","identifier":"alice@example.com","type":"registration"}`, Status: 400, Want: []string{`"message":"Invalid OTP!"`}},
		{Name: "A1 expired", Before: func(t *testing.T, e *acctEnv) {
			aliceReset(t, e)
			e.clock.add(10*time.Minute + time.Second)
		}, Method: "POST", Path: a1, Body: `{"otp":"{code}","identifier":"alice@example.com","type":"reset"}`,
			Status: 400, Want: []string{`"message":"OTP has expired!"`}},
		{Name: "A1 too many wrong tries end the otp", Before: func(t *testing.T, e *acctEnv) {
			aliceReset(t, e)
			for range 5 {
				e.Call(t, "", "POST", a1, `{"otp":"`+e.Values["wrong"]+`","identifier":"alice@example.com","type":"reset"}`)
			}
		}, Method: "POST", Path: a1, Body: `{"otp":"{code}","identifier":"alice@example.com","type":"reset"}`,
			Status: 400, Want: []string{`"message":"Invalid OTP!"`}},
		{Name: "A1 unknown type", Method: "POST", Path: a1, Body: `{"otp":"123456","identifier":"alice@example.com","type":"x"}`,
			Status: 400, Want: []string{"registration, reset or demo_auth"}},
		{Name: "A1 update types belong to H2", Method: "POST", Path: a1,
			Body: `{"otp":"123456","identifier":"alice@example.com","type":"update_email"}`, Status: 400,
			Want: []string{"/api2/security/update/init"}},
		{Name: "A1 success, single use", Before: aliceReset, Method: "POST", Path: a1,
			Body: `{"otp":"{code}","identifier":"ALICE@example.com","type":"reset"}`, Status: 200, Want: []string{`"token":"`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				code := e.outbox.code(aliceEmail)
				again := e.Call(t, "", "POST", a1, `{"otp":"`+code+`","identifier":"alice@example.com","type":"reset"}`)
				if again.Status != 400 || !strings.Contains(again.Body, "Invalid OTP!") {
					t.Errorf("second use: %d %s", again.Status, again.Body)
				}
			}},
		{Name: "A1 maintenance", Before: maintenance, Method: "POST", Path: a1,
			Body: `{"otp":"123456","identifier":"alice@example.com","type":"reset"}`, Status: 403, Want: []string{`"message":"Server not running!"`}},

		// A2
		{Name: "A2 missing", Method: "POST", Path: login, Body: `{"identifier":"alice@example.com"}`,
			Status: 400, Want: []string{`"message":"Identifier & password are required!"`}},
		{Name: "A2 no body", Method: "POST", Path: login, Status: 400, Want: []string{`"message":"Identifier & password are required!"`}},
		{Name: "A2 maintenance", Before: maintenance, Method: "POST", Path: login,
			Body: `{"identifier":"alice@example.com","password":"alice-secret"}`, Status: 403, Want: []string{`"message":"Server not running!"`}},
		{Name: "A2 several users", Method: "POST", Path: login, Body: `{"identifier":"+1-555-0002","password":"bob-secret"}`,
			Status: 400, Want: []string{`"message":"Multiple users found!"`,
				`"description":"Multiple users found with same credentials please use another method!"`}},
		{Name: "A2 wrong password", Method: "POST", Path: login, Body: `{"identifier":"alice@example.com","password":"nope"}`,
			Status: 401, Want: []string{`"message":"Login failed!"`, `"description":"Invalid Credentials!"`}},
		{Name: "A2 unknown identifier", Method: "POST", Path: login, Body: `{"identifier":"nobody@example.com","password":"x"}`,
			Status: 404, Want: []string{`"message":"Credentials error!"`, "registered with as the identifier"}},
		{Name: "A2 throttled after 3 failures", Before: func(t *testing.T, e *acctEnv) {
			for range 3 {
				e.Call(t, "", "POST", login, `{"identifier":"alice@example.com","password":"nope"}`)
			}
		}, Method: "POST", Path: login, Body: `{"identifier":"alice@example.com","password":"alice-secret"}`, Status: 429},
		{Name: "A2 by e-mail: the cookie serves /api too", Method: "POST", Path: login,
			Body: `{"identifier":"Alice@Example.com","password":"alice-secret"}`, Status: 200, Want: []string{`{"email":"alice@example.com"}`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if !setsSession(r) {
					t.Fatal("no JSESSIONID cookie")
				}
				req := e.Call(t, "", "GET", "/api2/notifications/settings", "")
				if req.Status != 401 {
					t.Errorf("without cookie: %d", req.Status)
				}
			}},
		{Name: "A2 by phone", Method: "POST", Path: login, Body: `{"identifier":"+1 (555) 0001","password":"alice-secret"}`,
			Status: 200, Want: []string{`{"email":"alice@example.com"}`}},

		// A3
		{Name: "A3 neither email nor phone", Method: "POST", Path: resetPath, Body: `{}`,
			Status: 400, Want: []string{`"message":"Email or phone number is required!"`}},
		{Name: "A3 maintenance", Before: maintenance, Method: "POST", Path: resetPath, Body: `{"email":"alice@example.com"}`,
			Status: 403, Want: []string{`"message":"Server not running!"`}},
		{Name: "A3 no such user", Method: "POST", Path: resetPath, Body: `{"email":"nobody@example.com"}`,
			Status: 404, Want: []string{`"message":"User not found!"`}},
		{Name: "A3 several users", Method: "POST", Path: resetPath, Body: `{"phone":"+15550002"}`,
			Status: 400, Want: []string{`"message":"Multiple users found!"`, "used by multiple users"}},
		{Name: "A3 success", Method: "POST", Path: resetPath, Body: `{"email":"alice@example.com"}`,
			Status: 200, Want: []string{`"message":"OTP sent successfully!"`, `"success":true`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if e.outbox.code(aliceEmail) == "" {
					t.Error("no code e-mailed")
				}
			}},
		{Name: "A3 resend inside the cool-down", Before: aliceReset, Method: "POST", Path: resetPath,
			Body: `{"email":"alice@example.com"}`, Status: 429, Want: []string{"wait"}},
		{Name: "A3 resend after the cool-down", Before: func(t *testing.T, e *acctEnv) {
			aliceReset(t, e)
			e.clock.add(time.Minute)
		}, Method: "POST", Path: resetPath, Body: `{"email":"alice@example.com"}`, Status: 200},

		// A4
		{Name: "A4 missing", Method: "POST", Path: "/api2/auth/password/reset", Body: `{"token":"x"}`,
			Status: 400, Want: []string{`"message":"Token and identifier are required!"`}},
		{Name: "A4 bad token", Method: "POST", Path: "/api2/auth/password/reset", Body: `{"token":"x","newPassword":"n3w"}`,
			Status: 400, Want: []string{`"message":"Invalid Token!"`}},
		{Name: "A4 expired token", Before: expired(resetToken), Method: "POST", Path: "/api2/auth/password/reset", Body: `{"token":"{token}","newPassword":"n3w"}`,
			Status: 400, Want: []string{`"message":"Token has expired!"`}},
		{Name: "A4 registration token", Before: token(registration("new@example.com")), Method: "POST", Path: "/api2/auth/password/reset", Body: `{"token":"{token}","newPassword":"n3w"}`,
			Status: 401, Want: []string{`"message":"Unauthorized token!"`}},
		{Name: "A4 success", Before: token(resetToken), Method: "POST", Path: "/api2/auth/password/reset", Body: `{"token":"{token}","newPassword":"n3w-secret"}`,
			Status: 200, Want: []string{`"message":"Password Updated!"`, `"success":true`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				loginWorks(t, e, aliceEmail, "n3w-secret")
			}},

		// A5
		{Name: "A5 neither email nor phone", Method: "POST", Path: regPath, Body: `{"email":""}`,
			Status: 400, Want: []string{`"message":"Email or phone number is required!"`}},
		{Name: "A5 maintenance", Before: maintenance, Method: "POST", Path: regPath, Body: `{"email":"new@example.com"}`,
			Status: 403, Want: []string{`"message":"Server not running!"`}},
		{Name: "A5 account exists (e-mail)", Method: "POST", Path: regPath, Body: `{"email":"alice@example.com"}`,
			Status: 400, Want: []string{`"message":"Account already exists!"`}},
		{Name: "A5 account exists (phone)", Method: "POST", Path: regPath, Body: `{"phone":"+15550001"}`,
			Status: 400, Want: []string{`"message":"Account already exists!"`}},
		{Name: "A5 registration switched off", Before: func(t *testing.T, e *acctEnv) {
			admin, err := e.Core.Accounts.User(model.System(), e.IDs["admin"])
			must(t, err)
			_, err = e.Core.Accounts.UpdateServer(admin, func(s *model.Server) error { s.Registration = false; return nil })
			must(t, err)
		}, Method: "POST", Path: regPath, Body: `{"email":"new@example.com"}`, Status: 403, Want: []string{"Registration is disabled"}},
		{Name: "A5 success", Method: "POST", Path: regPath, Body: `{"email":"new@example.com"}`,
			Status: 200, Want: []string{`"message":"OTP sent successfully!"`, `"success":true`}},

		// A6
		{Name: "A6 missing", Method: "POST", Path: "/api2/auth/registration/complete", Body: `{"token":"x","password":"p"}`,
			Status: 400, Want: []string{`"message":"token, fullName & password are required!"`}},
		{Name: "A6 bad token", Method: "POST", Path: "/api2/auth/registration/complete",
			Body: `{"token":"x","fullName":"New","password":"p"}`, Status: 400, Want: []string{`"message":"Invalid Token!"`}},
		{Name: "A6 expired token", Before: expired(registration("new@example.com")), Method: "POST", Path: "/api2/auth/registration/complete", Body: `{"token":"{token}","fullName":"New","password":"p"}`,
			Status: 400, Want: []string{`"message":"Token has expired!"`}},
		{Name: "A6 reset token", Before: token(resetToken), Method: "POST", Path: "/api2/auth/registration/complete", Body: `{"token":"{token}","fullName":"New","password":"p"}`,
			Status: 401, Want: []string{`"message":"Unauthorized token!"`}},
		{Name: "A6 success by phone", Before: token(registration("+4930123456")), Method: "POST", Path: "/api2/auth/registration/complete",
			Body:   `{"token":"{token}","fullName":"Neu","password":"neu-secret"}`,
			Status: 200, Want: []string{`"message":"Account registered successfully"`, `"success":true`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				loginWorks(t, e, "+49 30 123456", "neu-secret")
			}},

		// A7
		{Name: "A7 missing", Method: "POST", Path: "/api2/auth/demo-login/init", Body: `{"phone":"+4930123456"}`,
			Status: 400, Want: []string{`"message":"Phone number and Full name is required!"`}},
		{Name: "A7 success", Method: "POST", Path: "/api2/auth/demo-login/init", Body: `{"phone":"+4930123456","fullName":"Demo"}`,
			Status: 200, Want: []string{`"message":"OTP sent successfully!"`, `"success":true`}},
	})
}

// TestRegistrationByEmail runs A5 -> A1 -> A6 -> A2; the token is single use.
func TestRegistrationByEmail(t *testing.T) {
	e := newAcctEnv(t)
	tok := registrationToken(t, e, "new@example.com")
	body := `{"token":"` + tok + `","fullName":"New User","password":"new-secret"}`
	if r := e.Call(t, "", "POST", "/api2/auth/registration/complete", body); r.Status != 200 {
		t.Fatalf("A6: %d %s", r.Status, r.Body)
	}
	if r := e.Call(t, "", "POST", "/api2/auth/registration/complete", body); r.Status != 400 || !strings.Contains(r.Body, "Invalid Token!") {
		t.Fatalf("A6 again: %d %s", r.Status, r.Body)
	}
	loginWorks(t, e, "new@example.com", "new-secret")
}

// TestDemoLogin: A7 -> A1 demo_auth creates one read-only, expiring demo
// account per phone; the admin sets its password and the caller logs in.
func TestDemoLogin(t *testing.T) {
	e := newAcctEnv(t)
	const phone = "+4930999999"
	for range 2 {
		code := e.otpFor(t, "/api2/auth/demo-login/init", `{"phone":"`+phone+`","fullName":"Demo Driver"}`, "", phone)
		e.token(t, code, phone, accounts.PurposeDemo)
		e.clock.add(time.Minute)
	}
	users, err := e.Core.Accounts.Users(model.System(), 0)
	must(t, err)
	var demos []*model.User
	for _, u := range users {
		if u.Phone == phone {
			demos = append(demos, u)
		}
	}
	if len(demos) != 1 {
		t.Fatalf("%d demo accounts, want 1", len(demos))
	}
	d := demos[0]
	if !d.Readonly || d.ExpirationTime == nil || d.Name != "Demo Driver" || d.Attributes["demo"] != true {
		t.Fatalf("demo account %+v", d)
	}
	must(t, e.Core.Accounts.SetPassword(d.Email, "handed-out"))
	loginWorks(t, e, phone, "handed-out")
}

// failingStore fails every user creation once failing is set, standing in
// for a store that cannot write (A6's 500).
type failingStore struct {
	*storage.DB
	failing atomic.Bool
}

// As keeps the writes of every actor failing.
func (s *failingStore) As(*model.User) model.Store { return s }

func (s *failingStore) Update(fn func(model.Tx) error) error {
	if !s.failing.Load() {
		return s.DB.Update(fn)
	}
	return s.DB.Update(func(tx model.Tx) error { return fn(failingTx{tx}) })
}

type failingTx struct{ model.Tx }

func (t failingTx) Users() model.Table[model.User] { return failingUsers{t.Tx.Users()} }

type failingUsers struct{ model.Table[model.User] }

func (failingUsers) Create(*model.User) error { return errors.New("disk full") }

func TestRegistrationStoreFailure(t *testing.T) {
	var store *failingStore
	e := buildAcctEnv(t, func(db *storage.DB) model.Store { store = &failingStore{DB: db}; return store })
	store.failing.Store(true)
	tok := registrationToken(t, e, "new@example.com")
	r := e.Call(t, "", "POST", "/api2/auth/registration/complete", `{"token":"`+tok+`","fullName":"N","password":"p"}`)
	if r.Status != 500 || !strings.Contains(r.Body, `"message":"Failed to create user account."`) {
		t.Fatalf("A6: %d %s", r.Status, r.Body)
	}
}
