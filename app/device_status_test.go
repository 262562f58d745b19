package app_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// crashed is a device as a crash leaves it: the record as last written,
// the positions as stored (serverTime minutes before now).
type crashed struct {
	status     string
	positionID int64 // index+1 into arrivals, or a missing id when > len
	lastUpdate int   // minutes before now; 0: null
	arrivals   []arrival
}

type arrival struct{ fix, server int } // minutes before now

var crashNow = t0.Add(72 * time.Hour)

func minutesAgo(m int) time.Time { return crashNow.Add(-time.Duration(m) * time.Minute) }

// crashStore is a store holding devices as a crash left them.
type crashStore struct {
	t         *testing.T
	db        *storage.DB
	core      *app.Core
	positions map[int64][]int64 // device -> ids of its arrivals
}

func newCrashStore(t *testing.T) *crashStore {
	t.Helper()
	db := storagetest.Open(t)
	core := app.New(db, app.Options{BcryptCost: 4, Now: func() time.Time { return crashNow }})
	return &crashStore{t: t, db: db, core: core, positions: map[int64][]int64{}}
}

// add stores a device as c describes it and returns its id.
func (s *crashStore) add(name string, c crashed) int64 {
	s.t.Helper()
	d, err := s.core.Fleet.Devices.Create(model.System(), func(d *model.Device) error { d.Name, d.UniqueID = name, name; return nil })
	if err != nil {
		s.t.Fatal(err)
	}
	err = s.db.Update(func(tx model.Tx) error {
		var ids []int64
		for _, a := range c.arrivals {
			p := &model.Position{DeviceID: d.ID, FixTime: minutesAgo(a.fix), ServerTime: minutesAgo(a.server), Valid: true}
			if err := tx.AddPosition(p); err != nil {
				return err
			}
			ids = append(ids, p.ID)
		}
		s.positions[d.ID] = ids
		d.Status, d.PositionID, d.LastUpdate = c.status, s.positionID(d.ID, c.positionID), nil
		if c.lastUpdate != 0 {
			at := minutesAgo(c.lastUpdate)
			d.LastUpdate = &at
		}
		return tx.Devices().Put(d)
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return d.ID
}

func (s *crashStore) positionID(device, index int64) int64 {
	if index == 0 {
		return 0
	}
	if ids := s.positions[device]; index <= int64(len(ids)) {
		return ids[index-1]
	}
	return 1 << 40 // a position that no longer exists
}

// fakeConn is a live device connection that takes every command.
type fakeConn struct{}

func (fakeConn) Protocol() string          { return "gt06" }
func (fakeConn) Send(*model.Command) error { return nil }

// The status sweep ends an "online" that nothing holds up: no live
// connection, and no report within the timeout or none at all.
func TestSweepStatusEndsStaleOnline(t *testing.T) {
	tests := []struct {
		name      string
		left      crashed
		connected bool
		want      string
	}{
		{"never reported, no connection (left by a crash)", crashed{model.StatusOnline, 0, 0, nil}, false, model.StatusUnknown},
		{"silent past the timeout", crashed{model.StatusOnline, 1, 30, []arrival{{30, 30}}}, false, model.StatusUnknown},
		{"reported within the timeout", crashed{model.StatusOnline, 1, 5, []arrival{{5, 5}}}, false, model.StatusOnline},
		{"never reported, connected", crashed{model.StatusOnline, 0, 0, nil}, true, model.StatusOnline},
		{"silent, connected", crashed{model.StatusOnline, 1, 30, []arrival{{30, 30}}}, true, model.StatusOnline},
		{"offline", crashed{model.StatusOffline, 0, 0, nil}, false, model.StatusOffline},
	}
	s := newCrashStore(t)
	ids := map[string]int64{}
	for _, tc := range tests {
		ids[tc.name] = s.add(tc.name, tc.left)
		if tc.connected {
			s.core.Ingest.Connected(ids[tc.name], fakeConn{})
		}
	}
	if err := s.core.Ingest.SweepStatus(10 * time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		if d, err := s.core.Fleet.Devices.Get(model.System(), ids[tc.name]); err != nil || d.Status != tc.want {
			t.Errorf("%s: status %v (%v), want %s", tc.name, d.Status, err, tc.want)
		}
	}
}
