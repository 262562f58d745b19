package simulate

import (
	"math"
	"sync"
	"testing"
	"time"
)

func TestHistogramBuckets(t *testing.T) {
	values := []uint64{0, 1, 15, 16, 31, 32, 33, 63, 64, 1000, 4095, 4096, 123456, 1 << 30, 1<<40 - 1}
	for v := uint64(0); v < 1<<20; v = v*3/2 + 1 {
		values = append(values, v)
	}
	for _, v := range values {
		i := bucketOf(v)
		low, width := bucketRange(i)
		if v < low || v >= low+width {
			t.Errorf("%d falls in bucket %d = [%d, %d)", v, i, low, low+width)
		}
		if width > 1 && float64(width) > float64(low)/subBuckets {
			t.Errorf("bucket %d of %d is %d wide: worse than 1/%d", i, low, width, subBuckets)
		}
		if i > 0 {
			if pl, pw := bucketRange(i - 1); pl+pw != low {
				t.Errorf("buckets %d and %d are not contiguous", i-1, i)
			}
		}
	}
	if bucketOf(math.MaxUint64) != histBuckets-1 {
		t.Errorf("huge values must land in the last bucket")
	}
}

func TestHistogramQuantiles(t *testing.T) {
	var h histogram
	if h.quantile(0.5) != 0 || h.maximum() != 0 {
		t.Fatal("an empty histogram reports 0")
	}
	// 1 ms .. 10 s in 1 ms steps, recorded concurrently.
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for ms := 1 + w; ms <= 10000; ms += 4 {
				h.record(time.Duration(ms) * time.Millisecond)
			}
		})
	}
	wg.Wait()
	if h.count() != 10000 {
		t.Fatalf("count %d, want 10000", h.count())
	}
	if h.maximum() != 10*time.Second {
		t.Errorf("max %v, want 10s", h.maximum())
	}
	for _, q := range []float64{0.01, 0.5, 0.9, 0.99, 0.999, 1} {
		want := q * 10 * float64(time.Second)
		got := float64(h.quantile(q))
		if math.Abs(got-want) > want/subBuckets {
			t.Errorf("p%v = %v, want %v within 1/%d", q*100, time.Duration(got), time.Duration(want), subBuckets)
		}
	}
	h.record(-time.Second) // clock step: counted as 0
	if h.quantile(0) != 0 {
		t.Errorf("a negative latency is not recorded as 0")
	}
}
