package api2_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

const updatePath = "/api2/security/update/init"

// updateCode asks H1 for a change of alice's field to value and returns the OTP.
func updateCode(t *testing.T, e *acctEnv, field, value string) map[string]string {
	code := e.otpFor(t, updatePath, `{"field":"`+field+`","value":"`+value+`"}`, "alice", value)
	return values("code", code, "wrong", wrong(code))
}

func TestAccountSecurity(t *testing.T) {
	newEmail := func(t *testing.T, e *acctEnv) map[string]string {
		return updateCode(t, e, "email", "alice@new.example")
	}
	runAcctScenarios(t, []acctScenario{
		{name: "H1 success", method: "POST", path: updatePath, body: `{"field":"email","value":"alice@new.example"}`,
			caller: "alice", status: 200, want: []string{`{"message":"OTP sent!"}`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if e.outbox.code("alice@new.example") == "" {
					t.Error("no code sent to the new address")
				}
			}},
		{name: "H1 value used by another account", method: "POST", path: updatePath, body: `{"field":"phone","value":"+15550002"}`,
			caller: "alice", status: 400, want: []string{`"message":"Account already exists!"`}},
		{name: "H1 bad field", method: "POST", path: updatePath, body: `{"field":"name","value":"x"}`,
			caller: "alice", status: 400, want: []string{"field must be email or phone"}},
		{name: "H1 phone that is an e-mail", method: "POST", path: updatePath, body: `{"field":"phone","value":"a@b.example"}`,
			caller: "alice", status: 400},
		{name: "H1 read-only account", setup: func(t *testing.T, e *acctEnv) map[string]string {
			_, err := e.core.UpdateUser(app.System(), e.ids["alice"], func(u *model.User) error { u.Readonly = true; return nil })
			must(t, err)
			return nil
		}, method: "POST", path: updatePath, body: `{"field":"email","value":"alice@new.example"}`,
			caller: "alice", status: 403},
		{name: "H1 without session", method: "POST", path: updatePath, body: `{"field":"email","value":"alice@new.example"}`,
			status: 401},
		{name: "H2 success on H1's path", setup: newEmail, method: "POST", path: updatePath,
			body: `{"field":"email","value":"alice@new.example","otp":"{code}"}`, caller: "alice", status: 200,
			want: []string{`"email":"alice@new.example"`, `"name":"alice"`, `"phone":"+15550001"`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if strings.Contains(r.Body, "password") {
					t.Errorf("the record shows a password: %s", r.Body)
				}
				loginWorks(t, e, "alice@new.example", "alice-secret")
			}},
		{name: "H2 success on the alias path (phone)", setup: func(t *testing.T, e *acctEnv) map[string]string {
			return updateCode(t, e, "phone", "+15559999")
		}, method: "POST", path: "/api2/security/update/verify",
			body: `{"field":"phone","value":"+1 555 9999","otp":"{code}"}`, caller: "alice", status: 200,
			want: []string{`"phone":"+15559999"`}},
		{name: "H2 wrong otp", setup: newEmail, method: "POST", path: updatePath,
			body: `{"field":"email","value":"alice@new.example","otp":"{wrong}"}`, caller: "alice", status: 400,
			want: []string{`"message":"Invalid OTP!"`}},
		{name: "H2 another user's otp", setup: newEmail, method: "POST", path: updatePath,
			body: `{"field":"email","value":"alice@new.example","otp":"{code}"}`, caller: "bob", status: 400,
			want: []string{`"message":"Invalid OTP!"`}},
		{name: "H2 alias without otp", method: "POST", path: "/api2/security/update/verify",
			body: `{"field":"email","value":"alice@new.example"}`, caller: "alice", status: 400,
			want: []string{`"message":"OTP & Identifier are required!"`}},
		{name: "H3 success", method: "POST", path: "/api2/security/verify-password", body: `{"password":"alice-secret"}`,
			caller: "alice", status: 200, want: []string{`"email":"alice@example.com"`, `"name":"alice"`, `"id":`}},
		{name: "H3 mismatch", method: "POST", path: "/api2/security/verify-password", body: `{"password":"nope"}`,
			caller: "alice", status: 401, want: []string{`"message":"Invalid password!"`}},
		{name: "H3 without session", method: "POST", path: "/api2/security/verify-password",
			body: `{"password":"alice-secret"}`, status: 401},
	})
}

