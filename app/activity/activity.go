// Package activity keeps what administrators see of the server's use:
// the audit log of changes users made (written by the change tracker in
// each change's own transaction, app/live), and daily usage statistics
// (Traccar's /api/audit and /api/statistics).
package activity

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// Counters are the cumulative counts since start that the statistics take
// their daily figures from (the composition root reads them off the
// ingest and the notifier).
type Counters struct {
	Stored            uint64            // positions stored
	Received          map[string]uint64 // frames received, by protocol
	MailSent, SMSSent uint64
}

// Service is the activity record.
type Service struct {
	store    model.Store
	now      func() time.Time
	counters func() Counters

	mu       sync.Mutex
	day      time.Time // the UTC day being counted
	requests int
	users    map[int64]bool
	last     Counters // the counters at the last flush
	// devices are the day's active devices: a lock-free set, as every
	// stored position passes here.
	devices atomic.Pointer[sync.Map]
}

// New builds the activity record; counters may be nil (nothing counted
// but requests and active users and devices). It hears stored positions
// from hub for the active devices.
func New(store model.Store, hub *live.Hub, counters func() Counters, now func() time.Time) *Service {
	if counters == nil {
		counters = func() Counters { return Counters{} }
	}
	a := &Service{store: store, now: now, counters: counters, users: map[int64]bool{}}
	a.devices.Store(new(sync.Map))
	a.day = dayOf(now())
	a.last = counters()
	hub.Observe(func(deviceID int64, u live.Update) {
		if len(u.Positions) > 0 {
			a.devices.Load().LoadOrStore(deviceID, struct{}{})
		}
	})
	return a
}

func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Request counts one API request, by a user (0: anonymous).
func (a *Service) Request(userID int64) {
	a.mu.Lock()
	a.requests++
	if userID != 0 {
		a.users[userID] = true
	}
	a.mu.Unlock()
}

// Flush adds what was counted since the last flush to the day's stored
// record (serve runs it hourly and at shutdown), and starts a new day when
// the UTC date has changed. Counts of a restart's lost hour are the only
// loss; active users and devices of a day counted across a restart are
// the larger of the two counts, not their union.
func (a *Service) Flush() error {
	cur := a.counters()
	a.mu.Lock()
	day, requests, users, last := a.day, a.requests, len(a.users), a.last
	devices := 0
	a.devices.Load().Range(func(any, any) bool { devices++; return true })
	a.requests, a.last = 0, cur
	if today := dayOf(a.now()); !today.Equal(a.day) {
		a.day, a.users = today, map[int64]bool{}
		a.devices.Store(new(sync.Map))
	}
	a.mu.Unlock()
	return a.store.Update(func(tx model.Tx) error {
		s, err := tx.Statistics().Get(day)
		if errors.Is(err, model.ErrNotFound) {
			s, err = &model.Statistics{CaptureTime: day, Protocols: map[string]int{}, Attributes: model.Attributes{}}, nil
		}
		if err != nil {
			return err
		}
		if s.Protocols == nil {
			s.Protocols = map[string]int{}
		}
		s.Requests += requests
		s.ActiveUsers = max(s.ActiveUsers, users)
		s.ActiveDevices = max(s.ActiveDevices, devices)
		s.MessagesStored += int(cur.Stored - last.Stored)
		for p, n := range cur.Received {
			if d := int(n - last.Received[p]); d > 0 {
				s.Protocols[p] += d
				s.MessagesReceived += d
			}
		}
		s.MailSent += int(cur.MailSent - last.MailSent)
		s.SMSSent += int(cur.SMSSent - last.SMSSent)
		return tx.Statistics().Put(s)
	})
}

// Statistics lists the daily records from from to to; administrators only.
func (a *Service) Statistics(actor *model.User, from, to time.Time) ([]*model.Statistics, error) {
	if err := checkAdmin(actor, from, to); err != nil {
		return nil, err
	}
	out := []*model.Statistics{}
	err := a.store.View(func(tx model.Tx) error {
		return tx.Statistics().Range(dayOf(from), to, func(s *model.Statistics) bool { out = append(out, s); return true })
	})
	return out, err
}

// Audit calls fn with the audit entries from from to to in time order,
// each with its user's e-mail; administrators only.
func (a *Service) Audit(actor *model.User, from, to time.Time, fn func(*model.AuditEntry) error) error {
	if err := checkAdmin(actor, from, to); err != nil {
		return err
	}
	var entries []*model.AuditEntry
	emails := map[int64]string{}
	err := a.store.View(func(tx model.Tx) error {
		err := tx.Users().List(func(u *model.User) bool { emails[u.ID] = u.Email; return true })
		if err != nil {
			return err
		}
		return tx.Audit().Range(from, to, func(e *model.AuditEntry) bool {
			e.UserEmail = emails[e.UserID]
			entries = append(entries, e)
			return len(entries) < MaxAuditRead
		})
	})
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// MaxAuditRead bounds one audit request: a span with more entries is
// read in shorter spans.
const MaxAuditRead = 100_000

// PruneAudit removes entries older than keep, in bounded transactions.
func (a *Service) PruneAudit(keep time.Duration) (int, error) {
	before := a.now().Add(-keep)
	total := 0
	for {
		var n int
		err := a.store.Update(func(tx model.Tx) (err error) { n, err = tx.Audit().Prune(before, 1000); return err })
		total += n
		if err != nil || n < 1000 {
			return total, err
		}
	}
}

func checkAdmin(actor *model.User, from, to time.Time) error {
	switch {
	case !actor.Administrator:
		return model.Forbidden("Only administrators may read the server's activity")
	case from.IsZero() || to.IsZero():
		return model.Invalid("from and to are required")
	case to.Before(from):
		return model.Invalid("to must not be before from")
	}
	return nil
}
