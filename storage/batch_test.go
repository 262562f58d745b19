package storage

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Concurrent Batch calls share commits: with 200 callers there are fewer
// commits than calls, and every call is committed exactly once.
func TestBatchGroupsConcurrentCalls(t *testing.T) {
	var commits, calls atomic.Int64
	db, err := Open(filepath.Join(t.TempDir(), "fleetd.db"), Options{NoSync: true,
		OnCommit: func(n int, _ time.Duration) { commits.Add(1); calls.Add(int64(n)) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// One call holds the writer until the other 199 are waiting, so they
	// must be grouped however the goroutines are scheduled.
	held, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		err := db.Batch(func(tx model.Tx) error {
			close(held)
			<-release
			err := tx.AddPosition(position(0))
			return err
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-held
	var started atomic.Int64
	for i := 1; i < 200; i++ {
		wg.Go(func() {
			started.Add(1)
			if err := batchAdd(db, i); err != nil {
				t.Error(err)
			}
		})
	}
	for started.Load() < 199 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // let the last ones reach the batcher
	close(release)
	wg.Wait()
	if calls.Load() != 200 {
		t.Fatalf("committed calls = %d, want 200", calls.Load())
	}
	if commits.Load() >= 200 {
		t.Fatalf("%d commits for 200 concurrent calls: nothing was grouped", commits.Load())
	}
	t.Logf("200 calls in %d commits", commits.Load())
}

// position is the i-th test fix, over seven devices.
func position(i int) *model.Position {
	return &model.Position{DeviceID: int64(i%7 + 1), FixTime: time.Unix(1_700_000_000+int64(i), 0)}
}

// batchAdd stores position(i) through Batch.
func batchAdd(db *DB, i int) error {
	return db.Batch(func(tx model.Tx) error {
		err := tx.AddPosition(position(i))
		return err
	})
}
