package app

import (
	"cmp"
	"container/heap"
	"iter"
	"time"
)

// E2 merges per-device event streams: each device's events come from the
// store's (device, time) index in order, pulled lazily, and a heap keeps
// the device whose next event comes first. A page costs about one event
// per device plus the events up to the end of the page, whatever the
// range holds.

// Windows of newest-first reads: the first span, and the most one grows to.
const (
	firstWindow = time.Hour
	maxWindow   = 100 * 365 * 24 * time.Hour
)

// deviceEvents yields the device's matching events in [from, to], oldest
// first or newest first (ties by id, reversed too), reading the store only
// as far as the consumer pulls; a store error ends it in *errp. The store
// scans forward only, so newest first reads windows back from to, each
// twice as long as the last: recent events cost a short scan.
func deviceEvents(tx Tx, device int64, from, to time.Time, desc bool, match func(*Event) bool, errp *error) iter.Seq[*Event] {
	if !desc {
		return func(yield func(*Event) bool) {
			*errp = tx.Events(device, from, to, func(e *Event) bool { return !match(e) || yield(e) })
		}
	}
	return func(yield func(*Event) bool) {
		width := firstWindow
		for end := to; !end.Before(from); width = min(2*width, maxWindow) {
			start := end.Add(-width)
			if start.Before(from) {
				start = from
			}
			var window []*Event
			*errp = tx.Events(device, start, end, func(e *Event) bool {
				if match(e) {
					window = append(window, e)
				}
				return true
			})
			if *errp != nil {
				return
			}
			for i := len(window) - 1; i >= 0; i-- {
				if !yield(window[i]) {
					return
				}
			}
			end = start.Add(-time.Nanosecond) // bounds are inclusive
		}
	}
}

// mergeEvents merges the streams (each in query order) by event time, then
// id, skipping the first skip events and returning up to n.
func mergeEvents(streams []iter.Seq[*Event], desc bool, skip, n int) []*Event {
	h := &eventHeap{desc: desc}
	for _, s := range streams {
		next, stop := iter.Pull(s)
		defer stop()
		if e, ok := next(); ok {
			h.heads = append(h.heads, head{e, next})
		}
	}
	heap.Init(h)
	out := make([]*Event, 0, n)
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
	event *Event
	next  func() (*Event, bool)
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
