package app_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
)

func (f *fixture) addEvents(device int64, events ...*model.Event) {
	f.t.Helper()
	err := f.db.Update(func(tx model.Tx) error {
		for _, e := range events {
			e.DeviceID = device
			if err := tx.AddEvent(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
}

// TestExtendedEventsNewestAcrossYears: newest-first reads grow their window
// back from to, so events years apart are found in order, none twice.
func TestExtendedEventsNewestAcrossYears(t *testing.T) {
	f := newFixture(t)
	var want []int64
	var events []*model.Event
	for _, at := range []time.Time{t0.AddDate(-3, 0, 0), t0.AddDate(-1, 0, 0), t0.Add(-90 * time.Minute), t0.Add(-time.Hour),
		t0.Add(-time.Hour), t0.Add(-time.Nanosecond), t0} {
		events = append(events, &model.Event{Type: model.EventDeviceStopped, EventTime: at})
	}
	f.addEvents(f.dev.ID, events...)
	for i := len(events) - 1; i >= 0; i-- {
		want = append(want, events[i].ID)
	}
	for _, limit := range []int{1, 2, 3, 7, 20} {
		got, err := f.core.Fleet.ExtendedEvents(f.admin, fleet.EventQuery{From: t0.AddDate(-5, 0, 0), To: t0, Desc: true, Page: 1, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		if w := want[:min(limit, len(want))]; !slices.Equal(ids, w) {
			t.Errorf("limit %d: %v, want %v", limit, ids, w)
		}
	}
	// M7 finds a stop from years ago behind newer non-stop events.
	f2 := newFixture(t)
	old := &model.Event{Type: model.EventIgnitionOff, EventTime: t0.AddDate(-2, 0, 0)}
	f2.addEvents(f2.dev.ID, old, &model.Event{Type: model.EventIgnitionOn, EventTime: t0})
	stop, err := f2.core.Fleet.LastStop(f2.admin, f2.dev.ID)
	if err != nil || stop.ID != old.ID {
		t.Fatalf("last stop %+v %v, want %d", stop, err, old.ID)
	}
}

// BenchmarkExtendedEventsDay is E2's figure: a 1-day query over 100
// devices that each have a week of events at 300 a day (a busy vehicle:
// ignition, motion, alarms, geofences, online/offline). It reads the first
// page (limit 20) oldest first, newest first, and of one type.
func BenchmarkExtendedEventsDay(b *testing.B) {
	const devices, perDay, days = 100, 300, 7
	db := storagetest.Open(b)
	core := app.New(db, app.Options{BcryptCost: 4})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "pw")
	if err != nil {
		b.Fatal(err)
	}
	types := []string{model.EventIgnitionOn, model.EventIgnitionOff, model.EventDeviceMoving, model.EventDeviceStopped,
		model.EventGeofenceEnter, model.EventGeofenceExit, model.EventDeviceOnline, model.EventDeviceOffline, model.EventAlarm}
	start := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for d := range devices {
		dev, err := core.Fleet.Devices.Create(admin, func(v *model.Device) error {
			v.Name, v.UniqueID = fmt.Sprint("d", d), fmt.Sprint(100000+d)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		err = db.Update(func(tx model.Tx) error {
			for i := range perDay * days {
				at := start.Add(time.Duration(i) * 24 * time.Hour / perDay).Add(time.Duration(d) * time.Second)
				e := &model.Event{Type: types[(i+d)%len(types)], EventTime: at, DeviceID: dev.ID, PositionID: int64(i + 1),
					Attributes: model.Attributes{"alarm": "vibration"}}
				if err := tx.AddEvent(e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	day := start.AddDate(0, 0, 3)
	for _, q := range []struct {
		name string
		q    fleet.EventQuery
	}{
		{"asc", fleet.EventQuery{From: day, To: day.Add(24*time.Hour - 1), Page: 1, Limit: 20}},
		{"desc", fleet.EventQuery{From: day, To: day.Add(24*time.Hour - 1), Desc: true, Page: 1, Limit: 20}},
		{"alarm-desc", fleet.EventQuery{Types: []string{model.EventAlarm}, From: day, To: day.Add(24*time.Hour - 1), Desc: true, Page: 1, Limit: 20}},
		{"page5-asc", fleet.EventQuery{From: day, To: day.Add(24*time.Hour - 1), Page: 5, Limit: 20}},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				got, err := core.Fleet.ExtendedEvents(admin, q.q)
				if err != nil || len(got) != 20 {
					b.Fatalf("%d events, %v", len(got), err)
				}
			}
		})
	}
}
