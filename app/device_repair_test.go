package app_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
)

// repaired is what the repair makes of a crashed device.
type repaired struct {
	status     string
	positionID int64  // index+1 into arrivals, 0 for none
	lastUpdate int    // minutes before now; 0: null
	event      string // the event it stores, if any
}

// check compares what the API shows and what the store holds with want.
func (s *crashStore) check(name string, id int64, want repaired) {
	s.t.Helper()
	show := func(d *model.Device) string {
		update := "null"
		if d.LastUpdate != nil {
			update = d.LastUpdate.UTC().String()
		}
		return fmt.Sprintf("status %s, positionId %d, lastUpdate %s", d.Status, d.PositionID, update)
	}
	expected := &model.Device{Status: want.status, PositionID: s.positionID(id, want.positionID)}
	if want.lastUpdate != 0 {
		at := minutesAgo(want.lastUpdate)
		expected.LastUpdate = &at
	}
	wantShown := show(expected)
	api, err := s.core.Fleet.Devices.Get(model.System(), id)
	if err != nil {
		s.t.Fatal(err)
	}
	var stored *model.Device
	if err := s.db.View(func(tx model.Tx) (err error) { stored, err = tx.Devices().Get(id); return err }); err != nil {
		s.t.Fatal(err)
	}
	if got := show(api); got != wantShown {
		s.t.Errorf("%s: the API shows %s, want %s", name, got, wantShown)
	}
	if got := show(stored); got != wantShown {
		s.t.Errorf("%s: the store holds %s, want %s", name, got, wantShown)
	}
	var events []string
	s.db.View(func(tx model.Tx) error {
		return tx.Events(id, time.Time{}, crashNow.Add(time.Hour), func(e *model.Event) bool {
			events = append(events, e.Type)
			return true
		})
	})
	if got := strings.Join(events, ","); got != want.event {
		s.t.Errorf("%s: events %q, want %q", name, got, want.event)
	}
}

// After a crash each device's positionId and lastUpdate follow its newest
// stored position, and "online" needs a connection or a recent report.
func TestRepairDevices(t *testing.T) {
	tests := []struct {
		name string
		left crashed
		want repaired
	}{
		{"reported for under a minute, then the crash (the issue's device)",
			crashed{model.StatusOnline, 0, 0, []arrival{{125, 121}, {124, 120}}},
			repaired{model.StatusUnknown, 2, 120, model.EventDeviceUnknown}},
		{"reported seconds before a quick restart: still online",
			crashed{model.StatusOnline, 0, 0, []arrival{{3, 2}, {2, 1}}},
			repaired{model.StatusOnline, 2, 1, ""}},
		{"record a minute behind its positions",
			crashed{model.StatusOffline, 1, 30, []arrival{{31, 30}, {30, 29}, {29, 28}}},
			repaired{model.StatusOffline, 3, 28, ""}},
		{"online, never reported",
			crashed{model.StatusOnline, 0, 0, nil},
			repaired{model.StatusUnknown, 0, 0, model.EventDeviceUnknown}},
		{"a late fix arrived last: lastUpdate stays",
			crashed{model.StatusOffline, 0, 15, []arrival{{20, 20}, {90, 15}}},
			repaired{model.StatusOffline, 1, 15, ""}},
		{"positions deleted since",
			crashed{model.StatusOffline, 9, 40, nil},
			repaired{model.StatusOffline, 0, 40, ""}},
		{"unknown already",
			crashed{model.StatusUnknown, 1, 50, []arrival{{50, 50}}},
			repaired{model.StatusUnknown, 1, 50, ""}},
	}
	s := newCrashStore(t)
	ids := map[string]int64{}
	for _, tc := range tests {
		ids[tc.name] = s.add(tc.name, tc.left)
	}
	// More devices than one chunk, all left online by the crash.
	const many = 600
	for i := range many {
		s.add(fmt.Sprintf("fleet-%d", i), crashed{model.StatusOnline, 0, 0, []arrival{{60, 60}}})
	}
	n, err := s.core.Ingest.RepairDevices(context.Background(), 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(tests) - 1 + many; n != want { // all but the one already consistent
		t.Errorf("repaired %d devices, want %d", n, want)
	}
	for _, tc := range tests {
		s.check(tc.name, ids[tc.name], tc.want)
	}
	if n, err := s.core.Ingest.RepairDevices(context.Background(), 10*time.Minute); n != 0 || err != nil {
		t.Errorf("a second repair changed %d devices (%v), want none", n, err)
	}
}

// viewHook runs a function after the nth read transaction of the store.
type viewHook struct {
	model.Store
	views atomic.Int32
	after map[int32]func()
}

func (h *viewHook) View(fn func(model.Tx) error) error {
	err := h.Store.View(fn)
	if f := h.after[h.views.Add(1)]; f != nil {
		f()
	}
	return err
}

// A device that reports or connects between the repair's look at the
// store and its write keeps what that gave it: the write looks again.
func TestRepairDevicesLeavesWhatHappenedMeanwhile(t *testing.T) {
	left := crashed{model.StatusOnline, 0, 0, []arrival{{125, 121}, {124, 120}}}
	for _, tc := range []struct {
		name string
		// during acts on the device and returns its latest position id.
		during func(s *crashStore, device int64) int64
		update time.Time
	}{
		{"reports", func(s *crashStore, device int64) int64 {
			p := &model.Position{FixTime: minutesAgo(1), Valid: true}
			if err := s.core.Ingest.Ingest(device, []*model.Position{p}); err != nil {
				t.Fatal(err)
			}
			return p.ID
		}, crashNow},
		{"reports a fix the ingest drops", func(s *crashStore, device int64) int64 {
			p := &model.Position{FixTime: time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC), Valid: true} // a reset clock
			if err := s.core.Ingest.Ingest(device, []*model.Position{p}); err != nil {
				t.Fatal(err)
			}
			return s.positionID(device, 2)
		}, crashNow},
		{"connects", func(s *crashStore, device int64) int64 {
			s.core.Ingest.Connected(device, fakeConn{})
			return s.positionID(device, 2)
		}, minutesAgo(120)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newCrashStore(t)
			id := s.add("truck", left)
			hook := &viewHook{Store: s.db}
			s.core = app.New(hook, app.Options{BcryptCost: 4, Now: func() time.Time { return crashNow }})
			// The repair's read transactions: the device list, then the
			// first chunk's look for stale records.
			var latest int64
			hook.after = map[int32]func(){2: func() { latest = tc.during(s, id) }}
			if _, err := s.core.Ingest.RepairDevices(context.Background(), 10*time.Minute); err != nil {
				t.Fatal(err)
			}
			d, err := s.core.Fleet.Devices.Get(model.System(), id)
			if err != nil {
				t.Fatal(err)
			}
			if d.Status != model.StatusOnline || d.PositionID != latest || d.LastUpdate == nil || !d.LastUpdate.Equal(tc.update) {
				t.Errorf("status %s, positionId %d, lastUpdate %v; want online, %d, %s",
					d.Status, d.PositionID, d.LastUpdate, latest, tc.update)
			}
		})
	}
}
