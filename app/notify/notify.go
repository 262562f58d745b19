// Package notify tells users what happened: push notifications to their
// phones for the event types they chose (FCM, through a PushSender the
// composition root wires in), and notifications other areas send them. It
// keeps their notification settings and push tokens.
package notify

import (
	"log/slog"
	"time"

	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// Service is the notifier: settings, tokens and the push queue.
type Service struct {
	store model.Store
	now   func() time.Time
	log   *slog.Logger
	push  *pusher
}

// New builds the notifier; with a push sender in opts it hears every
// stored event from hub and queues its push notifications.
func New(store model.Store, opts PushOptions, hub *live.Hub, now func() time.Time, log *slog.Logger) *Service {
	n := &Service{store: store, now: now, log: log, push: newPusher(opts)}
	if opts.Sender != nil {
		hub.Observe(n.push.observe)
	}
	return n
}
