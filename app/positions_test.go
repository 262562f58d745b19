package app_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// addRoute stores n positions of device from t0 on, perSecond fixes a
// second, and returns their ids in time order.
func (f *fixture) addRoute(device int64, n, perSecond int) []int64 {
	f.t.Helper()
	var ids []int64
	err := f.db.Update(func(tx model.Tx) error {
		for i := range n {
			at := t0.Add(time.Duration(i/perSecond) * time.Second)
			p := &model.Position{DeviceID: device, FixTime: at, DeviceTime: at, ServerTime: at, Attributes: model.Attributes{}}
			if err := tx.AddPosition(p); err != nil {
				return err
			}
			ids = append(ids, p.ID)
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return ids
}

// TestPositionHistory reads a route longer than several chunks, with equal
// fix times across the chunk boundaries: every position once, in order.
func TestPositionHistory(t *testing.T) {
	f := newFixture(t)
	want := f.addRoute(f.dev.ID, 2500, 3) // three fixes per second
	user, err := f.core.Accounts.CreateUser(f.admin, func(u *model.User) error { u.Email, u.Password = "u@example.com", "pw"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	link := model.Permission{OwnerKind: model.KindUser, OwnerID: user.ID, PropKind: model.KindDevice, PropID: f.dev.ID}
	if err := f.core.Fleet.Link(f.admin, link); err != nil {
		t.Fatal(err)
	}
	from, to := t0, t0.Add(time.Hour)

	read := func(actor *model.User, stop func(i int) error) ([]int64, error) {
		h, err := f.core.Fleet.PositionHistory(actor, f.dev.ID, from, to)
		if err != nil {
			return nil, err
		}
		var got []int64
		err = h.Each(func(p *model.Position) error {
			got = append(got, p.ID)
			return stop(len(got))
		})
		return got, err
	}
	never := func(int) error { return nil }
	t.Run("whole route", func(t *testing.T) {
		got, err := read(user, never)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%d positions (%v), want %d in id order", len(got), err, len(want))
		}
	})
	t.Run("part of the route", func(t *testing.T) {
		from, to = t0.Add(100*time.Second), t0.Add(500*time.Second)
		defer func() { from, to = t0, t0.Add(time.Hour) }()
		got, err := read(user, never)
		if err != nil || !slices.Equal(got, want[300:1503]) {
			t.Fatalf("%d positions (%v), want ids %d..%d", len(got), err, want[300], want[1502])
		}
	})
	t.Run("the caller stops", func(t *testing.T) {
		stop := errors.New("client went away")
		got, err := read(user, func(i int) error {
			if i == 1500 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || len(got) != 1500 {
			t.Fatalf("%d positions, err %v; want 1500 and the caller's error", len(got), err)
		}
	})
	t.Run("access revoked while reading", func(t *testing.T) {
		got, err := read(user, func(i int) error {
			if i == 1 {
				return f.core.Fleet.Unlink(f.admin, link)
			}
			return nil
		})
		if model.ClassOf(err) != model.ClassNotFound || len(got) != 1000 {
			t.Fatalf("%d positions, err %v; want the first chunk, then not found", len(got), err)
		}
	})
	t.Run("checked before reading", func(t *testing.T) {
		if _, err := f.core.Fleet.PositionHistory(user, f.dev.ID, from, to); model.ClassOf(err) != model.ClassNotFound {
			t.Errorf("unlinked user: %v, want not found", err)
		}
		if _, err := f.core.Fleet.PositionHistory(f.admin, f.dev.ID, to, from); model.ClassOf(err) != model.ClassInvalid {
			t.Errorf("to before from: %v, want invalid", err)
		}
	})
}

// Deleting a long history takes several transactions (each at most one
// deletion chunk), and leaves exactly what it should.
func TestBulkDeletion(t *testing.T) {
	f := newFixture(t)
	other, err := f.core.Fleet.Devices.Create(f.admin, func(d *model.Device) error { d.Name, d.UniqueID = "van", "V1"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	route := f.addRoute(f.dev.ID, 1250, 1)
	f.addRoute(other.ID, 10, 1)
	for range 1100 {
		f.addEvents(f.dev.ID, &model.Event{Type: "alarm", EventTime: t0, Attributes: model.Attributes{}})
	}
	f.addEvents(other.ID, &model.Event{Type: "alarm", EventTime: t0, Attributes: model.Attributes{}})
	far := t0.Add(24 * time.Hour)
	count := func(device int64) (positions, events int) {
		t.Helper()
		err := f.db.View(func(tx model.Tx) error {
			if err := tx.Positions(device, time.Time{}, far, func(*model.Position) bool { positions++; return true }); err != nil {
				return err
			}
			return tx.Events(device, time.Time{}, far, func(*model.Event) bool { events++; return true })
		})
		if err != nil {
			t.Fatal(err)
		}
		return positions, events
	}

	// D2 over 1,150 positions: three chunks; the device points at the
	// newest position left.
	if err := f.core.Fleet.DeletePositions(f.admin, f.dev.ID, t0.Add(100*time.Second), far); err != nil {
		t.Fatal(err)
	}
	list, err := f.core.Fleet.Positions(f.admin, fleet.PositionQuery{DeviceID: f.dev.ID, From: t0, To: far})
	if err != nil || len(list) != 100 || list[99].ID != route[99] {
		t.Fatalf("after D2: %d positions (%v), want the first 100", len(list), err)
	}
	if d, err := f.core.Fleet.Devices.Get(f.admin, f.dev.ID); err != nil || d.PositionID != route[99] {
		t.Errorf("device positionId %d (%v), want %d", d.PositionID, err, route[99])
	}

	// Deleting the device drains its positions and 1,100 events.
	if err := f.core.Fleet.Devices.Delete(f.admin, f.dev.ID); err != nil {
		t.Fatal(err)
	}
	if p, e := count(f.dev.ID); p != 0 || e != 0 {
		t.Errorf("deleted device keeps %d positions and %d events", p, e)
	}
	if p, e := count(other.ID); p != 10 || e != 1 {
		t.Errorf("other device has %d positions and %d events, want 10 and 1", p, e)
	}
}
