package storage

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// errRollback makes a test transaction roll back.
var errRollback = errors.New("rollback")

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

func TestPositions(t *testing.T) {
	db := openTestDB(t)
	addr := "Main St"
	ids, latest := addPositions(t, db, []model.Position{
		{DeviceID: 1, FixTime: at(10), Latitude: 1, Address: &addr, Attributes: model.Attributes{"ignition": true}}, // id 1
		{DeviceID: 2, FixTime: at(10)},                                         // 2
		{DeviceID: 1, FixTime: at(20)},                                         // 3
		{DeviceID: 1, FixTime: at(5)},                                          // 4: late fix, older than latest
		{DeviceID: 2, FixTime: at(-60)},                                        // 5
		{DeviceID: 1, FixTime: at(20)},                                         // 6: same time as latest: becomes latest
		{DeviceID: 256, FixTime: at(0)},                                        // 7: id with a zero byte in the key
		{DeviceID: 1, FixTime: time.Date(1969, 7, 20, 20, 17, 0, 0, time.UTC)}, // 8: before 1970
	})
	if want := []int64{1, 2, 3, 4, 5, 6, 7, 8}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids = %v, want %v", ids, want)
	}
	if want := []bool{true, true, true, false, false, true, true, false}; !reflect.DeepEqual(latest, want) {
		t.Errorf("latest flags = %v, want %v", latest, want)
	}
	for device, want := range map[int64]int64{1: 6, 2: 2, 256: 7, 3: 0} {
		if got := latestID(t, db, device); got != want {
			t.Errorf("latest of device %d = %d, want %d", device, got, want)
		}
	}

	var never time.Time
	forever := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	runRanges(t, db, positionIDs, []rangeCase{
		{"all of device 1 in time order", 1, never, forever, []int64{8, 4, 1, 3, 6}},
		{"all of device 2", 2, never, forever, []int64{5, 2}},
		{"device 256", 256, never, forever, []int64{7}},
		{"bounds are inclusive", 1, at(5), at(20), []int64{4, 1, 3, 6}},
		{"inner range", 1, at(6), at(19), []int64{1}},
		{"single instant", 1, at(10), at(10), []int64{1}},
		{"empty range", 1, at(11), at(19), nil},
		{"from after to", 1, at(20), at(5), nil},
		{"unknown device", 3, never, forever, nil},
		{"device 0", 0, never, forever, nil},
		{"before 1970 only", 1, never, time.Unix(0, 0), []int64{8}},
	})

	mustView(t, db, func(tx model.Tx) error {
		p, err := tx.Position(1)
		if err != nil {
			return err
		}
		if p.DeviceID != 1 || !p.FixTime.Equal(at(10)) || p.Latitude != 1 || p.Address == nil || *p.Address != addr || p.Attributes["ignition"] != true {
			t.Errorf("Position(1) = %+v", p)
		}
		for _, id := range []int64{0, -1, 99} {
			_, err := tx.Position(id)
			wantKind(t, err, model.ErrNotFound)
		}
		n := 0
		tx.Positions(1, never, forever, func(*model.Position) bool { n++; return n < 2 })
		if n != 2 {
			t.Errorf("scan visited %d positions after fn returned false, want 2", n)
		}
		return nil
	})
}

// PositionsAfter resumes exactly where a scan stopped, also among
// positions with the same fix time.
func TestPositionsAfter(t *testing.T) {
	db := openTestDB(t)
	addPositions(t, db, []model.Position{
		{DeviceID: 1, FixTime: at(10)}, // id 1
		{DeviceID: 1, FixTime: at(20)}, // 2
		{DeviceID: 1, FixTime: at(20)}, // 3: same time, larger id
		{DeviceID: 2, FixTime: at(20)}, // 4: another device
		{DeviceID: 1, FixTime: at(5)},  // 5: late fix
		{DeviceID: 1, FixTime: at(30)}, // 6
		{DeviceID: 1, FixTime: at(20)}, // 7: same time again
	})
	forever := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		after model.Position
		to    time.Time
		want  []int64
	}{
		{"after the first", model.Position{Base: model.Base{ID: 5}, DeviceID: 1, FixTime: at(5)}, forever, []int64{1, 2, 3, 7, 6}},
		{"between equal times", model.Position{Base: model.Base{ID: 2}, DeviceID: 1, FixTime: at(20)}, forever, []int64{3, 7, 6}},
		{"after the last of a time", model.Position{Base: model.Base{ID: 7}, DeviceID: 1, FixTime: at(20)}, forever, []int64{6}},
		{"up to an inclusive bound", model.Position{Base: model.Base{ID: 1}, DeviceID: 1, FixTime: at(10)}, at(20), []int64{2, 3, 7}},
		{"after the newest", model.Position{Base: model.Base{ID: 6}, DeviceID: 1, FixTime: at(30)}, forever, nil},
		{"other device", model.Position{Base: model.Base{ID: 1}, DeviceID: 2, FixTime: at(10)}, forever, []int64{4}},
		{"before the key range", model.Position{DeviceID: 1, FixTime: time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)}, at(10), []int64{5, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int64
			mustView(t, db, func(tx model.Tx) error {
				return tx.PositionsAfter(&tc.after, tc.to, func(p *model.Position) bool {
					got = append(got, p.ID)
					return true
				})
			})
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ids %v, want %v", got, tc.want)
			}
		})
	}
}