func TestNotificationsAPI(t *testing.T) {
	const settings, tokens = "/api2/notifications/settings", "/api2/notifications/tokens"
	addToken := func(t *testing.T, e *acctEnv) map[string]string {
		must(t, e.core.Notify.AddPushToken(e.userOf(t, "alice"), "tok-1"))
		return nil
	}
	runAcctScenarios(t, []acctScenario{
		{name: "K1 defaults: all on", method: "GET", path: settings, caller: "alice", status: 200,
			want: []string{`"ignition":true`, `"geofence":true`, `"deviceOverspeed":true`, `"maintenance":true`,
				`"alarm":true`, `"commandResult":true`}},
		{name: "K1 without session", method: "GET", path: settings, status: 401},
		{name: "K2 success", method: "PUT", path: settings, body: `{"type":"ignition","isOn":false}`, caller: "alice",
			status: 200, want: []string{`{"isOn":false,"type":"ignition"}`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				got := e.call(t, "GET", settings, "", "alice").Body
				if !strings.Contains(got, `"ignition":false`) || !strings.Contains(got, `"alarm":true`) {
					t.Errorf("K1 after K2: %s", got)
				}
				if other := e.call(t, "GET", settings, "", "bob").Body; !strings.Contains(other, `"ignition":true`) {
					t.Errorf("bob's settings changed: %s", other)
				}
			}},
		{name: "K2 unknown type", method: "PUT", path: settings, body: `{"type":"weather","isOn":true}`, caller: "alice", status: 400},
		{name: "K2 isOn missing", method: "PUT", path: settings, body: `{"type":"alarm"}`, caller: "alice", status: 400},
		{name: "K3 success", method: "PUT", path: tokens, body: `{"token":"tok-1"}`, caller: "alice", status: 200,
			want: []string{`{"message":"Token Extended"}`}},
		{name: "K3 duplicate", setup: addToken, method: "PUT", path: tokens, body: `{"token":"tok-1"}`, caller: "alice",
			status: 302, want: []string{`"message":"Token already exists"`}},
		{name: "K3 no token", method: "PUT", path: tokens, body: `{}`, caller: "alice", status: 400,
			want: []string{`"message":"No token provided"`}},
		{name: "K4 no body", method: "DELETE", path: tokens, caller: "alice", status: 400,
			want: []string{`"message":"No token provided"`}},
		{name: "K4 unknown token", method: "DELETE", path: tokens, body: `{"token":"tok-2"}`, caller: "alice", status: 404,
			want: []string{`"message":"Token not found"`}},
		{name: "K4 another user's token", setup: addToken, method: "DELETE", path: tokens, body: `{"token":"tok-1"}`,
			caller: "bob", status: 404, want: []string{`"message":"Token not found"`}},
		{name: "K4 success", setup: addToken, method: "DELETE", path: tokens, body: `{"token":"tok-1"}`, caller: "alice",
			status: 200, want: []string{`{"message":"Token Removed"}`},
			check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
				if got := e.tokens(t, "alice"); len(got) != 0 {
					t.Errorf("tokens left: %v", got)
				}
			}},
		{name: "K3 a token moves to its new user", setup: addToken, method: "PUT", path: tokens, body: `{"token":"tok-1"}`,
			caller: "bob", status: 200, check: func(t *testing.T, e *acctEnv, r *webtest.Response) {
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
		must(t, e.core.Notify.AddPushToken(alice, name(i)))
	}
	if err := e.core.Notify.AddPushToken(alice, name(0)); err != notify.ErrTokenExists {
		t.Fatalf("refresh: %v", err)
	}
	must(t, e.core.Notify.AddPushToken(alice, name(notify.MaxPushTokens)))
	got := e.tokens(t, "alice")
	if len(got) != notify.MaxPushTokens || got[0] != name(2) || slices.Contains(got, name(1)) || !slices.Contains(got, name(0)) {
		t.Fatalf("tokens %v: want %d, tok-b evicted, tok-a kept", got, notify.MaxPushTokens)
	}
}

func (e *acctEnv) userOf(t *testing.T, name string) *model.User {
	t.Helper()
	u, err := e.core.User(app.System(), e.ids[name])
	must(t, err)
	return u
}

func (e *acctEnv) tokens(t *testing.T, name string) []string {
	t.Helper()
	ts, err := e.core.Notify.PushTokens(e.userOf(t, name))
	must(t, err)
	var out []string
	for _, tk := range ts {
		out = append(out, tk.Token)
	}
	return out
}
