package delivery

import (
	"errors"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/config"
	"github.com/fleetd/fleetd/app/notify"
)

// Senders are the adapters the config sets up; a channel left unconfigured
// is nil, which the core logs instead.
type Senders struct {
	Mail, SMS accounts.MessageSender
	Push      notify.PushSender
	// Telegram and Webhook are notification channels only.
	Telegram notify.Sender
	Webhook  notify.Poster
}

// Configured builds the senders of the mail.smtp, sms, push and
// notificator sections.
func Configured(m config.Mail, s config.SMS, p config.Push, n config.Notificators) (Senders, error) {
	var out Senders
	if m.Host != "" {
		if m.From == "" {
			return out, errors.New("mail.smtp.from is required with mail.smtp.host")
		}
		out.Mail = SMTP{Host: m.Host, Port: m.Port, Username: m.Username, Password: m.Password, From: m.From, StartTLS: m.StartTLS}
	}
	if s.URL != "" {
		out.SMS = SMS{URL: s.URL, Authorization: s.Authorization, Template: s.Template, ContentType: s.ContentType}
	}
	if p.CredentialsFile != "" {
		fcm, err := NewFCM(p.CredentialsFile, p.Endpoint, p.ProjectID, p.TokenURL, nil)
		if err != nil {
			return out, err
		}
		out.Push = fcm
	}
	if n.TelegramKey != "" {
		out.Telegram = Telegram{Token: n.TelegramKey, APIURL: n.TelegramURL}
	}
	if n.WebhookURL != "" {
		out.Webhook = Webhook{URL: n.WebhookURL, Authorization: n.WebhookAuthorization}
	}
	return out, nil
}
