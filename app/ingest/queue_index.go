package ingest

import (
	"sync"

	"github.com/fleetd/fleetd/app/model"
)

// queueIndex counts each device's queued commands in memory, so that the
// check every OsmAnd request and every device connection makes ("anything
// queued for me?") costs a map lookup instead of decoding the whole queue.
//
// A count is never below what the store holds: it goes up before a command
// is stored and down only by what a taking transaction deleted. It can be
// above (a store write that failed, briefly one in flight): then the check
// looks in the store and finds nothing, which is only slower.
type queueIndex struct {
	mu sync.Mutex
	n  map[int64]int // nil until loaded
}

// load counts the stored queue on first use; a failed load is tried again
// next time.
func (q *queueIndex) load(ig *Service) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.n != nil {
		return nil
	}
	n := map[int64]int{}
	err := ig.store.View(func(tx model.Tx) error {
		return tx.QueuedCommands().List(func(qc *model.QueuedCommand) bool {
			n[qc.DeviceID]++
			return true
		})
	})
	if err == nil {
		q.n = n
	}
	return err
}

// add records k commands about to be stored for device.
func (q *queueIndex) add(device int64, k int) {
	q.mu.Lock()
	q.n[device] += k
	q.mu.Unlock()
}

// remove records k commands of device deleted from the store (or not
// stored after all).
func (q *queueIndex) remove(device int64, k int) {
	q.mu.Lock()
	if q.n[device] -= k; q.n[device] <= 0 {
		delete(q.n, device)
	}
	q.mu.Unlock()
}

// any reports whether device may have queued commands.
func (q *queueIndex) any(device int64) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n[device] > 0
}
