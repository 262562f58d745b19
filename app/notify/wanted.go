package notify

import (
	"sync/atomic"

	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// wanted knows which event types any notification is of, so that the
// events nobody is to hear of (most of them, on most servers: every
// deviceMoving of every tracker) cost the ingest nothing: no job, no read
// transaction. It is read from the store on first use after a change of
// notifications.
type wanted struct {
	gen   atomic.Uint64
	types atomic.Pointer[map[string]bool] // nil: to be read
}

// Changed drops what wanted knows when notifications changed (the core's
// change listener, live.Track).
func (n *Service) Changed(ch live.Changes) {
	if ch.Any(model.KindNotification) {
		n.wanted.gen.Add(1)
		n.wanted.types.Store(nil)
	}
}

// wants tells whether an event of type typ may be notified to anyone: a
// notification of its type exists, or push notifications of its kind go
// to phones (the /api2 switches, which need no notification object).
func (n *Service) wants(typ string) bool {
	if n.push.opts.Sender != nil && eventNotification(typ) != "" {
		return true
	}
	types := n.wanted.types.Load()
	if types == nil {
		gen := n.wanted.gen.Load()
		read := map[string]bool{}
		err := n.store.View(func(tx model.Tx) error {
			return tx.Notifications().List(func(note *model.Notification) bool {
				read[note.Type] = true
				return true
			})
		})
		if err != nil {
			return true // the planner reads again, and reports
		}
		types = &read
		// A change while reading leaves it unknown, to be read again.
		if n.wanted.gen.Load() == gen {
			n.wanted.types.CompareAndSwap(nil, types)
		}
	}
	return (*types)[typ]
}
