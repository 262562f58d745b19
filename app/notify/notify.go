// Package notify tells users what happened: Traccar's notifications of
// events on their channels (the web socket, e-mail, SMS, push through
// FCM, Telegram, a webhook; the composition root wires in the senders),
// push notifications for the event types the extended API's switches
// govern, and notifications other areas send them. It keeps the
// switches and push tokens.
package notify

import (
	"log/slog"
	"maps"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// Service is the notifier: settings, tokens, channels and the queue.
type Service struct {
	store     model.Store
	now       func() time.Time
	log       *slog.Logger
	hub       *live.Hub
	push      *pusher
	channels  Channels
	calendars calendarCache
	stats     channelStats
	wanted    wanted // wanted.go
}

// New builds the notifier: it hears every stored event from hub and
// queues its notifications (events.go), which Run delivers.
func New(store model.Store, opts PushOptions, channels Channels, hub *live.Hub, now func() time.Time, log *slog.Logger) *Service {
	if channels.MaxAge == 0 {
		channels.MaxAge = DefaultMaxAge
	}
	n := &Service{store: store, now: now, log: log, hub: hub, push: newPusher(opts), channels: channels}
	hub.Observe(n.observe)
	return n
}

// DefaultMaxAge is Traccar's notificator.timeThreshold.
const DefaultMaxAge = 15 * time.Minute

// channelStats count deliveries by channel.
type channelStats struct {
	mu           sync.Mutex
	sent, failed map[string]uint64
}

func (n *Service) counted(channel string, err error) {
	s := &n.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sent == nil {
		s.sent, s.failed = map[string]uint64{}, map[string]uint64{}
	}
	if err != nil {
		s.failed[channel]++
	} else {
		s.sent[channel]++
	}
}

// ChannelStats are the notifications delivered and failed, by channel.
func (n *Service) ChannelStats() (sent, failed map[string]uint64) {
	s := &n.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.sent), maps.Clone(s.failed)
}
