package api2_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

const updatePath = "/api2/security/update/init"

// updateCode asks H1 for a change of alice's field to value and returns the OTP.
func updateCode(t *testing.T, e *acctEnv, field, value string) {
	code := e.otpFor(t, updatePath, `{"field":"`+field+`","value":"`+value+`"}`, "alice", value)
	e.set("code", code, "wrong", wrong(code))
}

func TestAccountSecurity(t *testing.T) {
	newEmail := func(t *testing.T, e *acctEnv) {
		updateCode(t, e, "email", "alice@new.example")
	}
	runAccounts(t, []acctScenario{
		{Name: "H1 success", Method: "POST", Path: updatePath, Body: `{"field":"email","value":"alice@new.example"}`,
			As: "alice", Status: 200, Want: []string{`{"message":"OTP sent!"}`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if e.outbox.code("alice@new.example") == "" {
					t.Error("no code sent to the new address")
				}
			}},
		{Name: "H1 value used by another account", Method: "POST", Path: updatePath, Body: `{"field":"phone","value":"+15550002"}`,
			As: "alice", Status: 400, Want: []string{`"message":"Account already exists!"`}},
		{Name: "H1 bad field", Method: "POST", Path: updatePath, Body: `{"field":"name","value":"x"}`,
			As: "alice", Status: 400, Want: []string{"field must be email or phone"}},
		{Name: "H1 phone that is an e-mail", Method: "POST", Path: updatePath, Body: `{"field":"phone","value":"a@b.example"}`,
			As: "alice", Status: 400},
		{Name: "H1 read-only account", Before: func(t *testing.T, e *acctEnv) {
			_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["alice"], func(u *model.User) error { u.Readonly = true; return nil })
			must(t, err)
		}, Method: "POST", Path: updatePath, Body: `{"field":"email","value":"alice@new.example"}`,
			As: "alice", Status: 403},
		{Name: "H1 without session", Method: "POST", Path: updatePath, Body: `{"field":"email","value":"alice@new.example"}`,
			Status: 401},
		{Name: "H2 success on H1's path", Before: newEmail, Method: "POST", Path: updatePath,
			Body: `{"field":"email","value":"alice@new.example","otp":"{code}"}`, As: "alice", Status: 200,
			Want: []string{`"email":"alice@new.example"`, `"name":"alice"`, `"phone":"+15550001"`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if strings.Contains(r.Body, "password") {
					t.Errorf("the record shows a password: %s", r.Body)
				}
				loginWorks(t, e, "alice@new.example", "alice-secret")
			}},
		{Name: "H2 success on the alias path (phone)", Before: func(t *testing.T, e *acctEnv) {
			updateCode(t, e, "phone", "+15559999")
		}, Method: "POST", Path: "/api2/security/update/verify",
			Body: `{"field":"phone","value":"+1 555 9999","otp":"{code}"}`, As: "alice", Status: 200,
			Want: []string{`"phone":"+15559999"`}},
		{Name: "H2 wrong otp", Before: newEmail, Method: "POST", Path: updatePath,
			Body: `{"field":"email","value":"alice@new.example","otp":"{wrong}"}`, As: "alice", Status: 400,
			Want: []string{`"message":"Invalid OTP!"`}},
		{Name: "H2 another user's otp", Before: newEmail, Method: "POST", Path: updatePath,
			Body: `{"field":"email","value":"alice@new.example","otp":"{code}"}`, As: "bob", Status: 400,
			Want: []string{`"message":"Invalid OTP!"`}},
		{Name: "H2 alias without otp", Method: "POST", Path: "/api2/security/update/verify",
			Body: `{"field":"email","value":"alice@new.example"}`, As: "alice", Status: 400,
			Want: []string{`"message":"OTP & Identifier are required!"`}},
		{Name: "H3 success", Method: "POST", Path: "/api2/security/verify-password", Body: `{"password":"alice-secret"}`,
			As: "alice", Status: 200, Want: []string{`"email":"alice@example.com"`, `"name":"alice"`, `"id":`}},
		{Name: "H3 mismatch", Method: "POST", Path: "/api2/security/verify-password", Body: `{"password":"nope"}`,
			As: "alice", Status: 401, Want: []string{`"message":"Invalid password!"`}},
		{Name: "H3 without session", Method: "POST", Path: "/api2/security/verify-password",
			Body: `{"password":"alice-secret"}`, Status: 401},
	})
}

