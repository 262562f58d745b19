package app

import (
	"sync"
	"sync/atomic"
)

// Update is one live message in Traccar's socket format; empty parts are
// left out of the JSON, and an empty Update is the keep-alive "{}".
type Update struct {
	Devices   []*Device   `json:"devices,omitempty"`
	Positions []*Position `json:"positions,omitempty"`
	Events    []*Event    `json:"events,omitempty"`
}

// subscriberQueue bounds what a slow client may have pending; past it the
// client is dropped, never the ingest slowed.
const subscriberQueue = 256

// hub fans live updates out to subscribers that may see the device, and
// to observers (push notifications, metrics) that see everything.
type hub struct {
	mu        sync.RWMutex
	subs      map[*Subscription]struct{}
	observers []func(deviceID int64, u Update)
	gen       atomic.Uint64 // bumped when visibility may have changed
	core      *Core
}

// Subscription receives the updates one user may see. C is closed when the
// subscription ends, including when the hub drops a client that fell behind.
type Subscription struct {
	C    <-chan Update
	ch   chan Update
	user *User
	hub  *hub
	once sync.Once

	mu      sync.Mutex
	gen     uint64
	visible map[int64]bool // nil for administrators: everything
}

// Subscribe starts live updates for user.
func (c *Core) Subscribe(user *User) *Subscription {
	ch := make(chan Update, subscriberQueue)
	s := &Subscription{C: ch, ch: ch, user: user, hub: c.hub}
	c.hub.mu.Lock()
	c.hub.subs[s] = struct{}{}
	c.hub.mu.Unlock()
	return s
}

// Close ends the subscription; it is safe to call more than once.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.hub.mu.Lock()
		delete(s.hub.subs, s)
		s.hub.mu.Unlock()
		close(s.ch)
	})
}

// sees reports whether the subscriber may see deviceID, recomputing its
// device set only after a permission or device change.
func (s *Subscription) sees(deviceID int64) bool {
	if s.user.Administrator {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen := s.hub.gen.Load(); s.visible == nil || s.gen != gen {
		set := map[int64]bool{}
		err := s.hub.core.store.View(func(tx Tx) (err error) {
			set, err = access{tx: tx, actor: s.user}.visible(KindDevice)
			return err
		})
		if err != nil {
			return false
		}
		s.visible, s.gen = set, gen
	}
	return s.visible[deviceID]
}

// invalidate makes every subscriber recompute what it may see.
func (h *hub) invalidate() { h.gen.Add(1) }

// Observe registers fn to be called with every update after it is stored.
// fn runs on the ingest path: it must only hand the update over (to a
// bounded queue) and never block. Register observers before serving.
func (c *Core) Observe(fn func(deviceID int64, u Update)) {
	c.hub.mu.Lock()
	c.hub.observers = append(c.hub.observers, fn)
	c.hub.mu.Unlock()
}

// publish sends the update about one device to every subscriber that may
// see it, without ever blocking.
func (h *hub) publish(deviceID int64, u Update) {
	h.mu.RLock()
	for _, fn := range h.observers {
		fn(deviceID, u)
	}
	var slow []*Subscription
	for s := range h.subs {
		if !s.sees(deviceID) {
			continue
		}
		select {
		case s.ch <- u:
		default:
			slow = append(slow, s)
		}
	}
	h.mu.RUnlock()
	for _, s := range slow {
		s.Close()
	}
}
