package notify

import (
	"context"
	"errors"
	"slices"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// Announcement is a message to users (Traccar's NotificationMessage).
type Announcement struct {
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

// Test sends a test message to the caller on channel, or on every
// configured channel when channel is "" (Traccar's /notifications/test).
// It waits for the delivery, so the caller learns whether the channel
// works.
func (n *Service) Test(ctx context.Context, actor *model.User, channel string) error {
	channels := n.Notificators()
	if channel != "" {
		if !slices.Contains(model.Notificators, channel) {
			return model.NotFound("Notificator")
		}
		channels = []string{channel}
	}
	m := message{subject: "fleetd: test notification", body: "This is a test notification from fleetd."}
	var errs []error
	for _, c := range channels {
		errs = append(errs, n.deliver(ctx, actor, c, m))
	}
	return failed(errs...)
}

// Send is an announcement from a manager or administrator to users on
// one channel: the given ones, or with none every user the sender manages
// (an administrator: every user). Traccar's /notifications/send.
func (n *Service) Send(ctx context.Context, actor *model.User, channel string, userIDs []int64, a Announcement) error {
	if !actor.Administrator && !actor.Manager() {
		return model.Forbidden("Only managers and administrators may send announcements")
	}
	if channel == model.NotifyWeb || !slices.Contains(model.Notificators, channel) {
		return model.Invalid("announcements go by %s", "mail, sms, firebase, telegram or webhook")
	}
	var users []*model.User
	err := n.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if len(userIDs) == 0 {
			return tx.Users().List(func(u *model.User) bool {
				if ok, _ := a.CanSee(model.KindUser, u.ID); ok && u.ID != actor.ID {
					users = append(users, u)
				}
				return true
			})
		}
		for _, id := range userIDs {
			if err := a.MustSee(model.KindUser, id); err != nil {
				return err
			}
			u, err := tx.Users().Get(id)
			if err != nil {
				return err
			}
			users = append(users, u)
		}
		return nil
	})
	if err != nil {
		return err
	}
	m := message{subject: a.Subject, body: a.Body}
	var errs []error
	for _, u := range users {
		if !u.Disabled {
			errs = append(errs, n.deliver(ctx, u, channel, m))
		}
	}
	return failed(errs...)
}

// deliver sends m to u on one channel now; the web channel shows it as a
// "test" event on the user's sockets.
func (n *Service) deliver(ctx context.Context, u *model.User, channel string, m message) error {
	var err error
	switch channel {
	case model.NotifyWeb:
		n.hub.ToUser(u.ID, 0, live.Update{Events: []*model.Event{{Type: "test", EventTime: n.now().UTC(),
			Attributes: model.Attributes{"message": m.body}}}})
	case model.NotifyWebhook:
		err = n.postWebhook(ctx, webhookEvent{Event: &model.Event{Type: "test", EventTime: n.now().UTC(),
			Attributes: model.Attributes{"message": m.body}}, Users: []int64{u.ID}})
	default:
		err = n.sendTo(ctx, u, channel, m, map[string]string{"type": "test"})
	}
	n.counted(channel, err)
	return err
}

// failed is nil when every delivery worked; a refusal (a channel that is
// not configured, a user without an address) as it is; else a 503 with
// what the channels said.
func failed(errs ...error) error {
	err := errors.Join(errs...)
	if err == nil {
		return nil
	}
	for _, e := range errs {
		if model.ClassOf(e) != 0 {
			return e
		}
	}
	return &model.Error{Class: model.ClassUnavailable, Message: "Notification not delivered", Description: err.Error()}
}
