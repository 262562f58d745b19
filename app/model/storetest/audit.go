package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// audit: entries come back in time order (equal times in id order) within
// the range, whole, and Prune drops the oldest, at most limit of them.
func (s *suite) audit(t *testing.T) {
	st := s.open(t)
	entries := []model.AuditEntry{
		{ActionTime: at(5), UserID: 1, ActionType: model.ActionEdit, ObjectType: model.KindDevice, ObjectID: 7, Address: "192.0.2.1"},
		{ActionTime: at(1), UserID: 2, ActionType: model.ActionCreate, ObjectType: model.KindUser, ObjectID: 3},
		{ActionTime: at(5), UserID: 1, ActionType: model.ActionRemove, ObjectType: model.KindGroup, ObjectID: 9},
		{ActionTime: at(9), UserID: 1, ActionType: model.ActionLogin, ObjectType: model.KindUser, ObjectID: 1},
	}
	update(t, st, func(tx model.Tx) error {
		for i := range entries {
			if err := tx.Audit().Add(&entries[i]); err != nil {
				return err
			}
		}
		return nil
	})
	ranged := func(from, to time.Time) (ids []int64) {
		view(t, st, func(tx model.Tx) error {
			return tx.Audit().Range(from, to, func(e *model.AuditEntry) bool {
				if want := entries[e.ID-1]; !e.ActionTime.Equal(want.ActionTime) || e.UserID != want.UserID ||
					e.ObjectType != want.ObjectType || e.ObjectID != want.ObjectID || e.Address != want.Address {
					t.Errorf("entry %d reads back as %+v, stored %+v", e.ID, e, want)
				}
				ids = append(ids, e.ID)
				return true
			})
		})
		return ids
	}
	if got := ranged(time.Time{}, at(100)); !slices.Equal(got, []int64{2, 1, 3, 4}) {
		t.Errorf("Range(all) = %v, want [2 1 3 4]", got)
	}
	if got := ranged(at(5), at(5)); !slices.Equal(got, []int64{1, 3}) {
		t.Errorf("Range(5, 5) = %v, want [1 3]", got)
	}
	update(t, st, func(tx model.Tx) error {
		n, err := tx.Audit().Prune(at(9), 2)
		if n != 2 {
			t.Errorf("Prune(9, limit 2) = %d, want 2", n)
		}
		return err
	})
	if got := ranged(time.Time{}, at(100)); !slices.Equal(got, []int64{3, 4}) {
		t.Errorf("after Prune: %v, want [3 4]", got)
	}
}

// statistics: one record per capture time, replaced by a later Put, read
// back in time order.
func (s *suite) statistics(t *testing.T) {
	st := s.open(t)
	day := func(d int) time.Time { return t0.Add(time.Duration(d) * 24 * time.Hour) }
	update(t, st, func(tx model.Tx) error {
		for _, v := range []model.Statistics{
			{CaptureTime: day(2), Requests: 5},
			{CaptureTime: day(1), Requests: 7, Protocols: map[string]int{"gt06": 3}},
			{CaptureTime: day(2), Requests: 9, ActiveUsers: 2},
		} {
			if err := tx.Statistics().Put(&v); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, st, func(tx model.Tx) error {
		var got []model.Statistics
		err := tx.Statistics().Range(day(0), day(5), func(v *model.Statistics) bool { got = append(got, *v); return true })
		if len(got) != 2 || got[0].Requests != 7 || got[0].Protocols["gt06"] != 3 || got[1].Requests != 9 || got[1].ActiveUsers != 2 {
			t.Errorf("Range = %+v, want day 1 then day 2 as last put", got)
		}
		if v, err := tx.Statistics().Get(day(2)); err != nil || v.Requests != 9 {
			t.Errorf("Get(day 2) = %+v, %v", v, err)
		}
		if _, err := tx.Statistics().Get(day(3)); model.ClassOf(err) != model.ClassNotFound {
			t.Errorf("Get(day 3) = %v, want not found", err)
		}
		return err
	})
}
