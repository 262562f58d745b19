package storage

import (
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// batcher is Batch's group commit. One writer goroutine takes every call
// waiting when it becomes free (up to a maximum) and runs them in one
// transaction with one fsync. Unlike bbolt's own Batch, which closes a
// group on a fixed timer, the group size follows the load: idle, a call
// commits at once; busy, everything that arrived during the previous
// commit shares the next one. That is what lets thousands of device
// connections each wait for durability without each paying an fsync.
type batcher struct {
	update func(func(*tx) error) error
	max    int
	linger time.Duration
	calls  chan *batchCall
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
	// onCommit observes each committed group (Options.OnCommit).
	onCommit func(calls int, took time.Duration)
}

type batchCall struct {
	fn  func(model.Tx) error
	err chan error
}

func newBatcher(update func(func(*tx) error) error, max int, linger time.Duration) *batcher {
	b := &batcher{update: update, max: max, linger: linger, calls: make(chan *batchCall),
		stop: make(chan struct{}), done: make(chan struct{})}
	go b.loop()
	return b
}

// do runs fn in the next group and returns once that group is committed.
func (b *batcher) do(fn func(model.Tx) error) error {
	call := &batchCall{fn: fn, err: make(chan error, 1)}
	select {
	case b.calls <- call:
		return <-call.err
	case <-b.stop:
		return bolt.ErrDatabaseNotOpen
	}
}

// close stops taking calls; the group being committed finishes first.
func (b *batcher) close() {
	b.once.Do(func() { close(b.stop) })
	<-b.done
}

func (b *batcher) loop() {
	defer close(b.done)
	for {
		var group []*batchCall
		select {
		case call := <-b.calls:
			group = append(group, call)
		case <-b.stop:
			return
		}
		group = b.gather(group)
		b.commit(group)
	}
}

// gather adds every call already waiting; with a linger set, a small group
// also waits that long for company.
func (b *batcher) gather(group []*batchCall) []*batchCall {
	var timeout <-chan time.Time
	if b.linger > 0 {
		timer := time.NewTimer(b.linger)
		defer timer.Stop()
		timeout = timer.C
	}
	for len(group) < b.max {
		select {
		case call := <-b.calls:
			group = append(group, call)
			continue
		default:
		}
		if timeout == nil {
			return group
		}
		select {
		case call := <-b.calls:
			group = append(group, call)
		case <-timeout:
			return group
		}
	}
	return group
}

// commit runs the group in one transaction. A failing call is answered
// with its error and the rest run again without it, so fn may run more
// than once (as with bbolt's Batch).
func (b *batcher) commit(group []*batchCall) {
	for len(group) > 0 {
		began := time.Now()
		failed := -1
		var failure error
		err := b.update(func(t *tx) error {
			for i, call := range group {
				if err := call.fn(t); err != nil {
					failed, failure = i, err
					return err
				}
			}
			return nil
		})
		if failed < 0 {
			if b.onCommit != nil && err == nil {
				b.onCommit(len(group), time.Since(began))
			}
			for _, call := range group {
				call.err <- err
			}
			return
		}
		group[failed].err <- failure
		group = append(group[:failed], group[failed+1:]...)
	}
}
