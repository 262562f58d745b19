package ingest

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// failureLogWindow is the shortest time between two lines of a
// failureLog.
const failureLogWindow = 30 * time.Second

// failureLog condenses a store write that fails again and again into at
// most one log line per failureLogWindow. When the store cannot write (a
// full disk), every device message fails and is sent again; a line each
// would be thousands a minute, written to the disk that is full. The first
// failure is logged at once; the ones after it are counted and logged with
// the next failure or success once the window has passed, the success line
// saying that the writes succeed again.
type failureLog struct {
	// failed and recovered are the two lines' messages; count and
	// uncounted the keys of the failure count in each.
	failed, recovered, count, uncounted string

	failing atomic.Bool // a failure is not reported as over yet; the success path reads only this

	mu       sync.Mutex
	lastLine time.Time
	first    time.Time          // first failure counted since lastLine
	n        int                // items of the counted failures
	devices  map[int64]struct{} // their devices
	lastErr  error
}

func newIngestFailures() *failureLog {
	return &failureLog{failed: "positions not stored", recovered: "positions stored again", count: "positions", uncounted: "notStored"}
}

func newStatusFailures() *failureLog {
	return &failureLog{failed: "device status not saved", recovered: "device status saved again", count: "statuses", uncounted: "notSaved"}
}

// note records the outcome of one write of n items of a device.
func (f *failureLog) note(log *slog.Logger, now func() time.Time, deviceID int64, n int, err error) {
	if err == nil && !f.failing.Load() {
		return
	}
	t := now()
	f.mu.Lock()
	defer f.mu.Unlock()
	if err != nil {
		f.failing.Store(true)
		if f.n == 0 {
			f.first, f.devices = t, map[int64]struct{}{}
		}
		f.n += n
		f.devices[deviceID] = struct{}{}
		f.lastErr = err
	}
	if t.Sub(f.lastLine) < failureLogWindow {
		return
	}
	switch {
	case err == nil && f.n == 0:
		log.Info(f.recovered)
	case err == nil:
		log.Info(f.recovered, f.uncounted, f.n, "devices", len(f.devices),
			"over", t.Sub(f.first).Round(time.Second).String(), "lastErr", f.lastErr)
	default:
		log.Error(f.failed, f.count, f.n, "devices", len(f.devices),
			"over", t.Sub(f.first).Round(time.Second).String(), "err", f.lastErr)
	}
	f.failing.Store(err != nil)
	f.lastLine, f.n, f.devices, f.lastErr = t, 0, nil, nil
}
