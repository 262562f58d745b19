package app_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
)

// TestPositionHistory reads a route longer than several chunks, with equal
// fix times across the chunk boundaries: every position once, in order.
func TestPositionHistory(t *testing.T) {
	f := newFixture(t)
	const n = 2500
	var want []int64
	err := f.db.Update(func(tx app.Tx) error {
		for i := range n {
			at := t0.Add(time.Duration(i/3) * time.Second) // three fixes per second
			p := &app.Position{DeviceID: f.dev.ID, FixTime: at, DeviceTime: at, ServerTime: at, Attributes: app.Attributes{}}
			if err := tx.AddPosition(p); err != nil {
				return err
			}
			want = append(want, p.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	user, err := f.core.CreateUser(f.admin, func(u *app.User) error { u.Email, u.Password = "u@example.com", "pw"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	link := app.Permission{OwnerKind: app.KindUser, OwnerID: user.ID, PropKind: app.KindDevice, PropID: f.dev.ID}
	if err := f.core.Link(f.admin, link); err != nil {
		t.Fatal(err)
	}
	from, to := t0, t0.Add(time.Hour)

	read := func(actor *app.User, stop func(i int) error) ([]int64, error) {
		h, err := f.core.PositionHistory(actor, f.dev.ID, from, to)
		if err != nil {
			return nil, err
		}
		var got []int64
		err = h.Each(func(p *app.Position) error {
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
				return f.core.Unlink(f.admin, link)
			}
			return nil
		})
		if app.KindOf(err) != app.KindNotFound || len(got) != 1000 {
			t.Fatalf("%d positions, err %v; want the first chunk, then not found", len(got), err)
		}
	})
	t.Run("checked before reading", func(t *testing.T) {
		if _, err := f.core.PositionHistory(user, f.dev.ID, from, to); app.KindOf(err) != app.KindNotFound {
			t.Errorf("unlinked user: %v, want not found", err)
		}
		if _, err := f.core.PositionHistory(f.admin, f.dev.ID, to, from); app.KindOf(err) != app.KindInvalid {
			t.Errorf("to before from: %v, want invalid", err)
		}
	})
}
