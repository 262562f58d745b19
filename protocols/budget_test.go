package protocols

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestFrameBudget(t *testing.T) {
	tests := []struct {
		name   string
		held   []int // the shares' bytes before
		grower int   // index of the share that resizes (len(held): a new one)
		to     int
		ok     bool  // false: the grower is dropped, its caller closes it
		closed []int // other shares the budget drops and closes
		used   int   // after
	}{
		{"within the budget", []int{30, 30}, 2, 40, true, nil, 100},
		{"the largest other frame is dropped", []int{50, 30}, 2, 30, true, []int{0}, 60},
		{"an existing frame grows past it", []int{60, 30}, 1, 45, true, []int{0}, 45},
		{"the growing frame is dropped when it is the largest", []int{30, 30}, 2, 50, false, nil, 60},
		{"on a tie the growing frame goes", []int{50, 30}, 2, 50, false, nil, 80},
		{"a frame larger than the budget is dropped alone", nil, 0, 101, false, nil, 0},
		{"shrinking drops nothing", []int{60, 40}, 0, 10, true, nil, 50},
		{"releasing", []int{60, 40}, 1, 0, true, nil, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewFrameBudget(100)
			var stats Counters
			var closed []int
			shares := make([]*budgetShare, max(len(tt.held), tt.grower+1))
			for i := range shares {
				shares[i] = b.join(&stats, func() error { closed = append(closed, i); return nil })
				if i < len(tt.held) && !shares[i].resize(tt.held[i]) {
					t.Fatalf("share %d refused %d bytes", i, tt.held[i])
				}
			}
			if ok := shares[tt.grower].resize(tt.to); ok != tt.ok {
				t.Errorf("resize = %v, want %v", ok, tt.ok)
			}
			if !slices.Equal(closed, tt.closed) {
				t.Errorf("closed %v, want %v", closed, tt.closed)
			}
			dropped := slices.Clone(tt.closed)
			if !tt.ok {
				dropped = append(dropped, tt.grower)
			}
			for i, s := range shares {
				if s.dropped() != slices.Contains(dropped, i) {
					t.Errorf("share %d dropped = %v", i, s.dropped())
				}
				if s.dropped() && s.resize(1) {
					t.Errorf("dropped share %d got bytes again", i)
				}
			}
			if b.Used() != tt.used || stats.Buffered.Load() != int64(tt.used) || stats.Evicted.Load() != uint64(len(dropped)) {
				t.Errorf("used %d, gauge %d, evicted %d; want %d, %d, %d",
					b.Used(), stats.Buffered.Load(), stats.Evicted.Load(), tt.used, tt.used, len(dropped))
			}
		})
	}
}

// With many connections holding frames, the one dropped is always the
// largest (the heap agrees with a scan).
func TestFrameBudgetDropsTheLargest(t *testing.T) {
	b := NewFrameBudget(1 << 20)
	var stats Counters
	rng := rand.New(rand.NewPCG(1, 2))
	shares := make([]*budgetShare, 1000)
	for i := range shares {
		shares[i] = b.join(&stats, func() error { return nil })
	}
	for range 20000 {
		s := shares[rng.IntN(len(shares))]
		if s.dropped() {
			continue
		}
		size := rng.IntN(8 << 10)
		largest, most := s, size // what a scan drops when size does not fit
		for _, h := range shares {
			if h != s && h.held > most {
				largest, most = h, h.held
			}
		}
		fits, evicted := b.Used()-s.held+size <= b.limit, stats.Evicted.Load()
		s.resize(size)
		switch dropped := stats.Evicted.Load() - evicted; {
		case fits && dropped != 0:
			t.Fatal("a frame was dropped although the growth fits")
		case !fits && (dropped != 1 || !largest.dropped()):
			t.Fatalf("dropped %d frames, the largest (%d bytes) %v; want it alone", dropped, most, largest.dropped())
		}
	}
	if stats.Evicted.Load() == 0 {
		t.Fatal("the budget was never full; the test proved nothing")
	}
}
