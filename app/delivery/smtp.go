package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	mail "github.com/wneessen/go-mail"
)

// SMTP sends plain-text e-mail through one SMTP server.
type SMTP struct {
	Host     string
	Port     int // 587 when zero; 465 means implicit TLS
	Username string
	Password string
	From     string
	// StartTLS requires STARTTLS; off, it is still used when the server
	// offers it (opportunistic).
	StartTLS bool
}

// Send delivers one message; ctx bounds the whole SMTP conversation.
func (s SMTP) Send(ctx context.Context, to, subject, text string) error {
	return s.send(ctx, to, subject, text, nil)
}

// SendFile delivers one message with a file attached (a report).
func (s SMTP) SendFile(ctx context.Context, to, subject, text, name string, data []byte) error {
	return s.send(ctx, to, subject, text, func(m *mail.Msg) error {
		return m.AttachReader(name, bytes.NewReader(data))
	})
}

func (s SMTP) send(ctx context.Context, to, subject, text string, attach func(*mail.Msg) error) error {
	if s.Host == "" || s.From == "" {
		return errors.New("smtp: host and from are required")
	}
	m := mail.NewMsg()
	if err := m.From(s.From); err != nil {
		return fmt.Errorf("smtp: from: %w", err)
	}
	if err := m.To(to); err != nil {
		return fmt.Errorf("smtp: to: %w", err)
	}
	m.Subject(subject)
	m.SetBodyString(mail.TypeTextPlain, text)
	if attach != nil {
		if err := attach(m); err != nil {
			return fmt.Errorf("smtp: attachment: %w", err)
		}
	}
	c, err := mail.NewClient(s.Host, s.options()...)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return fmt.Errorf("smtp %s: %w", s.Host, err)
	}
	return nil
}

func (s SMTP) options() []mail.Option {
	port := s.Port
	if port == 0 {
		port = 587
	}
	opts := []mail.Option{mail.WithPort(port)}
	switch {
	case port == 465:
		opts = append(opts, mail.WithSSL())
	case s.StartTLS:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if s.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover),
			mail.WithUsername(s.Username), mail.WithPassword(s.Password))
	}
	return opts
}
