package fleet

import (
	"cmp"
	"container/heap"
	"iter"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// E2 merges per-device event streams: each device's events come from the
// store's (device, time) index in order, pulled lazily, and a heap keeps
// the device whose next event comes first. A page costs about one event
// per device plus the events up to the end of the page, whatever the
// range holds.

// deviceEvents yields the device's matching events in [from, to], oldest
// first or newest first (ties by id, reversed too), reading the store only
// as far as the consumer pulls; a store error ends it in *errp.
func deviceEvents(tx model.Tx, device int64, from, to time.Time, desc bool, match func(*model.Event) bool, errp *error) iter.Seq[*model.Event] {
	scan := tx.Events
	if desc {
		scan = tx.EventsNewest
	}
	return func(yield func(*model.Event) bool) {
		*errp = scan(device, from, to, func(e *model.Event) bool { return !match(e) || yield(e) })
	}
}

// mergeEvents merges the streams (each in query order) by event time, then
// id, skipping the first skip events and returning up to n.
func mergeEvents(streams []iter.Seq[*model.Event], desc bool, skip, n int) []*model.Event {
	h := &eventHeap{desc: desc}
	for _, s := range streams {
		next, stop := iter.Pull(s)
		defer stop()
		if e, ok := next(); ok {
			h.heads = append(h.heads, head{e, next})
		}
	}
	heap.Init(h)
	out := make([]*model.Event, 0, n)
	for h.Len() > 0 && len(out) < n {
		top := &h.heads[0]
		if skip > 0 {
			skip--
		} else {
			out = append(out, top.event)
		}
		if e, ok := top.next(); ok {
			top.event = e
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return out
}

// head is a stream's next event and the way to pull the one after.
type head struct {
	event *model.Event
	next  func() (*model.Event, bool)
}

type eventHeap struct {
	heads []head
	desc  bool
}

func (h *eventHeap) Len() int { return len(h.heads) }
func (h *eventHeap) Less(i, j int) bool {
	a, b := h.heads[i].event, h.heads[j].event
	order := cmp.Or(a.EventTime.Compare(b.EventTime), cmp.Compare(a.ID, b.ID))
	if h.desc {
		return order > 0
	}
	return order < 0
}
func (h *eventHeap) Swap(i, j int) { h.heads[i], h.heads[j] = h.heads[j], h.heads[i] }
func (h *eventHeap) Push(x any)    { h.heads = append(h.heads, x.(head)) }
func (h *eventHeap) Pop() any {
	last := h.heads[len(h.heads)-1]
	h.heads = h.heads[:len(h.heads)-1]
	return last
}
