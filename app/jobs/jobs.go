// Package jobs runs fleetd's periodic jobs: each has a name, a wait before
// its first run and an interval, and runs in its own goroutine until the
// context ends, so a slow job (a backup) holds up no other. A run that
// fails is logged with the job's name; the job runs again at its next
// time. A job without an interval runs once (a start-up job).
package jobs

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// Job is one periodic job.
type Job struct {
	Name string
	// First is the wait from Run's start to the first run; 0 runs it at
	// once.
	First time.Duration
	// Every is the wait from the end of one run to the start of the next;
	// 0 runs the job once.
	Every time.Duration
	// Run does the work; ctx ends when the scheduler stops. What it
	// did is for Run to log, a failure for the scheduler.
	Run func(ctx context.Context) error
}

// Scheduler holds the jobs of one server.
type Scheduler struct {
	log  *slog.Logger
	jobs []Job
	// after is time.After; tests put a clock of their own in its place.
	after func(time.Duration) <-chan time.Time
}

// New returns a scheduler without jobs that logs failures to log.
func New(log *slog.Logger) *Scheduler {
	return &Scheduler{log: log, after: time.After}
}

// Add registers a job.
func (s *Scheduler) Add(j Job) { s.jobs = append(s.jobs, j) }

// Run runs every job until ctx ends, then returns once every run in
// progress has returned.
func (s *Scheduler) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, j := range s.jobs {
		wg.Go(func() { s.loop(ctx, j) })
	}
	wg.Wait()
}

func (s *Scheduler) loop(ctx context.Context, j Job) {
	for wait := j.First; ; wait = j.Every {
		select {
		case <-ctx.Done():
			return
		case <-s.after(wait):
		}
		switch err := j.Run(ctx); {
		case err == nil, ctx.Err() != nil && errors.Is(err, ctx.Err()): // done, or stopped
		default:
			s.log.Error("job failed", "job", j.Name, "err", err)
		}
		if j.Every <= 0 {
			return
		}
	}
}

// Counted is a Run calling fn that logs msg with the count fn reports,
// under key, when it is not zero; fn's error is the run's.
func Counted(log *slog.Logger, msg, key string, fn func() (int, error)) func(context.Context) error {
	return func(context.Context) error {
		n, err := fn()
		if err == nil && n > 0 {
			log.Info(msg, key, n)
		}
		return err
	}
}
