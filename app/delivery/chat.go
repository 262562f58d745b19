package delivery

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
)

// Telegram sends messages through a Telegram bot (Bot API sendMessage),
// to the chat a user named or the configured one.
type Telegram struct {
	Token  string // the bot's token from @BotFather
	APIURL string // https://api.telegram.org when empty
	Client *http.Client
}

// Send posts text to chat; subject is its first line already.
func (t Telegram) Send(ctx context.Context, chat, _, text string) error {
	api := strings.TrimSuffix(t.APIURL, "/")
	if api == "" {
		api = "https://api.telegram.org"
	}
	body, err := json.Marshal(map[string]string{"chat_id": chat, "text": text})
	if err != nil {
		return err
	}
	return post(ctx, t.Client, "telegram", api+"/bot"+t.Token+"/sendMessage", "application/json", "", body)
}

// Webhook posts each event's JSON document to one URL.
type Webhook struct {
	URL           string
	Authorization string // sent as the Authorization header when set
	Client        *http.Client
}

// Post sends one document.
func (w Webhook) Post(ctx context.Context, body []byte) error {
	return post(ctx, w.Client, "webhook", w.URL, "application/json", w.Authorization, body)
}
