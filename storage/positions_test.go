package storage

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

var t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }

// addPositions stores fixes in the given order and returns their ids and
// whether each was its device's latest position right after it was added.
func addPositions(t *testing.T, db *DB, fixes []model.Position) (ids []int64, latest []bool) {
	t.Helper()
	mustUpdate(t, db, func(tx model.Tx) error {
		for i := range fixes {
			p := fixes[i]
			if err := tx.AddPosition(&p); err != nil {
				return err
			}
			now, err := tx.LatestPosition(p.DeviceID)
			if err != nil {
				return err
			}
			ids, latest = append(ids, p.ID), append(latest, now.ID == p.ID)
		}
		return nil
	})
	return ids, latest
}

func positionIDs(t *testing.T, db *DB, device int64, from, to time.Time) []int64 {
	t.Helper()
	var ids []int64
	mustView(t, db, func(tx model.Tx) error {
		return tx.Positions(device, from, to, func(p *model.Position) bool {
			if p.DeviceID != device {
				t.Errorf("device %d scan returned a position of device %d", device, p.DeviceID)
			}
			ids = append(ids, p.ID)
			return true
		})
	})
	return ids
}

func latestID(t *testing.T, db *DB, device int64) int64 {
	t.Helper()
	var id int64
	mustView(t, db, func(tx model.Tx) error {
		p, err := tx.LatestPosition(device)
		if err == nil {
			id = p.ID
		} else if model.ClassOf(err) != model.ClassNotFound {
			return err
		}
		return nil
	})
	return id
}

// rangeCase is one time-range query of a device's series and the ids it
// must return in order.
type rangeCase struct {
	name     string
	device   int64
	from, to time.Time
	want     []int64
}

func runRanges(t *testing.T, db *DB, ids func(*testing.T, *DB, int64, time.Time, time.Time) []int64, cases []rangeCase) {
	for _, r := range cases {
		t.Run(r.name, func(t *testing.T) {
			if got := ids(t, db, r.device, r.from, r.to); !reflect.DeepEqual(got, r.want) {
				t.Errorf("ids = %v, want %v", got, r.want)
			}
		})
	}
}

func TestAddPositionRejectsBadInput(t *testing.T) {
	db := openTestDB(t)
	for name, p := range map[string]model.Position{
		"no device":        {FixTime: t0},
		"negative device":  {DeviceID: -1, FixTime: t0},
		"no fix time":      {DeviceID: 1},
		"after year 2262":  {DeviceID: 1, FixTime: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)},
		"before year 1678": {DeviceID: 1, FixTime: time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(name, func(t *testing.T) {
			err := db.Update(func(tx model.Tx) error { err := tx.AddPosition(&p); return err })
			wantKind(t, err, model.ErrInvalid)
		})
	}
}
