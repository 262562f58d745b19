package app

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// PushMessage is one notification to one device token.
type PushMessage struct {
	Token string
	Title string
	Body  string
	// Data travels beside the notification for the app (FCM: strings only).
	Data map[string]string
}

// PushSender delivers one push message (app/delivery has FCM HTTP v1). It
// wraps ErrPushTokenInvalid when the provider says the token is dead (the
// token is then removed) and ErrPushPermanent when a retry cannot help.
type PushSender interface {
	Push(ctx context.Context, m PushMessage) error
}

var (
	ErrPushTokenInvalid = errors.New("push token rejected by the provider")
	ErrPushPermanent    = errors.New("push failed permanently")
	errPushQueueFull    = &model.Error{Class: model.ClassUnavailable, Message: "Push queue full",
		Description: "Too many notifications are pending; this one was dropped"}
)

// PushOptions configure push delivery. Zero values get defaults.
type PushOptions struct {
	// Sender is nil when push is not configured: nothing is queued.
	Sender PushSender
	// QueueSize bounds the notifications waiting for the worker (1024);
	// past it new ones are dropped and counted, never waited for.
	QueueSize int
	// Attempts per message (3), the first retry after Backoff (2 s),
	// doubling; Timeout bounds one attempt (10 s).
	Attempts int
	Backoff  time.Duration
	Timeout  time.Duration
}

// Notification is a message for one user (NotifyUser). A non-empty Type
// (one of NotificationTypes) is sent only while the user has it on.
type Notification struct {
	Type  string
	Title string
	Body  string
	Data  map[string]string
}

// pushJob is one queued item: an event to fan out or a user notification.
type pushJob struct {
	event  *model.Event
	userID int64
	note   Notification
}

type pusher struct {
	opts                                   PushOptions
	queue                                  chan pushJob
	queued, dropped, sent, failed, removed atomic.Uint64
}

func newPusher(o PushOptions) *pusher {
	setDefault(&o.QueueSize, 1024)
	setDefault(&o.Attempts, 3)
	setDefault(&o.Backoff, 2*time.Second)
	setDefault(&o.Timeout, 10*time.Second)
	return &pusher{opts: o, queue: make(chan pushJob, o.QueueSize)}
}

// enqueue never blocks: a full queue drops the job.
func (p *pusher) enqueue(j pushJob) bool {
	select {
	case p.queue <- j:
		p.queued.Add(1)
		return true
	default:
		p.dropped.Add(1)
		return false
	}
}

// observe is the hub observer: events of a notification type are queued.
func (p *pusher) observe(_ int64, u live.Update) {
	for _, e := range u.Events {
		if eventNotification(e.Type) != "" {
			p.enqueue(pushJob{event: e})
		}
	}
}

// NotifyUser queues a notification to every push token of one user (for
// other areas: document expiry, maintenance reminders). It never blocks;
// without a push sender it does nothing.
func (c *Core) NotifyUser(userID int64, n Notification) error {
	if c.push.opts.Sender == nil {
		return nil
	}
	if n.Type != "" && !validType(n.Type) {
		return model.Invalid("type must be empty or one of %s", strings.Join(NotificationTypes, ", "))
	}
	if !c.push.enqueue(pushJob{userID: userID, note: n}) {
		return errPushQueueFull
	}
	return nil
}

// PushStats are push delivery's counters.
type PushStats struct {
	Queued, Dropped, Sent, Failed, TokensRemoved uint64
}

func (c *Core) PushStats() PushStats {
	p := c.push
	return PushStats{Queued: p.queued.Load(), Dropped: p.dropped.Load(), Sent: p.sent.Load(),
		Failed: p.failed.Load(), TokensRemoved: p.removed.Load()}
}

// RunPush delivers queued notifications until ctx ends; serve runs it in
// the background. Without it the queue fills and further items are dropped.
func (c *Core) RunPush(ctx context.Context) {
	if c.push.opts.Sender == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-c.push.queue:
			c.deliverPush(ctx, j)
		}
	}
}

func (c *Core) deliverPush(ctx context.Context, j pushJob) {
	var out []pushOut
	err := c.store.View(func(tx model.Tx) (err error) {
		if j.event != nil {
			out, err = c.eventRecipients(tx, j.event)
		} else {
			out, err = userRecipient(tx, j.userID, j.note, c.now())
		}
		return err
	})
	if err != nil {
		c.log.Error("push: recipients", "err", err)
		return
	}
	for _, o := range out {
		for _, t := range o.tokens {
			m := o.msg
			m.Token = t.Token
			c.sendPush(ctx, o.userID, m)
		}
	}
}

// sendPush tries one message with retries and backoff; a token the
// provider rejects is removed.
func (c *Core) sendPush(ctx context.Context, userID int64, m PushMessage) {
	p := c.push
	var err error
	for attempt := 0; attempt < p.opts.Attempts; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(p.opts.Backoff << (attempt - 1)):
			}
		}
		actx, cancel := context.WithTimeout(ctx, p.opts.Timeout)
		err = p.opts.Sender.Push(actx, m)
		cancel()
		if err == nil {
			p.sent.Add(1)
			return
		}
		if errors.Is(err, ErrPushTokenInvalid) {
			c.dropInvalidToken(userID, m.Token)
			return
		}
		if errors.Is(err, ErrPushPermanent) || ctx.Err() != nil {
			break
		}
	}
	p.failed.Add(1)
	c.log.Warn("push: delivery failed", "userId", userID, "err", err)
}

func (c *Core) dropInvalidToken(userID int64, token string) {
	c.push.removed.Add(1)
	if err := c.store.Update(func(tx model.Tx) error { return removeToken(tx, userID, token) }); err != nil {
		c.log.Error("push: removing an invalid token", "userId", userID, "err", err)
		return
	}
	c.log.Info("push: token removed, the provider rejected it", "userId", userID)
}
