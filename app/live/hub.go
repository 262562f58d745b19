// Package live carries what happens to devices to the people watching:
// the hub fans stored positions, events and device changes out to
// WebSocket subscribers that may see the device and to observers (push,
// metrics), and Track turns every committed write into a change
// notification so that access is checked again when it may have changed.
package live

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// Update is one live message in Traccar's socket format; empty parts are
// left out of the JSON, and an empty Update is the keep-alive "{}".
type Update struct {
	Devices   []*model.Device   `json:"devices,omitempty"`
	Positions []*model.Position `json:"positions,omitempty"`
	Events    []*model.Event    `json:"events,omitempty"`
	Logs      []*LogRecord      `json:"logs,omitempty"`
}

// LogRecord is one frame a device sent, as Traccar's socket shows it to
// clients that asked for logs: the sender's address, the protocol, the
// device and the bytes in hex.
type LogRecord struct {
	Host     string `json:"host"`
	Protocol string `json:"protocol"`
	UniqueID string `json:"uniqueId"`
	DeviceID int64  `json:"deviceId"`
	Data     string `json:"data"`
}

// subscriberQueue bounds what a slow client may have pending; past it the
// client is dropped, never the ingest slowed.
const subscriberQueue = 256

// Hub fans live updates out to subscribers that may see the device, and
// to observers (push notifications, metrics) that see everything.
type Hub struct {
	store model.Store
	// allowed is the accounts' rule for a user who may still be served
	// (not disabled, not expired).
	allowed func(*model.User) error
	now     func() time.Time

	mu        sync.RWMutex
	subs      map[*Subscription]struct{}
	observers []func(deviceID int64, u Update)
	gen       atomic.Uint64 // bumped when visibility may have changed
	// loggers counts the subscriptions with logs on, so that frames cost
	// nothing while nobody watches them.
	loggers atomic.Int64
}

// New builds a hub that checks subscribers against store; allowed says
// whether a user may still be served.
func New(store model.Store, allowed func(*model.User) error, now func() time.Time) *Hub {
	return &Hub{store: store, allowed: allowed, now: now, subs: map[*Subscription]struct{}{}}
}

// Changed is the hub's change listener (Track): a change to users, ended
// sessions, permissions, devices, groups or the server settings may change
// who sees what, so every subscriber checks its access again before its
// next update.
func (h *Hub) Changed(c Changes) {
	if c.Any(model.KindUser, ChangedSessions, ChangedPermissions, model.KindDevice, model.KindGroup, ChangedServer) {
		h.gen.Add(1)
	}
}

// Clients is the number of subscribers (WebSocket clients).
func (h *Hub) Clients() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.subs)
}

// Subscription receives the updates one user may see. C is closed when the
// subscription ends, including when the hub drops a client that fell behind
// or whose access was revoked.
type Subscription struct {
	C      <-chan Update
	ch     chan Update
	hub    *Hub
	once   sync.Once
	userID int64 // fixed; user below is refreshed
	// Set at subscribe time: the session (key) and password hash that
	// authenticated the client. A client still connected after its session
	// ended or its password changed must not go on receiving.
	session, passwordHash string
	revoked               atomic.Bool
	logs                  atomic.Bool // the client asked for frames

	mu      sync.Mutex
	user    *model.User
	checked bool
	gen     uint64
	visible map[int64]bool // nil for administrators: everything
}

// Subscribe starts live updates for user, authenticated by the session
// stored under sessionKey ("" for Basic credentials).
func (h *Hub) Subscribe(user *model.User, sessionKey string) *Subscription {
	ch := make(chan Update, subscriberQueue)
	s := &Subscription{C: ch, ch: ch, user: user, userID: user.ID, hub: h, passwordHash: user.PasswordHash, session: sessionKey}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	return s
}

// WantLogs turns the frames of the devices the subscriber sees on or off
// (Traccar's socket message {"logs": true}).
func (s *Subscription) WantLogs(on bool) {
	if s.logs.Swap(on) != on {
		s.hub.loggers.Add(map[bool]int64{true: 1, false: -1}[on])
	}
}

// Close ends the subscription; it is safe to call more than once.
func (s *Subscription) Close() {
	s.once.Do(func() {
		s.WantLogs(false)
		s.hub.mu.Lock()
		delete(s.hub.subs, s)
		s.hub.mu.Unlock()
		close(s.ch)
	})
}

