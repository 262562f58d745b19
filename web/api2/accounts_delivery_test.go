package api2_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/web/internal/sinktest"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// otpCode is the OTP of the last message to to: delivery is synchronous,
// so it is there once the request has been answered.
func otpCode(t *testing.T, box *sinktest.Inbox, to string) string {
	t.Helper()
	msgs := box.To(to)
	if len(msgs) == 0 {
		t.Fatalf("nothing delivered to %s", to)
	}
	code := sixDigits.FindString(msgs[len(msgs)-1])
	if code == "" {
		t.Fatalf("no code in %q", msgs[len(msgs)-1])
	}
	return code
}

func withSenders(mail, sms accounts.MessageSender) acctOption {
	return func(o *app.Options) { o.Accounts.Mail, o.Accounts.SMS = mail, sms }
}

// flows runs registration and password reset for the identifiers, taking
// each OTP from box.
func flows(t *testing.T, e *acctEnv, box *sinktest.Inbox, field, newID, existing string) {
	t.Helper()
	post := func(path, body string) *webtest.Response {
		r := e.Call(t, "", "POST", path, body)
		if r.Status != 200 {
			t.Fatalf("POST %s %s: %d %s", path, body, r.Status, r.Body)
		}
		return r
	}
	post(regPath, `{"`+field+`":"`+newID+`"}`)
	tok := e.token(t, otpCode(t, box, newID), newID, accounts.PurposeRegistration)
	post("/api2/auth/registration/complete", `{"token":"`+tok+`","fullName":"New","password":"new-secret"}`)
	loginWorks(t, e, newID, "new-secret")

	post(resetPath, `{"`+field+`":"`+existing+`"}`)
	tok = e.token(t, otpCode(t, box, existing), existing, accounts.PurposeReset)
	post("/api2/auth/password/reset", `{"token":"`+tok+`","newPassword":"reset-secret"}`)
	loginWorks(t, e, existing, "reset-secret")
}

func TestFlowsOverSMTP(t *testing.T) {
	box := sinktest.NewInbox()
	e := newAcctEnv(t, withSenders(sinktest.SMTP(t, box), nil))
	flows(t, e, box, "email", "new@example.com", aliceEmail)
}

func TestFlowsOverSMSGateway(t *testing.T) {
	box := sinktest.NewInbox()
	var fail atomic.Bool
	e := newAcctEnv(t, withSenders(nil, sinktest.Gateway(t, box, &fail)))
	flows(t, e, box, "phone", "+4930123456", "+15550001")

	// A failing gateway answers 503 and leaves no cool-down behind.
	fail.Store(true)
	r := e.Call(t, "", "POST", regPath, `{"phone":"+4930777777"}`)
	if r.Status != 503 || !strings.Contains(r.Body, "Failed to send OTP!") {
		t.Fatalf("gateway down: %d %s", r.Status, r.Body)
	}
	fail.Store(false)
	if r := e.Call(t, "", "POST", regPath, `{"phone":"+4930777777"}`); r.Status != 200 {
		t.Fatalf("retry: %d %s", r.Status, r.Body)
	}
}
