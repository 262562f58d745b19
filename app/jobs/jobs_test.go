package jobs

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// clock hands every wait a job asks for to the test, which ends it.
type clock struct {
	waits chan wait
}

type wait struct {
	d   time.Duration
	end chan<- time.Time
}

func newClock() *clock { return &clock{waits: make(chan wait, 16)} }

func (c *clock) after(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.waits <- wait{d: d, end: ch}
	return ch
}

// next is the next wait asked for; want is its length.
func (c *clock) next(t *testing.T, want time.Duration) wait {
	t.Helper()
	w := <-c.waits
	if w.d != want {
		t.Fatalf("a job waits %s, want %s", w.d, want)
	}
	return w
}

// start runs s on a fake clock until the test ends.
func start(t *testing.T, s *Scheduler) (*clock, context.CancelFunc, <-chan struct{}) {
	t.Helper()
	c := newClock()
	s.after = c.after
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return c, cancel, done
}

// A job waits First, runs, then waits Every after each run; a failed run
// is logged with the job's name and the job goes on.
func TestJobRunsOnItsSchedule(t *testing.T) {
	// The log is read after the job has asked for its next wait, which it
	// does after logging: the clock's channel orders the two.
	var log bytes.Buffer
	s := New(slog.New(slog.NewTextHandler(&log, nil)))
	runs := make(chan int)
	n := 0
	s.Add(Job{Name: "count", First: time.Minute, Every: time.Hour, Run: func(context.Context) error {
		n++
		runs <- n
		if n == 2 {
			return errors.New("disk full")
		}
		return nil
	}})
	c, _, _ := start(t, s)
	c.next(t, time.Minute).end <- time.Time{}
	if got := <-runs; got != 1 {
		t.Fatalf("run %d, want 1", got)
	}
	for want := 2; want <= 3; want++ {
		c.next(t, time.Hour).end <- time.Time{}
		if got := <-runs; got != want {
			t.Fatalf("run %d, want %d", got, want)
		}
	}
	c.next(t, time.Hour) // the fourth waits: the failure did not stop the job
	if got := log.String(); strings.Count(got, "job failed") != 1 || !strings.Contains(got, "job=count") ||
		!strings.Contains(got, `err="disk full"`) {
		t.Errorf("log:\n%s\nwant the one failure with the job's name", got)
	}
}

// Jobs run independently: one whose run does not return holds up no other.
// Cancelling the context stops the waits, and Run returns once the run in
// progress has.
func TestJobsIndependentAndStopped(t *testing.T) {
	s := New(slog.New(slog.DiscardHandler))
	release, slowStarted, quick := make(chan struct{}), make(chan struct{}), make(chan struct{}, 8)
	s.Add(Job{Name: "slow", Every: time.Hour, Run: func(ctx context.Context) error {
		close(slowStarted)
		<-release
		return ctx.Err() // stopped, not failed: not logged
	}})
	s.Add(Job{Name: "quick", Every: time.Minute, Run: func(context.Context) error { quick <- struct{}{}; return nil }})
	c, cancel, done := start(t, s)
	first := []wait{<-c.waits, <-c.waits} // both start at once
	for _, w := range first {
		if w.d != 0 {
			t.Fatalf("a job with no First waits %s", w.d)
		}
		w.end <- time.Time{}
	}
	<-slowStarted
	<-quick
	c.next(t, time.Minute).end <- time.Time{}
	<-quick // the quick job ran again while the slow one is still running
	c.next(t, time.Minute)
	cancel()
	select {
	case <-done:
		t.Fatal("Run returned while a run was in progress")
	default:
	}
	close(release)
	<-done
}

// A job without an interval runs once; Run returns when it has, even
// with the context still running.
func TestJobWithoutIntervalRunsOnce(t *testing.T) {
	s := New(slog.New(slog.DiscardHandler))
	runs := 0
	s.Add(Job{Name: "start-up", Run: func(context.Context) error { runs++; return nil }})
	s.after = func(time.Duration) <-chan time.Time {
		ch := make(chan time.Time, 1)
		ch <- time.Time{}
		return ch
	}
	s.Run(context.Background())
	if runs != 1 {
		t.Errorf("ran %d times, want once", runs)
	}
}

// Counted logs the count when there is one, and passes the error on.
func TestCounted(t *testing.T) {
	var log bytes.Buffer
	for _, tc := range []struct {
		n      int
		err    error
		logged bool
	}{{0, nil, false}, {3, nil, true}, {2, errors.New("disk full"), false}} {
		log.Reset()
		run := Counted(slog.New(slog.NewTextHandler(&log, nil)), "pruned", "count", func() (int, error) { return tc.n, tc.err })
		if err := run(context.Background()); err != tc.err {
			t.Errorf("%d, %v: the run returned %v", tc.n, tc.err, err)
		}
		if got := strings.Contains(log.String(), "msg=pruned count=3"); got != tc.logged {
			t.Errorf("%d, %v: logged %q", tc.n, tc.err, log.String())
		}
	}
}