// Deleting a device's newest positions empties whole leaves; its latest
// position read in the same transaction must still be found (bbolt's Prev
// stops on an emptied leaf).
func TestLatestAfterDeletingInTheSameTx(t *testing.T) {
	db := openTestDB(t)
	var fixes []model.Position
	for i := range 600 {
		fixes = append(fixes, model.Position{DeviceID: 1, FixTime: at(i)})
	}
	fixes = append(fixes, model.Position{DeviceID: 2, FixTime: at(0)}) // a range follows device 1's
	addPositions(t, db, fixes)
	for _, tc := range []struct {
		name   string
		from   time.Time
		latest int64
	}{
		{"newest 300 deleted", at(300), 300},
		{"all but the first", at(1), 1},
		{"all", at(0), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := db.Update(func(tx model.Tx) error {
				if _, err := tx.DeletePositions(1, tc.from, at(1000), 1000); err != nil {
					return err
				}
				p, err := tx.LatestPosition(1)
				switch {
				case tc.latest == 0 && model.ClassOf(err) != model.ClassNotFound:
					t.Errorf("latest %+v (%v), want none", p, err)
				case tc.latest != 0 && (err != nil || p.ID != tc.latest):
					t.Errorf("latest %+v (%v), want id %d", p, err, tc.latest)
				}
				return errRollback
			})
			if err != errRollback {
				t.Fatal(err)
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

func TestDeletePositions(t *testing.T) {
	fixes := []model.Position{
		{DeviceID: 1, FixTime: at(10)}, // 1
		{DeviceID: 1, FixTime: at(20)}, // 2
		{DeviceID: 1, FixTime: at(30)}, // 3 latest of device 1
		{DeviceID: 2, FixTime: at(20)}, // 4 latest of device 2
	}
	tests := []struct {
		name       string
		from, to   time.Time
		limit      int
		deleted    int
		left       []int64
		wantLatest int64 // 0: none
	}{
		{"range without latest", at(0), at(15), 10, 1, []int64{2, 3}, 3},
		{"range with latest", at(25), at(35), 10, 1, []int64{1, 2}, 2},
		{"middle", at(20), at(20), 10, 1, []int64{1, 3}, 3},
		{"everything", time.Time{}, at(100), 10, 3, nil, 0},
		{"nothing", at(40), at(50), 10, 0, []int64{1, 2, 3}, 3},
		{"limit: oldest first", time.Time{}, at(100), 2, 2, []int64{3}, 3},
		{"limit reached exactly", at(20), at(30), 2, 2, []int64{1}, 1},
		{"no limit, nothing deleted", time.Time{}, at(100), 0, 0, []int64{1, 2, 3}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTestDB(t)
			addPositions(t, db, fixes)
			mustUpdate(t, db, func(tx model.Tx) error {
				n, err := tx.DeletePositions(1, tt.from, tt.to, tt.limit)
				if n != tt.deleted {
					t.Errorf("deleted %d, want %d", n, tt.deleted)
				}
				return err
			})
			if got := positionIDs(t, db, 1, time.Time{}, at(100)); !reflect.DeepEqual(got, tt.left) {
				t.Errorf("left %v, want %v", got, tt.left)
			}
			if got := latestID(t, db, 1); got != tt.wantLatest {
				t.Errorf("latest = %d, want %d", got, tt.wantLatest)
			}
			if got := latestID(t, db, 2); got != 4 {
				t.Errorf("device 2 latest = %d, want 4", got)
			}
			mustView(t, db, func(tx model.Tx) error {
				for id := int64(1); id <= 3; id++ {
					_, err := tx.Position(id)
					kept := false
					for _, l := range tt.left {
						kept = kept || l == id
					}
					if kept != (err == nil) {
						t.Errorf("Position(%d) error %v, kept %v", id, err, kept)
					}
				}
				return nil
			})
			// A new fix after deleting everything becomes latest even if older.
			_, latest := addPositions(t, db, []model.Position{{DeviceID: 1, FixTime: at(1)}})
			if latest[0] != (tt.wantLatest == 0) {
				t.Errorf("AddPosition after delete reported latest=%v", latest[0])
			}
		})
	}
}
