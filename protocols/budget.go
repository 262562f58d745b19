package protocols

import (
	"container/heap"
	"sync"
	"sync/atomic"
)

// DefaultFrameBudget is the frame budget of listeners given none: room for
// about 100 of the longest watch media frames at once, while a flood of
// unfinished frames on 10,000 connections stays under 100 MB.
const DefaultFrameBudget = 16 << 20

// FrameBudget bounds the bytes that unfinished frames hold, together, on
// every connection of the listeners sharing it. A frame that arrives in
// one read never counts: only a frame waiting for more bytes does. When a
// connection's frame would grow past the budget, the largest unfinished
// frame is dropped and its connection closed (the growing one, when it is
// the largest), so a flood of long partial frames costs the attacker their
// connections, not the server its memory.
type FrameBudget struct {
	limit int

	mu      sync.Mutex
	used    int
	holders holders // the shares holding bytes, largest first
}

// NewFrameBudget returns a budget of limit bytes.
func NewFrameBudget(limit int) *FrameBudget { return &FrameBudget{limit: limit} }

// Used is the bytes held now.
func (b *FrameBudget) Used() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// budgetShare is one connection's part of a budget. A nil share is no
// budget: every size is allowed.
type budgetShare struct {
	budget *FrameBudget
	stats  *Counters    // the listener's Buffered gauge and Evicted count
	drop   func() error // closes the connection
	held   int          // guarded by budget.mu, as is at
	at     int          // index in budget.holders; -1 when holding nothing
	// evicted is set once the share was dropped; its reader then stops.
	evicted atomic.Bool
}

// join opens a share for one connection of the listener counting in stats;
// drop closes that connection.
func (b *FrameBudget) join(stats *Counters, drop func() error) *budgetShare {
	return &budgetShare{budget: b, stats: stats, drop: drop, at: -1}
}

// resize sets the bytes s holds to size, dropping the largest holders
// first when that would exceed the budget. It returns false when s was
// dropped instead (or before): the connection must end.
//
// A dropped connection's bytes are counted free at once, though its buffer
// is freed only when its goroutine wakes from the closed connection's read
// (or finishes the frame it is handling): the overshoot is that short.
func (s *budgetShare) resize(size int) bool {
	if s == nil {
		return true
	}
	b := s.budget
	var victim *budgetShare
	b.mu.Lock()
	ok := !s.evicted.Load()
	if ok && b.used-s.held+size > b.limit {
		// The largest other frame goes when it is larger than s asks for
		// (dropping it then makes room); else s does.
		victim = s
		if len(b.holders) > 0 && b.holders[0] != s && b.holders[0].held > size {
			victim = b.holders[0]
		}
		b.evict(victim)
		ok = victim != s
	}
	if ok {
		b.set(s, size)
	}
	b.mu.Unlock()
	if ok && victim != nil { // s's own connection is ended by its caller
		victim.drop()
	}
	return ok
}

// set makes s hold size bytes. b.mu is held.
func (b *FrameBudget) set(s *budgetShare, size int) {
	b.used += size - s.held
	s.stats.Buffered.Add(int64(size - s.held))
	s.held = size
	switch {
	case size > 0 && s.at < 0:
		heap.Push(&b.holders, s)
	case size > 0:
		heap.Fix(&b.holders, s.at)
	case s.at >= 0:
		heap.Remove(&b.holders, s.at)
	}
}

// evict takes v's bytes back and marks it dropped. b.mu is held.
func (b *FrameBudget) evict(v *budgetShare) {
	b.set(v, 0)
	v.evicted.Store(true)
	v.stats.Evicted.Add(1)
}

// holders is a max-heap of shares by bytes held (container/heap): the
// largest is at hand however many connections hold a frame.
type holders []*budgetShare

func (h holders) Len() int           { return len(h) }
func (h holders) Less(i, j int) bool { return h[i].held > h[j].held }
func (h holders) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].at, h[j].at = i, j
}

func (h *holders) Push(x any) {
	s := x.(*budgetShare)
	s.at = len(*h)
	*h = append(*h, s)
}

func (h *holders) Pop() any {
	old := *h
	s := old[len(old)-1]
	old[len(old)-1] = nil
	*h, s.at = old[:len(old)-1], -1
	return s
}

// dropped reports whether the budget dropped s.
func (s *budgetShare) dropped() bool { return s != nil && s.evicted.Load() }