// Revoked reports whether the hub ended the subscription because the
// client's access ended (logout, password change, disabled, expired or
// deleted user), not because it fell behind.
func (s *Subscription) Revoked() bool { return s.revoked.Load() }

// sees reports whether the subscriber may see deviceID. After a change to
// users, sessions, permissions or devices it first checks the client's
// access again and recomputes its device set.
func (s *Subscription) sees(deviceID int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.revoked.Load() {
		return false
	}
	if gen := s.hub.gen.Load(); !s.checked || s.gen != gen {
		if err := s.refresh(); err != nil {
			if model.ClassOf(err) == model.ClassUnauthorized {
				s.revoked.Store(true)
			}
			return false
		}
		s.checked, s.gen = true, gen
	}
	return s.user.Administrator || s.visible[deviceID]
}

// refresh rereads the user, its session and the devices it sees; an
// Unauthorized error means access has ended.
func (s *Subscription) refresh() error {
	h := s.hub
	return h.store.View(func(tx model.Tx) error {
		u, err := tx.Users().Get(s.user.ID)
		if errors.Is(err, model.ErrNotFound) || (err == nil && u.PasswordHash != s.passwordHash) {
			return model.Unauthorized("credentials changed")
		}
		if err != nil {
			return err
		}
		if err := h.allowed(u); err != nil {
			return err
		}
		if s.session != "" {
			sess, err := tx.Session(s.session)
			if errors.Is(err, model.ErrNotFound) || (err == nil && h.now().After(sess.Expires)) {
				return model.Unauthorized("session ended")
			}
			if err != nil {
				return err
			}
		}
		var set map[int64]bool
		if !u.Administrator {
			if set, err = (access.Guard{Tx: tx, Actor: u}).Visible(model.KindDevice); err != nil {
				return err
			}
		}
		s.user, s.visible = u, set
		return nil
	})
}

// Observe registers fn to be called with every update after it is stored.
// fn runs on the ingest path: it must only hand the update over (to a
// bounded queue) and never block. Register observers before serving.
func (h *Hub) Observe(fn func(deviceID int64, u Update)) {
	h.mu.Lock()
	h.observers = append(h.observers, fn)
	h.mu.Unlock()
}

// Publish sends the update about one device to every subscriber that may
// see it, without ever blocking, and hands it whole to the observers.
// Subscribers get its devices and positions: events reach a user's
// socket only as notifications (the notifier's web channel, ToUser), as
// in Traccar. Callers publish after releasing their own locks: a
// subscriber may read the store to check its access.
func (h *Hub) Publish(deviceID int64, u Update) {
	h.mu.RLock()
	for _, fn := range h.observers {
		fn(deviceID, u)
	}
	h.mu.RUnlock()
	u.Events = nil
	if len(u.Devices) > 0 || len(u.Positions) > 0 {
		h.send(deviceID, u, func(*Subscription) bool { return true })
	}
}

// Log offers a device's frame to the subscribers that asked for logs and
// see the device; a frame of no registered device (deviceID 0) goes to
// administrators only. It never blocks, and costs nothing while nobody
// asked for logs.
func (h *Hub) Log(deviceID int64, rec func() *LogRecord) {
	if h.loggers.Load() == 0 {
		return
	}
	u := Update{Logs: []*LogRecord{rec()}}
	h.send(deviceID, u, func(s *Subscription) bool {
		return s.logs.Load() && (deviceID != 0 || s.admin())
	})
}

func (s *Subscription) admin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.user.Administrator
}

// ToUser sends an update about one device to the subscribers of one user,
// if they still see the device (deviceID 0: about none).
func (h *Hub) ToUser(userID, deviceID int64, u Update) {
	h.send(deviceID, u, func(s *Subscription) bool { return s.userID == userID })
}

// send offers u to the subscribers of whom is true that may see deviceID.
func (h *Hub) send(deviceID int64, u Update, whom func(*Subscription) bool) {
	h.mu.RLock()
	var ended []*Subscription // too slow or revoked; closed outside the lock
	for s := range h.subs {
		if !whom(s) {
			continue
		}
		// Device 0: a message about no device (a test notification),
		// for a subscriber whose access still holds.
		if !s.sees(deviceID) && (deviceID != 0 || s.Revoked()) {
			if s.Revoked() {
				ended = append(ended, s)
			}
			continue
		}
		select {
		case s.ch <- u:
		default:
			ended = append(ended, s)
		}
	}
	h.mu.RUnlock()
	for _, s := range ended {
		s.Close()
	}
}
