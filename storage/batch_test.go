package storage

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
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
	// The first call holds the writer until the other 199 are waiting, so
	// they must be grouped however the goroutines are scheduled.
	release := make(chan struct{})
	var started atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			started.Add(1)
			err := db.Batch(func(tx app.Tx) error {
				if i == 0 {
					<-release
				}
				_, err := tx.AddPosition(&app.Position{DeviceID: int64(i%7 + 1), FixTime: time.Unix(1_700_000_000+int64(i), 0)})
				return err
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	for started.Load() < 200 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
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
