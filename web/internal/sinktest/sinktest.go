// Package sinktest runs, for tests, real receivers on loopback for what
// fleetd sends out: an SMTP server, an SMS gateway, the Telegram Bot API
// and a webhook. Each puts what it receives in an Inbox, by recipient.
package sinktest

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
	"github.com/fleetd/fleetd/app/delivery"
)

// Inbox collects the messages received, by recipient.
type Inbox struct {
	mu   sync.Mutex
	msgs map[string][]string
}

func NewInbox() *Inbox { return &Inbox{msgs: map[string][]string{}} }

func (b *Inbox) add(to, text string) {
	b.mu.Lock()
	b.msgs[to] = append(b.msgs[to], text)
	b.mu.Unlock()
}

// To is what to received, in order.
func (b *Inbox) To(to string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.msgs[to]...)
}

// Count is the number of messages received in all.
func (b *Inbox) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, m := range b.msgs {
		n += len(m)
	}
	return n
}

// smtpSession is one SMTP conversation.
type smtpSession struct {
	box *Inbox
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

// SMTP runs an SMTP server on 127.0.0.1 and returns a sender for it.
func SMTP(t testing.TB, box *Inbox) delivery.SMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &smtpSession{box: box}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 5*time.Second, 5*time.Second
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return delivery.SMTP{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, From: "fleetd@example.com"}
}

// Gateway runs an SMS gateway expecting the JSON template and a bearer
// key; while fail is set it answers 502.
func Gateway(t testing.TB, box *Inbox, fail *atomic.Bool) delivery.SMS {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ To, Text string }
		if r.Header.Get("Authorization") != "Bearer gw-key" || r.Header.Get("Content-Type") != "application/json" ||
			json.NewDecoder(r.Body).Decode(&in) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if fail != nil && fail.Load() {
			http.Error(w, "gateway down", http.StatusBadGateway)
			return
		}
		box.add(in.To, in.Text)
	}))
	t.Cleanup(srv.Close)
	return delivery.SMS{URL: srv.URL, Authorization: "Bearer gw-key", ContentType: "application/json",
		Template: `{"to":"{phone}","text":"{message}"}`}
}

// Telegram runs the Bot API's sendMessage for bot token "bot-key"; the
// inbox is by chat id.
func Telegram(t testing.TB, box *Inbox) delivery.Telegram {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			ChatID string `json:"chat_id"`
			Text   string `json:"text"`
		}
		if r.URL.Path != "/botbot-key/sendMessage" || json.NewDecoder(r.Body).Decode(&in) != nil || in.ChatID == "" {
			http.Error(w, `{"ok":false,"description":"Bad Request"}`, http.StatusBadRequest)
			return
		}
		box.add(in.ChatID, in.Text)
		io.WriteString(w, `{"ok":true,"result":{}}`)
	}))
	t.Cleanup(srv.Close)
	return delivery.Telegram{Token: "bot-key", APIURL: srv.URL}
}

// Webhook runs a webhook receiver; the inbox holds the bodies under
// "webhook".
func Webhook(t testing.TB, box *Inbox) delivery.Webhook {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer hook-key" || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		box.add("webhook", string(body))
	}))
	t.Cleanup(srv.Close)
	return delivery.Webhook{URL: srv.URL, Authorization: "Bearer hook-key"}
}

// WaitIdle waits until n (the notifier) has delivered everything queued.
func WaitIdle(t testing.TB, n interface{ Idle() bool }) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !n.Idle(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("notifications still pending after 10 s")
		}
	}
}
