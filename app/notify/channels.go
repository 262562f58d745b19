package notify

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
)

// Sender delivers one text to one address: an e-mail address, a phone
// number, a Telegram chat (app/delivery has the adapters).
type Sender interface {
	Send(ctx context.Context, to, subject, text string) error
}

// Poster delivers one JSON document to the configured webhook.
type Poster interface {
	Post(ctx context.Context, body []byte) error
}

// Channels are the notification channels besides push and the web
// socket, which are always there; a nil one is not configured.
type Channels struct {
	Mail, SMS, Telegram Sender
	Webhook             Poster
	// TelegramChat is the chat a user without a telegramChatId attribute
	// is told in (Traccar's notificator.telegram.chatId).
	TelegramChat string
	// MaxAge: events older than this are stored but not notified (a
	// device uploading its buffer after a day must not ring phones for
	// each one); Traccar's notificator.timeThreshold, 15 minutes.
	MaxAge time.Duration
}

// Notificators lists the channels this server can use (Traccar's
// /api/notifications/notificators): the web socket always, push when
// FCM is configured, the others when theirs is.
func (n *Service) Notificators() []string {
	var out []string
	for _, c := range model.Notificators {
		if n.configured(c) {
			out = append(out, c)
		}
	}
	return out
}

func (n *Service) configured(channel string) bool {
	switch channel {
	case model.NotifyWeb:
		return true
	case model.NotifyPush:
		return n.push.opts.Sender != nil
	case model.NotifyMail:
		return n.channels.Mail != nil
	case model.NotifySMS:
		return n.channels.SMS != nil
	case model.NotifyTelegram:
		return n.channels.Telegram != nil
	case model.NotifyWebhook:
		return n.channels.Webhook != nil
	}
	return false
}

// message is what one user is told of one event.
type message struct {
	subject, body string
}

// eventMessage words an event for user u, times in u's zone and speeds in
// u's unit (the server's, srv, when u chose none; srv may be nil).
func eventMessage(u *model.User, srv *model.Server, d *model.Device, e *model.Event, p *model.Position, names func(kind string, id int64) string) message {
	show := prefs.For(u, srv)
	what := EventText(e, show)
	switch {
	case e.GeofenceID != 0:
		what += " " + quoted(names(model.KindGeofence, e.GeofenceID))
	case e.MaintenanceID != 0:
		what += " " + quoted(names(model.KindMaintenance, e.MaintenanceID))
	}
	body := fmt.Sprintf("%s: %s at %s", d.Name, what, e.EventTime.In(show.Zone).Format("2006-01-02 15:04:05 MST"))
	if p != nil && p.Valid {
		body += fmt.Sprintf(", speed %s, https://www.openstreetmap.org/?mlat=%s&mlon=%s",
			show.SpeedText(p.Speed), strconv.FormatFloat(p.Latitude, 'f', 6, 64), strconv.FormatFloat(p.Longitude, 'f', 6, 64))
	}
	return message{subject: d.Name + ": " + what, body: body}
}

func quoted(name string) string {
	if name == "" {
		return ""
	}
	return strconv.Quote(name)
}

// EventText names what happened, speeds in the user's unit.
func EventText(e *model.Event, show prefs.Display) string {
	switch e.Type {
	case model.EventIgnitionOn:
		return "ignition on"
	case model.EventIgnitionOff:
		return "ignition off"
	case model.EventGeofenceEnter:
		return "entered geofence"
	case model.EventGeofenceExit:
		return "left geofence"
	case model.EventDeviceOverspeed:
		return "speed limit exceeded (" + show.SpeedText(model.Number(e.Attributes["speed"])) + ")"
	case model.EventAlarm:
		return fmt.Sprintf("alarm %v", e.Attributes["alarm"])
	case model.EventCommandResult:
		return fmt.Sprintf("command result: %v", e.Attributes["result"])
	case model.EventMaintenance:
		return "maintenance due"
	case model.EventDeviceOnline:
		return "online"
	case model.EventDeviceOffline:
		return "offline"
	case model.EventDeviceUnknown:
		return "status unknown"
	case model.EventDeviceMoving:
		return "moving"
	case model.EventDeviceStopped:
		return "stopped"
	case model.EventDriverChanged:
		return fmt.Sprintf("driver changed to %v", e.Attributes["driverUniqueId"])
	case model.EventFuelDrop:
		return fmt.Sprintf("fuel dropped from %v to %v", e.Attributes["before"], e.Attributes["after"])
	case model.EventFuelIncrease:
		return fmt.Sprintf("fuel rose from %v to %v", e.Attributes["before"], e.Attributes["after"])
	case model.EventQueuedCommandSent:
		return fmt.Sprintf("queued command %v sent", e.Attributes["type"])
	}
	return e.Type
}

// sendTo delivers a message to user u on channel. Push goes to every
// token of the user; the web channel is handled by the caller.
func (n *Service) sendTo(ctx context.Context, u *model.User, channel string, m message, data map[string]string) error {
	var s Sender
	to := ""
	switch channel {
	case model.NotifyMail:
		s, to = n.channels.Mail, u.Email
	case model.NotifySMS:
		s, to = n.channels.SMS, u.Phone
	case model.NotifyTelegram:
		s, to = n.channels.Telegram, n.channels.TelegramChat
		if chat, _ := u.Attributes["telegramChatId"].(string); chat != "" {
			to = chat
		}
	case model.NotifyPush:
		return n.pushTo(ctx, u.ID, PushMessage{Title: m.subject, Body: m.body, Data: data})
	default:
		return fmt.Errorf("%s: not a channel one user is sent to", channel)
	}
	if s == nil {
		return model.Invalid("the %s notificator is not configured on this server", channel)
	}
	if strings.TrimSpace(to) == "" {
		return model.Invalid("%s has no address for the %s notificator", u.Name, channel)
	}
	ctx, cancel := context.WithTimeout(ctx, n.push.opts.Timeout)
	defer cancel()
	return s.Send(ctx, to, m.subject, m.body)
}

// pushTo sends m to every push token of a user, with retries.
func (n *Service) pushTo(ctx context.Context, userID int64, m PushMessage) error {
	if n.push.opts.Sender == nil {
		return model.Invalid("push (firebase) is not configured on this server")
	}
	var tokens []model.PushToken
	if err := n.store.View(func(tx model.Tx) (err error) { tokens, err = tokensOf(tx, userID); return err }); err != nil {
		return err
	}
	if len(tokens) == 0 {
		return model.Invalid("no push token is registered for this user")
	}
	for _, t := range tokens {
		msg := m
		msg.Token = t.Token
		n.sendPush(ctx, userID, msg)
	}
	return nil
}

// splitList reads a comma-separated attribute.
func splitList(v any) []string {
	s, _ := v.(string)
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func containsID(list []string, id int64) bool {
	return slices.Contains(list, strconv.FormatInt(id, 10))
}
