package simulate

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// stats are a run's counters, updated by every device.
type stats struct {
	sent       atomic.Uint64 // position frames written (requests made)
	acked      atomic.Uint64 // positions the server acknowledged as stored
	unacked    atomic.Uint64 // sent on a connection that ended before their ACK
	errors     atomic.Uint64 // failed connects, logins, writes, requests; dropped connections
	reconnects atomic.Uint64
	connected  atomic.Int64 // devices logged in now
	atEnd      atomic.Int64 // devices still logged in when the run ended
}

// maxLoggedErrors bounds the error lines a run writes; the rest are counted.
const maxLoggedErrors = 20

// logger serialises writes to Options.Log; a nil writer discards.
type logger struct {
	mu     sync.Mutex
	w      io.Writer
	errors int
}

func newLogger(w io.Writer) *logger { return &logger{w: w} }

func (r *runner) logf(format string, args ...any) {
	l := r.log
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}

// fail counts a device error and logs the first few.
func (r *runner) fail(id string, err error) {
	r.stats.errors.Add(1)
	l := r.log
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch l.errors++; {
	case l.errors <= maxLoggedErrors:
		fmt.Fprintf(l.w, "device %s: %v\n", id, err)
	case l.errors == maxLoggedErrors+1:
		fmt.Fprintf(l.w, "(further device errors are only counted)\n")
	}
}

// progress writes a status line every tm.progress until the returned
// function is called.
func (r *runner) progress(start time.Time) (stop func()) {
	if r.log.w == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(r.tm.progress)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s := &r.stats
				elapsed := time.Since(start)
				r.logf("[%5.0fs] connected %d/%d  sent %d (%.0f/s)  acked %d  errors %d",
					elapsed.Seconds(), s.connected.Load(), r.opts.Devices,
					s.sent.Load(), float64(s.sent.Load())/elapsed.Seconds(), s.acked.Load(), s.errors.Load())
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// counts are the counters at one moment.
type counts struct {
	at                   time.Time
	sent, acked, unacked uint64
	connected            int64
}

func (s *stats) snapshot() counts {
	return counts{at: time.Now(), sent: s.sent.Load(), acked: s.acked.Load(), unacked: s.unacked.Load(), connected: s.connected.Load()}
}

// warmup ends the unmeasured start of the run after Options.Warmup: it
// notes the counters and empties the latency histogram. Stop cancels it.
func (r *runner) warmup(start time.Time) *time.Timer {
	if r.opts.Warmup <= 0 {
		return time.NewTimer(time.Duration(1<<63 - 1))
	}
	return time.AfterFunc(time.Until(start.Add(r.opts.Warmup)), func() {
		r.lat.reset()
		c := r.stats.snapshot()
		r.warm.Store(&c)
	})
}
