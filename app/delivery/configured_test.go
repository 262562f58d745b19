package delivery

import (
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app/config"
)

// Only the configured channels get a sender; an SMTP host needs a sender
// address, and a push credentials file must be readable.
func TestConfigured(t *testing.T) {
	s, err := Configured(config.Mail{}, config.SMS{}, config.Push{}, config.Notificators{})
	if err != nil || s.Mail != nil || s.SMS != nil || s.Push != nil || s.Telegram != nil || s.Webhook != nil {
		t.Errorf("nothing configured: %+v, %v", s, err)
	}
	s, err = Configured(config.Mail{Host: "smtp.example.com", Port: 587, From: "fleet@example.com"},
		config.SMS{URL: "https://sms.example.com/send"}, config.Push{}, config.Notificators{})
	if err != nil || s.Mail != (SMTP{Host: "smtp.example.com", Port: 587, From: "fleet@example.com"}) ||
		s.SMS != (SMS{URL: "https://sms.example.com/send"}) || s.Push != nil {
		t.Errorf("mail and SMS: %+v, %v", s, err)
	}
	s, err = Configured(config.Mail{}, config.SMS{}, config.Push{},
		config.Notificators{TelegramKey: "k", TelegramURL: "https://tg.example.com", WebhookURL: "https://hooks.example.com/fleet"})
	if err != nil || s.Telegram != (Telegram{Token: "k", APIURL: "https://tg.example.com"}) ||
		s.Webhook != (Webhook{URL: "https://hooks.example.com/fleet"}) {
		t.Errorf("telegram and webhook: %+v, %v", s, err)
	}
	if _, err := Configured(config.Mail{Host: "smtp.example.com"}, config.SMS{}, config.Push{}, config.Notificators{}); err == nil {
		t.Error("an SMTP host without a sender address")
	}
	if _, err := Configured(config.Mail{}, config.SMS{}, config.Push{CredentialsFile: filepath.Join(t.TempDir(), "missing.json")}, config.Notificators{}); err == nil {
		t.Error("a missing push credentials file")
	}
}
