package protocols

import (
	"sync"
	"sync/atomic"
)

// DefaultFrameBudget is the frame budget of listeners given none: room for
// 128 of the longest watch media frames at once, while a flood of
// unfinished frames on 10,000 connections stays under 100 MB.
const DefaultFrameBudget = 16 << 20

// FrameBudget bounds the bytes that unfinished frames hold, together, on
// every connection of the listeners sharing it. A frame that arrives in
// one read never counts: only a frame waiting for more bytes does. When a
// connection's frame would grow past the budget, the largest unfinished
// frames are dropped and their connections closed (the growing one's too,
// when it is the largest), so a flood of long partial frames costs the
// attacker their connections, not the server its memory.
type FrameBudget struct {
	limit int

	mu      sync.Mutex
	used    int
	holders map[*budgetShare]struct{} // the shares holding bytes
}

// NewFrameBudget returns a budget of limit bytes.
func NewFrameBudget(limit int) *FrameBudget {
	return &FrameBudget{limit: limit, holders: map[*budgetShare]struct{}{}}
}

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
	held   int          // guarded by budget.mu
	// evicted is set once the share was dropped; its reader then stops.
	evicted atomic.Bool
}

// join opens a share for one connection of the listener counting in stats;
// drop closes that connection.
func (b *FrameBudget) join(stats *Counters, drop func() error) *budgetShare {
	return &budgetShare{budget: b, stats: stats, drop: drop}
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
		// The largest holds more than s asks for, so dropping it makes room.
		victim = b.largest(s, size)
		b.evict(victim)
		ok = victim != s
	}
	if ok {
		b.used += size - s.held
		s.stats.Buffered.Add(int64(size - s.held))
		s.held = size
		if size > 0 {
			b.holders[s] = struct{}{}
		} else {
			delete(b.holders, s)
		}
	}
	b.mu.Unlock()
	if ok && victim != nil { // s's own connection is ended by its caller
		victim.drop()
	}
	return ok
}

// largest is the holder with the most bytes, s counted at size (s on a tie).
func (b *FrameBudget) largest(s *budgetShare, size int) *budgetShare {
	top, topSize := s, size
	for h := range b.holders {
		if h != s && h.held > topSize {
			top, topSize = h, h.held
		}
	}
	return top
}

// evict takes v's bytes back and marks it dropped. b.mu is held.
func (b *FrameBudget) evict(v *budgetShare) {
	b.used -= v.held
	v.stats.Buffered.Add(-int64(v.held))
	v.held = 0
	delete(b.holders, v)
	v.evicted.Store(true)
	v.stats.Evicted.Add(1)
}

// dropped reports whether the budget dropped s.
func (s *budgetShare) dropped() bool { return s != nil && s.evicted.Load() }
