package api2_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/delivery"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// inbox collects what the in-test SMTP server or SMS gateway received,
// by recipient.
type inbox struct {
	mu   sync.Mutex
	msgs map[string][]string
}

func newInbox() *inbox { return &inbox{msgs: map[string][]string{}} }

func (b *inbox) add(to, text string) {
	b.mu.Lock()
	b.msgs[to] = append(b.msgs[to], text)
	b.mu.Unlock()
}

// code is the OTP of the last message to to: delivery is synchronous, so
// it is there once the request has been answered.
func (b *inbox) code(t *testing.T, to string) string {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	msgs := b.msgs[to]
	if len(msgs) == 0 {
		t.Fatalf("nothing delivered to %s (have %v)", to, b.msgs)
	}
	code := sixDigits.FindString(msgs[len(msgs)-1])
	if code == "" {
		t.Fatalf("no code in %q", msgs[len(msgs)-1])
	}
	return code
}

// smtpSession is one SMTP conversation of the in-test server.
type smtpSession struct {
	box *inbox
	to  []string
}

func (s *smtpSession) Mail(string, *smtp.MailOptions) error { return nil }
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for _, to := range s.to {
		s.box.add(to, string(data))
	}
	return nil
}
func (s *smtpSession) Reset()        { s.to = nil }
func (s *smtpSession) Logout() error { return nil }

// startSMTP runs a real SMTP server on 127.0.0.1 and returns a sender for it.
func startSMTP(t *testing.T, box *inbox) delivery.SMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{box: box}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 5*time.Second, 5*time.Second
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return delivery.SMTP{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, From: "fleetd@example.com"}
}

// startGateway runs an in-test SMS gateway expecting the JSON template.
func startGateway(t *testing.T, box *inbox, fail *atomic.Bool) delivery.SMS {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ To, Text string }
		if r.Header.Get("Authorization") != "Bearer gw-key" || r.Header.Get("Content-Type") != "application/json" ||
			json.NewDecoder(r.Body).Decode(&in) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if fail.Load() {
			http.Error(w, "gateway down", http.StatusBadGateway)
			return
		}
		box.add(in.To, in.Text)
	}))
	t.Cleanup(srv.Close)
	return delivery.SMS{URL: srv.URL, Authorization: "Bearer gw-key", ContentType: "application/json",
		Template: `{"to":"{phone}","text":"{message}"}`}
}

func withSenders(mail, sms accounts.MessageSender) acctOption {
	return func(o *app.Options) { o.Accounts.Mail, o.Accounts.SMS = mail, sms }
}

// flows runs registration and password reset for the identifiers, taking
// each OTP from box.
func flows(t *testing.T, e *acctEnv, box *inbox, field, newID, existing string) {
	t.Helper()
	post := func(path, body string) *webtest.Response {
		r := e.Call(t, "", "POST", path, body)
		if r.Status != 200 {
			t.Fatalf("POST %s %s: %d %s", path, body, r.Status, r.Body)
		}
		return r
	}
	post(regPath, `{"`+field+`":"`+newID+`"}`)
	tok := e.token(t, box.code(t, newID), newID, accounts.PurposeRegistration)
	post("/api2/auth/registration/complete", `{"token":"`+tok+`","fullName":"New","password":"new-secret"}`)
	loginWorks(t, e, newID, "new-secret")

	post(resetPath, `{"`+field+`":"`+existing+`"}`)
	tok = e.token(t, box.code(t, existing), existing, accounts.PurposeReset)
	post("/api2/auth/password/reset", `{"token":"`+tok+`","newPassword":"reset-secret"}`)
	loginWorks(t, e, existing, "reset-secret")
}

func TestFlowsOverSMTP(t *testing.T) {
	box := newInbox()
	e := newAcctEnv(t, withSenders(startSMTP(t, box), nil))
	flows(t, e, box, "email", "new@example.com", aliceEmail)
}

func TestFlowsOverSMSGateway(t *testing.T) {
	box := newInbox()
	var fail atomic.Bool
	e := newAcctEnv(t, withSenders(nil, startGateway(t, box, &fail)))
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
