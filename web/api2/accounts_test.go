package api2_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
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
	return e.token(t, resetCode(t, e), aliceEmail, app.PurposeReset)
}

func registrationToken(t *testing.T, e *acctEnv, identifier string) string {
	field := "email"
	if !strings.Contains(identifier, "@") {
		field = "phone"
	}
	code := e.otpFor(t, regPath, `{"`+field+`":"`+identifier+`"}`, "", identifier)
	return e.token(t, code, identifier, app.PurposeRegistration)
}

func values(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// loginWorks checks that identifier/password log in through A2.
func loginWorks(t *testing.T, e *acctEnv, identifier, password string) {
	t.Helper()
	r := e.call(t, "POST", "/api2/auth/login", `{"identifier":"`+identifier+`","password":"`+password+`"}`, "")
	if r.Status != 200 || !setsSession(r) {
		t.Fatalf("login %s: %d %s", identifier, r.Status, r.Body)
	}
}

func TestAccountAccess(t *testing.T) {
	const a1 = "/api2/auth/otp/verify"
	const login = "/api2/auth/login"
	aliceReset := func(t *testing.T, e *acctEnv) map[string]string {
		code := resetCode(t, e)
		return values("code", code, "wrong", wrong(code))
	}
	runAcctScenarios(t, []acctScenario{
		// A1
		{name: "A1 otp missing", method: "POST", path: a1, body: `{"identifier":"alice@example.com","type":"reset"}`,
			status: 400, want: []string{`"message":"OTP & Identifier are required!"`}},
		{name: "A1 identifier missing", method: "POST", path: a1, body: `{"otp":"123456","type":"reset"}`,
			status: 400, want: []string{`"message":"OTP & Identifier are required!"`}},
		{name: "A1 wrong otp", setup: aliceReset, method: "POST", path: a1,
			body: `{"otp":"{wrong}","identifier":"alice@example.com","type":"reset"}`, status: 400, want: []string{`"message":"Invalid OTP!"`}},
		{name: "A1 otp of another purpose", setup: aliceReset, method: "POST", path: a1,
			body: `{"otp":"{code}","identifier":"alice@example.com","type":"registration"}`, status: 400, want: []string{`"message":"Invalid OTP!"`}},
		{name: "A1 expired", setup: func(t *testing.T, e *acctEnv) map[string]string {
			v := aliceReset(t, e)
			e.clock.add(10*time.Minute + time.Second)
			return v
		}, method: "POST", path: a1, body: `{"otp":"{code}","identifier":"alice@example.com","type":"reset"}`,
			status: 400, want: []string{`"message":"OTP has expired!"`}},
		{name: "A1 too many wrong tries end the otp", setup: func(t *testing.T, e *acctEnv) map[string]string {
			v := aliceReset(t, e)
			for range 5 {
				e.call(t, "POST", a1, `{"otp":"`+v["wrong"]+`","identifier":"alice@example.com","type":"reset"}`, "")
			}
			return v
		}, method: "POST", path: a1, body: `{"otp":"{code}","identifier":"alice@example.com","type":"reset"}`,
			status: 400, want: []string{`"message":"Invalid OTP!"`}},
		{name: "A1 unknown type", method: "POST", path: a1, body: `{"otp":"123456","identifier":"alice@example.com","type":"x"}`,
			status: 400, want: []string{"registration, reset or demo_auth"}},
		{name: "A1 update types belong to H2", method: "POST", path: a1,
			body: `{"otp":"123456","identifier":"alice@example.com","type":"update_email"}`, status: 400,
			want: []string{"/api2/security/update/init"}},
		{name: "A1 success, single use", setup: aliceReset, method: "POST", path: a1,
			body: `{"otp":"{code}","identifier":"ALICE@example.com","type":"reset"}`, status: 200, want: []string{`"token":"`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				code := e.outbox.code(aliceEmail)
				again := e.call(t, "POST", a1, `{"otp":"`+code+`","identifier":"alice@example.com","type":"reset"}`, "")
				if again.Status != 400 || !strings.Contains(again.Body, "Invalid OTP!") {
					t.Errorf("second use: %d %s", again.Status, again.Body)
				}
			}},
		{name: "A1 maintenance", setup: maintenance, method: "POST", path: a1,
			body: `{"otp":"123456","identifier":"alice@example.com","type":"reset"}`, status: 403, want: []string{`"message":"Server not running!"`}},

		// A2
		{name: "A2 missing", method: "POST", path: login, body: `{"identifier":"alice@example.com"}`,
			status: 400, want: []string{`"message":"Identifier & password are required!"`}},
		{name: "A2 no body", method: "POST", path: login, status: 400, want: []string{`"message":"Identifier & password are required!"`}},
		{name: "A2 maintenance", setup: maintenance, method: "POST", path: login,
			body: `{"identifier":"alice@example.com","password":"alice-secret"}`, status: 403, want: []string{`"message":"Server not running!"`}},
		{name: "A2 several users", method: "POST", path: login, body: `{"identifier":"+1-555-0002","password":"bob-secret"}`,
			status: 400, want: []string{`"message":"Multiple users found!"`,
				`"description":"Multiple users found with same credentials please use another method!"`}},
		{name: "A2 wrong password", method: "POST", path: login, body: `{"identifier":"alice@example.com","password":"nope"}`,
			status: 401, want: []string{`"message":"Login failed!"`, `"description":"Invalid Credentials!"`}},
		{name: "A2 unknown identifier", method: "POST", path: login, body: `{"identifier":"nobody@example.com","password":"x"}`,
			status: 404, want: []string{`"message":"Credentials error!"`, "registered with as the identifier"}},
		{name: "A2 throttled after 3 failures", setup: func(t *testing.T, e *acctEnv) map[string]string {
			for range 3 {
				e.call(t, "POST", login, `{"identifier":"alice@example.com","password":"nope"}`, "")
			}
			return nil
		}, method: "POST", path: login, body: `{"identifier":"alice@example.com","password":"alice-secret"}`, status: 429},
		{name: "A2 by e-mail: the cookie serves /api too", method: "POST", path: login,
			body: `{"identifier":"Alice@Example.com","password":"alice-secret"}`, status: 200, want: []string{`{"email":"alice@example.com"}`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if !setsSession(r) {
					t.Fatal("no JSESSIONID cookie")
				}
				req := e.call(t, "GET", "/api2/notifications/settings", "", "")
				if req.Status != 401 {
					t.Errorf("without cookie: %d", req.Status)
				}
			}},
		{name: "A2 by phone", method: "POST", path: login, body: `{"identifier":"+1 (555) 0001","password":"alice-secret"}`,
			status: 200, want: []string{`{"email":"alice@example.com"}`}},

		// A3
		{name: "A3 neither email nor phone", method: "POST", path: resetPath, body: `{}`,
			status: 400, want: []string{`"message":"Email or phone number is required!"`}},
		{name: "A3 maintenance", setup: maintenance, method: "POST", path: resetPath, body: `{"email":"alice@example.com"}`,
			status: 403, want: []string{`"message":"Server not running!"`}},
		{name: "A3 no such user", method: "POST", path: resetPath, body: `{"email":"nobody@example.com"}`,
			status: 404, want: []string{`"message":"User not found!"`}},
		{name: "A3 several users", method: "POST", path: resetPath, body: `{"phone":"+15550002"}`,
			status: 400, want: []string{`"message":"Multiple users found!"`, "used by multiple users"}},
		{name: "A3 success", method: "POST", path: resetPath, body: `{"email":"alice@example.com"}`,
			status: 200, want: []string{`"message":"OTP sent successfully!"`, `"success":true`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if e.outbox.code(aliceEmail) == "" {
					t.Error("no code e-mailed")
				}
			}},
		{name: "A3 resend inside the cool-down", setup: aliceReset, method: "POST", path: resetPath,
			body: `{"email":"alice@example.com"}`, status: 429, want: []string{"wait"}},
		{name: "A3 resend after the cool-down", setup: func(t *testing.T, e *acctEnv) map[string]string {
			v := aliceReset(t, e)
			e.clock.add(time.Minute)
			return v
		}, method: "POST", path: resetPath, body: `{"email":"alice@example.com"}`, status: 200},

		// A4
		{name: "A4 missing", method: "POST", path: "/api2/auth/password/reset", body: `{"token":"x"}`,
			status: 400, want: []string{`"message":"Token and identifier are required!"`}},
		{name: "A4 bad token", method: "POST", path: "/api2/auth/password/reset", body: `{"token":"x","newPassword":"n3w"}`,
			status: 400, want: []string{`"message":"Invalid Token!"`}},
		{name: "A4 expired token", setup: func(t *testing.T, e *acctEnv) map[string]string {
			tok := resetToken(t, e)
			e.clock.add(11 * time.Minute)
			return values("token", tok)
		}, method: "POST", path: "/api2/auth/password/reset", body: `{"token":"{token}","newPassword":"n3w"}`,
			status: 400, want: []string{`"message":"Token has expired!"`}},
		{name: "A4 registration token", setup: func(t *testing.T, e *acctEnv) map[string]string {
			return values("token", registrationToken(t, e, "new@example.com"))
		}, method: "POST", path: "/api2/auth/password/reset", body: `{"token":"{token}","newPassword":"n3w"}`,
			status: 401, want: []string{`"message":"Unauthorized token!"`}},
		{name: "A4 success", setup: func(t *testing.T, e *acctEnv) map[string]string {
			return values("token", resetToken(t, e))
		}, method: "POST", path: "/api2/auth/password/reset", body: `{"token":"{token}","newPassword":"n3w-secret"}`,
			status: 200, want: []string{`"message":"Password Updated!"`, `"success":true`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				loginWorks(t, e, aliceEmail, "n3w-secret")
			}},

		// A5
		{name: "A5 neither email nor phone", method: "POST", path: regPath, body: `{"email":""}`,
			status: 400, want: []string{`"message":"Email or phone number is required!"`}},
		{name: "A5 maintenance", setup: maintenance, method: "POST", path: regPath, body: `{"email":"new@example.com"}`,
			status: 403, want: []string{`"message":"Server not running!"`}},
		{name: "A5 account exists (e-mail)", method: "POST", path: regPath, body: `{"email":"alice@example.com"}`,
			status: 400, want: []string{`"message":"Account already exists!"`}},
		{name: "A5 account exists (phone)", method: "POST", path: regPath, body: `{"phone":"+15550001"}`,
			status: 400, want: []string{`"message":"Account already exists!"`}},
		{name: "A5 registration switched off", setup: func(t *testing.T, e *acctEnv) map[string]string {
			admin, err := e.core.User(app.System(), e.ids["admin"])
			must(t, err)
			_, err = e.core.UpdateServer(admin, func(s *model.Server) error { s.Registration = false; return nil })
			must(t, err)
			return nil
		}, method: "POST", path: regPath, body: `{"email":"new@example.com"}`, status: 403, want: []string{"Registration is disabled"}},
		{name: "A5 success", method: "POST", path: regPath, body: `{"email":"new@example.com"}`,
			status: 200, want: []string{`"message":"OTP sent successfully!"`, `"success":true`}},

		// A6
		{name: "A6 missing", method: "POST", path: "/api2/auth/registration/complete", body: `{"token":"x","password":"p"}`,
			status: 400, want: []string{`"message":"token, fullName & password are required!"`}},
		{name: "A6 bad token", method: "POST", path: "/api2/auth/registration/complete",
			body: `{"token":"x","fullName":"New","password":"p"}`, status: 400, want: []string{`"message":"Invalid Token!"`}},
		{name: "A6 expired token", setup: func(t *testing.T, e *acctEnv) map[string]string {
			tok := registrationToken(t, e, "new@example.com")
			e.clock.add(11 * time.Minute)
			return values("token", tok)
		}, method: "POST", path: "/api2/auth/registration/complete", body: `{"token":"{token}","fullName":"New","password":"p"}`,
			status: 400, want: []string{`"message":"Token has expired!"`}},
		{name: "A6 reset token", setup: func(t *testing.T, e *acctEnv) map[string]string {
			return values("token", resetToken(t, e))
		}, method: "POST", path: "/api2/auth/registration/complete", body: `{"token":"{token}","fullName":"New","password":"p"}`,
			status: 401, want: []string{`"message":"Unauthorized token!"`}},
		{name: "A6 success by phone", setup: func(t *testing.T, e *acctEnv) map[string]string {
			return values("token", registrationToken(t, e, "+4930123456"))
		}, method: "POST", path: "/api2/auth/registration/complete",
			body:   `{"token":"{token}","fullName":"Neu","password":"neu-secret"}`,
			status: 200, want: []string{`"message":"Account registered successfully"`, `"success":true`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				loginWorks(t, e, "+49 30 123456", "neu-secret")
			}},

		// A7
		{name: "A7 missing", method: "POST", path: "/api2/auth/demo-login/init", body: `{"phone":"+4930123456"}`,
			status: 400, want: []string{`"message":"Phone number and Full name is required!"`}},
		{name: "A7 success", method: "POST", path: "/api2/auth/demo-login/init", body: `{"phone":"+4930123456","fullName":"Demo"}`,
			status: 200, want: []string{`"message":"OTP sent successfully!"`, `"success":true`}},
	})
}

// TestRegistrationByEmail runs A5 -> A1 -> A6 -> A2; the token is single use.
func TestRegistrationByEmail(t *testing.T) {
	e := newAcctEnv(t)
	tok := registrationToken(t, e, "new@example.com")
	body := `{"token":"` + tok + `","fullName":"New User","password":"new-secret"}`
	if r := e.call(t, "POST", "/api2/auth/registration/complete", body, ""); r.Status != 200 {
		t.Fatalf("A6: %d %s", r.Status, r.Body)
	}
	if r := e.call(t, "POST", "/api2/auth/registration/complete", body, ""); r.Status != 400 || !strings.Contains(r.Body, "Invalid Token!") {
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
		e.token(t, code, phone, app.PurposeDemo)
		e.clock.add(time.Minute)
	}
	users, err := e.core.Users(app.System(), 0)
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
	must(t, e.core.SetPassword(d.Email, "handed-out"))
	loginWorks(t, e, phone, "handed-out")
}

// failingStore fails every user creation, standing in for a store that
// cannot write (A6's 500).
type failingStore struct{ *storage.DB }

func (s failingStore) Update(fn func(model.Tx) error) error {
	return s.DB.Update(func(tx model.Tx) error { return fn(failingTx{tx}) })
}

type failingTx struct{ model.Tx }

func (t failingTx) Users() model.Table[model.User] { return failingUsers{t.Tx.Users()} }

type failingUsers struct{ model.Table[model.User] }

func (failingUsers) Create(*model.User) error { return errors.New("disk full") }

func TestRegistrationStoreFailure(t *testing.T) {
	db := webtest.OpenStore(t)
	e := buildAcctEnv(t, db, failingStore{db})
	tok := registrationToken(t, e, "new@example.com")
	r := e.call(t, "POST", "/api2/auth/registration/complete", `{"token":"`+tok+`","fullName":"N","password":"p"}`, "")
	if r.Status != 500 || !strings.Contains(r.Body, `"message":"Failed to create user account."`) {
		t.Fatalf("A6: %d %s", r.Status, r.Body)
	}
}