func TestNotificationsAPI(t *testing.T) {
	const settings, tokens = "/api2/notifications/settings", "/api2/notifications/tokens"
	addToken := func(t *testing.T, e *acctEnv) {
		must(t, e.Core.Notify.AddPushToken(e.userOf(t, "alice"), "tok-1"))
	}
	runAccounts(t, []acctScenario{
		{Name: "K1 defaults: all on", Method: "GET", Path: settings, As: "alice", Status: 200,
			Want: []string{`"ignition":true`, `"geofence":true`, `"deviceOverspeed":true`, `"maintenance":true`,
				`"alarm":true`, `"commandResult":true`}},
		{Name: "K1 without session", Method: "GET", Path: settings, Status: 401},
		{Name: "K2 success", Method: "PUT", Path: settings, Body: `{"type":"ignition","isOn":false}`, As: "alice",
			Status: 200, Want: []string{`{"isOn":false,"type":"ignition"}`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				got := e.Call(t, "alice", "GET", settings, "").Body
				if !strings.Contains(got, `"ignition":false`) || !strings.Contains(got, `"alarm":true`) {
					t.Errorf("K1 after K2: %s", got)
				}
				if other := e.Call(t, "bob", "GET", settings, "").Body; !strings.Contains(other, `"ignition":true`) {
					t.Errorf("bob's settings changed: %s", other)
				}
			}},
		{Name: "K2 unknown type", Method: "PUT", Path: settings, Body: `{"type":"weather","isOn":true}`, As: "alice", Status: 400},
		{Name: "K2 isOn missing", Method: "PUT", Path: settings, Body: `{"type":"alarm"}`, As: "alice", Status: 400},
		{Name: "K3 success", Method: "PUT", Path: tokens, Body: `{"token":"tok-1"}`, As: "alice", Status: 200,
			Want: []string{`{"message":"Token Extended"}`}},
		{Name: "K3 duplicate", Before: addToken, Method: "PUT", Path: tokens, Body: `{"token":"tok-1"}`, As: "alice",
			Status: 302, Want: []string{`"message":"Token already exists"`}},
		{Name: "K3 no token", Method: "PUT", Path: tokens, Body: `{}`, As: "alice", Status: 400,
			Want: []string{`"message":"No token provided"`}},
		{Name: "K4 no body", Method: "DELETE", Path: tokens, As: "alice", Status: 400,
			Want: []string{`"message":"No token provided"`}},
		{Name: "K4 unknown token", Method: "DELETE", Path: tokens, Body: `{"token":"tok-2"}`, As: "alice", Status: 404,
			Want: []string{`"message":"Token not found"`}},
		{Name: "K4 another user's token", Before: addToken, Method: "DELETE", Path: tokens, Body: `{"token":"tok-1"}`,
			As: "bob", Status: 404, Want: []string{`"message":"Token not found"`}},
		{Name: "K4 success", Before: addToken, Method: "DELETE", Path: tokens, Body: `{"token":"tok-1"}`, As: "alice",
			Status: 200, Want: []string{`{"message":"Token Removed"}`},
			After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if got := e.tokens(t, "alice"); len(got) != 0 {
					t.Errorf("tokens left: %v", got)
				}
			}},
		{Name: "K3 a token moves to its new user", Before: addToken, Method: "PUT", Path: tokens, Body: `{"token":"tok-1"}`,
			As: "bob", Status: 200, After: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if a, b := e.tokens(t, "alice"), e.tokens(t, "bob"); len(a) != 0 || len(b) != 1 {
					t.Errorf("alice %v, bob %v", a, b)
				}
			}},
	})
}

// TestPushTokenLimit: past 20 tokens the least recently added goes; a
// refreshed token counts as new.
func TestPushTokenLimit(t *testing.T) {
	e := newAcctEnv(t)
	alice := e.userOf(t, "alice")
	name := func(i int) string { return "tok-" + string(rune('a'+i)) }
	for i := range notify.MaxPushTokens {
		must(t, e.Core.Notify.AddPushToken(alice, name(i)))
	}
	if err := e.Core.Notify.AddPushToken(alice, name(0)); err != notify.ErrTokenExists {
		t.Fatalf("refresh: %v", err)
	}
	must(t, e.Core.Notify.AddPushToken(alice, name(notify.MaxPushTokens)))
	got := e.tokens(t, "alice")
	if len(got) != notify.MaxPushTokens || got[0] != name(2) || slices.Contains(got, name(1)) || !slices.Contains(got, name(0)) {
		t.Fatalf("tokens %v: want %d, tok-b evicted, tok-a kept", got, notify.MaxPushTokens)
	}
}

func (e *acctEnv) userOf(t *testing.T, name string) *model.User {
	t.Helper()
	u, err := e.Core.Accounts.User(model.System(), e.IDs[name])
	must(t, err)
	return u
}

func (e *acctEnv) tokens(t *testing.T, name string) []string {
	t.Helper()
	ts, err := e.Core.Notify.PushTokens(e.userOf(t, name))
	must(t, err)
	var out []string
	for _, tk := range ts {
		out = append(out, tk.Token)
	}
	return out
}
