package notify

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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

// pushJob is one queued item: an event to notify or a user notification.
type pushJob struct {
	event  *eventJob
	userID int64
	note   Notification
}

type pusher struct {
	opts                                   PushOptions
	queue                                  chan pushJob
	queued, dropped, sent, failed, removed atomic.Uint64
	// pending counts jobs queued or being delivered.
	pending atomic.Int64
}

func newPusher(o PushOptions) *pusher {
	model.SetDefault(&o.QueueSize, 1024)
	model.SetDefault(&o.Attempts, 3)
	model.SetDefault(&o.Backoff, 2*time.Second)
	model.SetDefault(&o.Timeout, 10*time.Second)
	return &pusher{opts: o, queue: make(chan pushJob, o.QueueSize)}
}

// enqueue never blocks: a full queue drops the job.
func (p *pusher) enqueue(j pushJob) bool {
	select {
	case p.queue <- j:
		p.queued.Add(1)
		p.pending.Add(1)
		return true
	default:
		p.dropped.Add(1)
		return false
	}
}

// NotifyUser queues a notification to every push token of one user (for
// other areas: document expiry, maintenance reminders). It never blocks;
// without a push sender it does nothing.
func (n *Service) NotifyUser(userID int64, note Notification) error {
	if n.push.opts.Sender == nil {
		return nil
	}
	if note.Type != "" && !validType(note.Type) {
		return model.Invalid("type must be empty or one of %s", strings.Join(NotificationTypes, ", "))
	}
	if !n.push.enqueue(pushJob{userID: userID, note: note}) {
		return errPushQueueFull
	}
	return nil
}

// PushStats are push delivery's counters.
type PushStats struct {
	Queued, Dropped, Sent, Failed, TokensRemoved uint64
}

func (n *Service) PushStats() PushStats {
	p := n.push
	return PushStats{Queued: p.queued.Load(), Dropped: p.dropped.Load(), Sent: p.sent.Load(),
		Failed: p.failed.Load(), TokensRemoved: p.removed.Load()}
}

// Run delivers queued notifications until ctx ends, a few at a time (a
// slow mail server must not hold the others); serve runs it in the
// background. Without it the queue fills and further items are dropped.
func (n *Service) Run(ctx context.Context) {
	var wg sync.WaitGroup
	defer wg.Wait()
	slots := make(chan struct{}, deliveryWorkers)
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-n.push.queue:
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			wg.Go(func() {
				defer func() { <-slots; n.push.pending.Add(-1) }()
				if j.event != nil {
					n.notifyEvent(ctx, j.event)
				} else {
					n.deliverPush(ctx, j)
				}
			})
		}
	}
}

// Idle reports whether every queued notification has been delivered (or
// has failed): nothing waits and nothing is in flight.
func (n *Service) Idle() bool { return n.push.pending.Load() == 0 }

// deliveryWorkers bounds the notifications delivered at once.
const deliveryWorkers = 8

func (n *Service) deliverPush(ctx context.Context, j pushJob) {
	var out []pushOut
	err := n.store.View(func(tx model.Tx) (err error) {
		out, err = userRecipient(tx, j.userID, j.note, n.now())
		return err
	})
	if err != nil {
		n.log.Error("push: recipients", "err", err)
		return
	}
	for _, o := range out {
		for _, t := range o.tokens {
			m := o.msg
			m.Token = t.Token
			n.sendPush(ctx, o.userID, m)
		}
	}
}

// sendPush tries one message with retries and backoff; a token the
// provider rejects is removed.
func (n *Service) sendPush(ctx context.Context, userID int64, m PushMessage) {
	p := n.push
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
			n.dropInvalidToken(userID, m.Token)
			return
		}
		if errors.Is(err, ErrPushPermanent) || ctx.Err() != nil {
			break
		}
	}
	p.failed.Add(1)
	n.log.Warn("push: delivery failed", "userId", userID, "err", err)
}

func (n *Service) dropInvalidToken(userID int64, token string) {
	n.push.removed.Add(1)
	if err := n.store.Update(func(tx model.Tx) error { return removeToken(tx, userID, token) }); err != nil {
		n.log.Error("push: removing an invalid token", "userId", userID, "err", err)
		return
	}
	n.log.Info("push: token removed, the provider rejected it", "userId", userID)
}
