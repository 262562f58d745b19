package simulate

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// histogram counts latencies in log-linear buckets, as HDR histograms do:
// values (microseconds) below 2*subBuckets are exact; above, each power of
// two is split into subBuckets equal buckets, so any value is known within
// 1/subBuckets (6.25%). Memory is fixed whatever the number of samples,
// and recording is lock-free for concurrent devices.
type histogram struct {
	counts [histBuckets]atomic.Uint64
	total  atomic.Uint64
	max    atomic.Int64 // microseconds
}

const (
	subBits    = 4
	subBuckets = 1 << subBits
	// maxExp covers 2^40 µs (12 days); longer latencies go in the last bucket.
	maxExp      = 40 - subBits
	histBuckets = (maxExp + 2) * subBuckets
)

// bucketOf maps a value to its bucket: e is how far v is shifted so that
// its top subBits+1 bits remain.
func bucketOf(us uint64) int {
	e := max(bits.Len64(us)-subBits-1, 0)
	if e > maxExp {
		return histBuckets - 1
	}
	return e*subBuckets + int(us>>e)
}

// bucketRange is the lowest value of bucket i and the bucket's width.
func bucketRange(i int) (low, width uint64) {
	e := max(i/subBuckets-1, 0)
	return uint64(i-e*subBuckets) << e, 1 << e
}

func (h *histogram) record(d time.Duration) {
	us := max(d.Microseconds(), 0)
	h.counts[bucketOf(uint64(us))].Add(1)
	h.total.Add(1)
	for m := h.max.Load(); us > m && !h.max.CompareAndSwap(m, us); m = h.max.Load() {
	}
}

func (h *histogram) count() uint64 { return h.total.Load() }

func (h *histogram) maximum() time.Duration { return time.Duration(h.max.Load()) * time.Microsecond }

// quantile returns the value below which a fraction q of the samples lie:
// the middle of the bucket holding that rank, never above the maximum.
// It is 0 without samples.
func (h *histogram) quantile(q float64) time.Duration {
	total := h.total.Load()
	if total == 0 {
		return 0
	}
	rank := uint64(q*float64(total) + 0.5)
	rank = min(max(rank, 1), total)
	var seen uint64
	for i := range h.counts {
		seen += h.counts[i].Load()
		if seen >= rank {
			low, width := bucketRange(i)
			us := min(low+width/2, uint64(h.max.Load()))
			return time.Duration(us) * time.Microsecond
		}
	}
	return h.maximum()
}

// reset empties the histogram. Samples recorded meanwhile may be lost or
// kept: it is for the end of a warm-up, not for exact counts.
func (h *histogram) reset() {
	for i := range h.counts {
		h.counts[i].Store(0)
	}
	h.total.Store(0)
	h.max.Store(0)
}
