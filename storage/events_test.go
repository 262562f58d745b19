package storage

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func eventIDs(t *testing.T, db *DB, device int64, from, to time.Time) []int64 {
	t.Helper()
	var ids []int64
	mustView(t, db, func(tx model.Tx) error {
		return tx.Events(device, from, to, func(e *model.Event) bool { ids = append(ids, e.ID); return true })
	})
	return ids
}

func TestEvents(t *testing.T) {
	db := openTestDB(t)
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, e := range []model.Event{
			{DeviceID: 1, EventTime: at(10), Type: "deviceOnline"},                                                     // 1
			{DeviceID: 2, EventTime: at(10), Type: "deviceOnline"},                                                     // 2
			{DeviceID: 1, EventTime: at(5), Type: "ignitionOn", PositionID: 7, Attributes: model.Attributes{"a": "b"}}, // 3
			{DeviceID: 1, EventTime: at(30), Type: "deviceOffline"},                                                    // 4
		} {
			if err := tx.AddEvent(&e); err != nil {
				return err
			}
		}
		return nil
	})
	runRanges(t, db, eventIDs, []rangeCase{
		{"device 1 in time order", 1, time.Time{}, at(100), []int64{3, 1, 4}},
		{"device 2", 2, time.Time{}, at(100), []int64{2}},
		{"inclusive bounds", 1, at(5), at(10), []int64{3, 1}},
		{"empty", 1, at(11), at(29), nil},
	})
	mustView(t, db, func(tx model.Tx) error {
		e, err := tx.Event(3)
		if err != nil || e.Type != "ignitionOn" || e.PositionID != 7 || !e.EventTime.Equal(at(5)) || e.Attributes["a"] != "b" {
			t.Errorf("Event(3) = %+v, %v", e, err)
		}
		_, err = tx.Event(9)
		wantKind(t, err, model.ErrNotFound)
		return nil
	})

	for _, bad := range []model.Event{{EventTime: t0}, {DeviceID: 1}} {
		err := db.Update(func(tx model.Tx) error { return tx.AddEvent(&bad) })
		wantKind(t, err, model.ErrInvalid)
	}

	mustUpdate(t, db, func(tx model.Tx) error {
		n, err := tx.DeleteEvents(1, 2)
		if n != 2 {
			t.Errorf("DeleteEvents with limit 2 removed %d", n)
		}
		if n, err = tx.DeleteEvents(1, 10); n != 1 {
			t.Errorf("DeleteEvents removed %d more, want the last 1", n)
		}
		return err
	})
	if got := eventIDs(t, db, 1, time.Time{}, at(100)); got != nil {
		t.Errorf("device 1 events after delete = %v", got)
	}
	if got := eventIDs(t, db, 2, time.Time{}, at(100)); !reflect.DeepEqual(got, []int64{2}) {
		t.Errorf("device 2 events after deleting device 1's = %v", got)
	}
	mustView(t, db, func(tx model.Tx) error {
		_, err := tx.Event(1)
		wantKind(t, err, model.ErrNotFound)
		return nil
	})
}
