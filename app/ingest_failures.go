package app

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// ingestLogWindow is the shortest time between two lines about failed
// ingest calls.
const ingestLogWindow = 30 * time.Second

// ingestFailures condenses failed ingest calls into at most one log line
// per ingestLogWindow. When the store cannot write (a full disk), every
// device message fails and is sent again; a line each would be thousands
// a minute, written to the disk that is full. The first failure is logged
// at once; the ones after it are counted and logged with the next failure
// or success once the window has passed, the success line saying that
// positions are stored again.
type ingestFailures struct {
	failing atomic.Bool // a failure is not reported as over yet; the success path reads only this

	mu        sync.Mutex
	lastLine  time.Time
	first     time.Time          // first failure counted since lastLine
	positions int                // positions of the counted failures
	devices   map[int64]struct{} // their devices
	lastErr   error
}

// note records the outcome of one ingest call of n positions.
func (f *ingestFailures) note(log *slog.Logger, now func() time.Time, deviceID int64, n int, err error) {
	if err == nil && !f.failing.Load() {
		return
	}
	t := now()
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.failing.Store(true)
		if f.positions == 0 {
			f.first, f.devices = t, map[int64]struct{}{}
		}
		f.positions += n
		f.devices[deviceID] = struct{}{}
		f.lastErr = err
	}
	if t.Sub(f.lastLine) < ingestLogWindow {
		return
	}
	switch {
	case err == nil && f.positions == 0:
		log.Info("positions stored again")
	case err == nil:
		log.Info("positions stored again", "notStored", f.positions, "devices", len(f.devices),
			"over", t.Sub(f.first).Round(time.Second).String(), "lastErr", f.lastErr)
	default:
		log.Error("positions not stored", "positions", f.positions, "devices", len(f.devices),
			"over", t.Sub(f.first).Round(time.Second).String(), "err", f.lastErr)
	}
	f.failing.Store(err != nil)
	f.lastLine, f.positions, f.devices, f.lastErr = t, 0, nil, nil
}
