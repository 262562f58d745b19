package api2_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/throttle"
)

// TestOTPSendBudget: the requests that send a code are counted per client
// address and per identifier (per user for H1); over either budget the
// answer is 429 in the spec's error format and nothing is sent.
func TestOTPSendBudget(t *testing.T) {
	budget := func(perIP, perAccount int) acctOption {
		return func(o *app.Options) {
			o.Accounts.OTPSends = throttle.Options{MaxPerIP: perIP, MaxPerAccount: perAccount, Window: time.Hour}
		}
	}
	type request struct {
		path, body, caller string
		status             int
		soon               bool // sent within the resend cool-down of the one before
	}
	tests := []struct {
		name     string
		opt      acctOption
		requests []request
		sent     int // messages in the outbox at the end
	}{
		{"one identifier", budget(100, 2), []request{
			{resetPath, `{"email":"alice@example.com"}`, "", 200, false},
			{resetPath, `{"email":"alice@example.com"}`, "", 200, false},
			{resetPath, `{"email":"alice@example.com"}`, "", 429, false},
			{resetPath, `{"email":"bob@example.com"}`, "", 200, false},
		}, 3},
		{"one client address, many identifiers", budget(3, 100), []request{
			{regPath, `{"email":"new1@example.com"}`, "", 200, false},
			{regPath, `{"email":"new2@example.com"}`, "", 200, false},
			{resetPath, `{"phone":"+15550001"}`, "", 200, false},
			{regPath, `{"email":"new3@example.com"}`, "", 429, false},
			{"/api2/auth/demo-login/init", `{"phone":"+15550009","fullName":"Dee"}`, "", 429, false},
		}, 3},
		{"a signed-in user changing contacts", budget(100, 2), []request{
			{updatePath, `{"field":"email","value":"a1@example.com"}`, "alice", 200, false},
			{updatePath, `{"field":"email","value":"a2@example.com"}`, "alice", 200, false},
			{updatePath, `{"field":"phone","value":"+15550077"}`, "alice", 429, false},
			{updatePath, `{"field":"email","value":"b1@example.com"}`, "bob", 200, false},
		}, 3},
		{"several users, one new address", budget(100, 2), []request{
			{updatePath, `{"field":"email","value":"shared@example.com"}`, "alice", 200, false},
			{updatePath, `{"field":"email","value":"shared@example.com"}`, "bob", 200, false},
			{updatePath, `{"field":"email","value":"shared@example.com"}`, "carol", 429, false},
		}, 2},
		{"a cool-down refusal is given back", budget(100, 2), []request{
			{resetPath, `{"email":"alice@example.com"}`, "", 200, false},
			{resetPath, `{"email":"alice@example.com"}`, "", 429, true},
			{resetPath, `{"email":"alice@example.com"}`, "", 429, true},
			{resetPath, `{"email":"alice@example.com"}`, "", 200, false},
			{resetPath, `{"email":"alice@example.com"}`, "", 429, false},
		}, 2},
		{"unknown accounts count too", budget(2, 100), []request{
			{resetPath, `{"email":"nobody1@example.com"}`, "", 404, false},
			{resetPath, `{"email":"nobody2@example.com"}`, "", 404, false},
			{resetPath, `{"email":"alice@example.com"}`, "", 429, false},
		}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newAcctEnv(t, tc.opt)
			for i, rq := range tc.requests {
				if !rq.soon {
					e.clock.add(2 * time.Minute) // past the per-identifier resend cool-down
				}
				r := e.Call(t, rq.caller, "POST", rq.path, rq.body)
				if r.Status != rq.status {
					t.Fatalf("request %d %s %s: %d %s, want %d", i, rq.path, rq.body, r.Status, r.Body, rq.status)
				}
				if rq.status == 429 && !rq.soon && r.Body != `{"message":"Too many requests","description":"Too many codes were requested, try again later"}` {
					t.Errorf("429 body = %s", r.Body)
				}
			}
			if got := len(e.outbox.sent); got != tc.sent {
				t.Errorf("%d messages sent, want %d", got, tc.sent)
			}
		})
	}
}

// The budget is a fixed window: an hour after the first counted request
// the identifier may ask again.
func TestOTPSendBudgetWindow(t *testing.T) {
	e := newAcctEnv(t, func(o *app.Options) {
		o.Accounts.OTPSends = throttle.Options{MaxPerIP: 100, MaxPerAccount: 1, Window: time.Hour}
	})
	for i, step := range []struct {
		wait   time.Duration
		status int
	}{{0, 200}, {2 * time.Minute, 429}, {59 * time.Minute, 200}} {
		e.clock.add(step.wait)
		r := e.Call(t, "", "POST", resetPath, `{"email":"alice@example.com"}`)
		if r.Status != step.status {
			t.Fatalf("request %d after %v: %d %s, want %d", i, step.wait, r.Status, r.Body, step.status)
		}
	}
}

// failFirst is a MessageSender whose first n deliveries fail.
type failFirst struct {
	n int
	*outbox
}

func (f *failFirst) Send(ctx context.Context, to, subject, text string) error {
	if f.n > 0 {
		f.n--
		return errors.New("mail server unreachable")
	}
	return f.outbox.Send(ctx, to, subject, text)
}

// A delivery that failed sent nothing: it does not use the budget up.
func TestOTPSendBudgetFailedDelivery(t *testing.T) {
	mail := &failFirst{n: 2, outbox: &outbox{}}
	e := newAcctEnv(t, func(o *app.Options) {
		o.Accounts.Mail = mail
		o.Accounts.OTPSends = throttle.Options{MaxPerIP: 100, MaxPerAccount: 1, Window: time.Hour}
	})
	for i, want := range []int{503, 503, 200, 429} {
		e.clock.add(2 * time.Minute)
		r := e.Call(t, "", "POST", resetPath, `{"email":"alice@example.com"}`)
		if r.Status != want {
			t.Fatalf("request %d: %d %s, want %d", i, r.Status, r.Body, want)
		}
	}
	if len(mail.sent) != 1 {
		t.Errorf("%d messages delivered, want 1", len(mail.sent))
	}
}
