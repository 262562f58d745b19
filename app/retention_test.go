package app_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/storagetest"
)

func TestParseRetention(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"90d", 90 * 24 * time.Hour, true},
		{" 1.5d ", 36 * time.Hour, true},
		{"720h", 720 * time.Hour, true},
		{"0s", 0, true},
		{"-1d", 0, false},
		{"-5h", 0, false},
		{"d", 0, false},
		{"90 days", 0, false},
		{"", 0, false},
		{"99999999d", 0, false},
	} {
		got, err := ingest.ParseRetention(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseRetention(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// retentionNow is the clock of the retention tests: t0 plus ten days.
var retentionNow = t0.Add(10 * 24 * time.Hour)

func retentionCore(t *testing.T) (*app.Core, *storage.DB) {
	t.Helper()
	db := storagetest.Open(t)
	return app.New(db, app.Options{BcryptCost: 4, Now: func() time.Time { return retentionNow }}), db
}

func addDevice(t *testing.T, core *app.Core, uniqueID string, attrs model.Attributes) *model.Device {
	t.Helper()
	d, err := core.Fleet.Devices.Create(model.System(), func(d *model.Device) error {
		d.Name, d.UniqueID, d.Attributes = uniqueID, uniqueID, attrs
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// seedHistory stores a position and an alarm event every step from t0 up
// to retentionNow for device, directly in the store (fast).
func seedHistory(t *testing.T, db *storage.DB, device int64, step time.Duration) {
	t.Helper()
	err := db.Update(func(tx model.Tx) error {
		for at := t0; at.Before(retentionNow); at = at.Add(step) {
			if err := tx.AddPosition(&model.Position{DeviceID: device, FixTime: at, Attributes: model.Attributes{}}); err != nil {
				return err
			}
			if err := tx.AddEvent(&model.Event{DeviceID: device, Type: model.EventAlarm, EventTime: at}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// history is a device's stored positions and events, as fix/event times.
type history struct{ positions, events []time.Time }

func readHistory(t *testing.T, db *storage.DB, device int64) history {
	t.Helper()
	var h history
	far := retentionNow.Add(365 * 24 * time.Hour)
	err := db.View(func(tx model.Tx) error {
		if err := tx.Positions(device, time.Time{}, far, func(p *model.Position) bool {
			h.positions = append(h.positions, p.FixTime)
			return true
		}); err != nil {
			return err
		}
		return tx.Events(device, time.Time{}, far, func(e *model.Event) bool {
			h.events = append(h.events, e.EventTime)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// keepFrom is what retention must leave of times: those at or after
// cutoff, plus the newest one when keepLatest (a device's latest position).
func keepFrom(times []time.Time, cutoff time.Time, keepLatest bool) []time.Time {
	var out []time.Time
	for i, at := range times {
		if !at.Before(cutoff) || (keepLatest && i == len(times)-1) {
			out = append(out, at)
		}
	}
	return out
}

func TestApplyRetentionWindowsAndOverrides(t *testing.T) {
	const day = 24 * time.Hour
	opts := ingest.RetentionOptions{Positions: 3 * day, Events: 5 * day, Chunk: 7}
	for _, tc := range []struct {
		name              string
		attrs             model.Attributes
		positions, events time.Duration // expected windows; 0 keeps everything
	}{
		{"configured windows", nil, 3 * day, 5 * day},
		{"days as a number", model.Attributes{ingest.AttrRetentionPositions: 1.0}, 1 * day, 5 * day},
		{"duration string", model.Attributes{ingest.AttrRetentionEvents: "36h"}, 3 * day, 36 * time.Hour},
		{"zero keeps forever", model.Attributes{ingest.AttrRetentionPositions: 0.0, ingest.AttrRetentionEvents: "0"}, 0, 0},
		{"invalid override ignored", model.Attributes{ingest.AttrRetentionPositions: "soon", ingest.AttrRetentionEvents: true}, 3 * day, 5 * day},
		{"negative override ignored", model.Attributes{ingest.AttrRetentionPositions: -2.0}, 3 * day, 5 * day},
	} {
		t.Run(tc.name, func(t *testing.T) {
			core, db := retentionCore(t)
			d := addDevice(t, core, "R1", tc.attrs)
			other := addDevice(t, core, "R2", model.Attributes{ingest.AttrRetentionPositions: 0.0, ingest.AttrRetentionEvents: 0.0})
			seedHistory(t, db, d.ID, 2*time.Hour)
			seedHistory(t, db, other.ID, 2*time.Hour)
			before, beforeOther := readHistory(t, db, d.ID), readHistory(t, db, other.ID)

			got, err := core.Ingest.ApplyRetention(context.Background(), db, opts)
			if err != nil {
				t.Fatal(err)
			}
			want := before
			if tc.positions > 0 {
				want.positions = keepFrom(before.positions, retentionNow.Add(-tc.positions), true)
			}
			if tc.events > 0 {
				want.events = keepFrom(before.events, retentionNow.Add(-tc.events), false)
			}
			after := readHistory(t, db, d.ID)
			if !slices.Equal(after.positions, want.positions) || !slices.Equal(after.events, want.events) {
				t.Errorf("kept %d positions and %d events, want %d and %d",
					len(after.positions), len(after.events), len(want.positions), len(want.events))
			}
			wantPruned := ingest.Pruned{Positions: len(before.positions) - len(want.positions), Events: len(before.events) - len(want.events)}
			if got != wantPruned {
				t.Errorf("ApplyRetention = %+v, want %+v", got, wantPruned)
			}
			if h := readHistory(t, db, other.ID); len(h.positions) != len(beforeOther.positions) || len(h.events) != len(beforeOther.events) {
				t.Errorf("a device that keeps forever lost records")
			}
		})
	}
}

// Retention deletes exactly what is older than the window while devices
// keep reporting through Ingest, whose commits must all succeed.
func TestApplyRetentionDuringIngest(t *testing.T) {
	const devices, reports = 4, 60
	window := 2 * 24 * time.Hour
	cutoff := retentionNow.Add(-window)
	core, db := retentionCore(t)
	var ids []int64
	for i := range devices {
		d := addDevice(t, core, fmt.Sprintf("C%d", i), nil)
		seedHistory(t, db, d.ID, 5*time.Minute) // 2880 positions each, 80% too old
		ids = append(ids, d.ID)
	}
	seeded := map[int64]history{}
	for _, id := range ids {
		seeded[id] = readHistory(t, db, id)
	}

	var wg sync.WaitGroup
	ingested := make([][]time.Time, devices)
	errs := make(chan error, devices+1)
	for i, id := range ids {
		wg.Go(func() {
			for r := range reports {
				// Fresh fixes in the last hour before now, after the seeded ones.
				at := retentionNow.Add(-time.Hour + time.Duration(r)*time.Second)
				p := &model.Position{FixTime: at, Valid: true, Latitude: 54.9, Longitude: 24.0}
				if err := core.Ingest.Ingest(id, []*model.Position{p}); err != nil {
					errs <- err
					return
				}
				ingested[i] = append(ingested[i], at)
			}
		})
	}
	wg.Go(func() {
		if _, err := core.Ingest.ApplyRetention(context.Background(), db, ingest.RetentionOptions{Positions: window, Chunk: 50}); err != nil {
			errs <- err
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i, id := range ids {
		want := append(keepFrom(seeded[id].positions, cutoff, false), ingested[i]...)
		slices.SortFunc(want, time.Time.Compare)
		got := readHistory(t, db, id)
		if !slices.Equal(got.positions, want) {
			t.Errorf("device %d keeps %d positions, want %d (%d seeded, %d ingested)",
				id, len(got.positions), len(want), len(seeded[id].positions), len(ingested[i]))
		}
		if len(got.events) < len(seeded[id].events) {
			t.Errorf("device %d lost events though events are kept forever", id)
		}
	}
}

// Cancelling stops retention between chunks.
func TestApplyRetentionCancelled(t *testing.T) {
	core, db := retentionCore(t)
	d := addDevice(t, core, "X", nil)
	seedHistory(t, db, d.ID, time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n, err := core.Ingest.ApplyRetention(ctx, db, ingest.RetentionOptions{Positions: time.Hour, Chunk: 5})
	if err != context.Canceled || n.Positions != 0 {
		t.Errorf("ApplyRetention on a cancelled context = %+v, %v", n, err)
	}
}
