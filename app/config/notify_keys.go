package config

import "time"

// Notificators configure the notification channels beyond mail, SMS and
// push (which the mail.smtp, sms.http and push.fcm keys set up).
type Notificators struct {
	TelegramKey, TelegramChat, TelegramURL string
	WebhookURL, WebhookAuthorization       string
	TimeThreshold                          time.Duration
}

// notifyKeys take Traccar's notificator.* names.
func notifyKeys() []Key {
	return []Key{
		secret(field("notificator.telegram.key", "", "Telegram bot token: with it notifications may use the telegram notificator.",
			parseString, func(c *Config) *string { return &c.Notificators.TelegramKey }, asIs[string])),
		field("notificator.telegram.chatId", "", "Telegram chat told of notifications of users without a telegramChatId attribute.",
			parseString, func(c *Config) *string { return &c.Notificators.TelegramChat }, asIs[string]),
		field("notificator.telegram.url", "https://api.telegram.org", "Telegram Bot API root (a self-hosted Bot API server, or a test one).",
			parseURLOrEmpty, func(c *Config) *string { return &c.Notificators.TelegramURL }, asIs[string]),
		field("notificator.webhook.url", "", "URL each notified event is POSTed to as JSON (event, device, position, users): with it notifications may use the webhook notificator.",
			parseURLOrEmpty, func(c *Config) *string { return &c.Notificators.WebhookURL }, asIs[string]),
		secret(field("notificator.webhook.authorization", "", "Authorization header sent to the webhook (e.g. Bearer KEY).",
			parseString, func(c *Config) *string { return &c.Notificators.WebhookAuthorization }, asIs[string])),
		field("notificator.timeThreshold", 15*time.Minute, "Events older than this when stored (a device uploading its buffer) are kept but not notified.",
			parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Notificators.TimeThreshold }, formatDuration),
	}
}
