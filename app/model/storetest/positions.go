package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// addPositions stores fixes in order in one transaction and returns their
// ids and whether each was its device's latest right after being added.
func addPositions(t *testing.T, st model.Store, fixes []model.Position) (ids []int64, latest []bool) {
	t.Helper()
	update(t, st, func(tx model.Tx) error {
		for i := range fixes {
			p := fixes[i]
			if err := tx.AddPosition(&p); err != nil {
				return err
			}
			now, err := tx.LatestPosition(p.DeviceID)
			if err != nil {
				return fmt.Errorf("LatestPosition after AddPosition: %w", err)
			}
			ids, latest = append(ids, p.ID), append(latest, now.ID == p.ID)
		}
		return nil
	})
	return ids, latest
}

// positionIDs is the ids Positions gives, checking each is of device.
func positionIDs(t *testing.T, tx model.Tx, device int64, from, to time.Time) []int64 {
	t.Helper()
	var ids []int64
	err := tx.Positions(device, from, to, func(p *model.Position) bool {
		if p.DeviceID != device {
			t.Errorf("Positions of device %d gave position %d of device %d", device, p.ID, p.DeviceID)
		}
		ids = append(ids, p.ID)
		return true
	})
	if err != nil {
		t.Errorf("Positions(%d): %v", device, err)
	}
	return ids
}

// latestID is the id of device's latest position, 0 when it has none
// (LatestPosition is ErrNotFound).
func latestID(t *testing.T, tx model.Tx, device int64) int64 {
	t.Helper()
	p, err := tx.LatestPosition(device)
	switch {
	case isNotFound(err):
		return 0
	case err != nil:
		t.Errorf("LatestPosition(%d): %v", device, err)
		return -1
	case p.DeviceID != device:
		t.Errorf("LatestPosition(%d) is of device %d", device, p.DeviceID)
	}
	return p.ID
}

// rangeFixes, with the ids AddPosition gives them on a fresh store. Device
// 1's order is 8, 4, 1, 10, 9, 3, 6.
func rangeFixes() []model.Position {
	addr := "Main St"
	return []model.Position{
		{DeviceID: 1, FixTime: at(10), Latitude: 1, Address: &addr, Attributes: model.Attributes{"ignition": true}}, // 1
		{DeviceID: 2, FixTime: at(10)},                                         // 2
		{DeviceID: 1, FixTime: at(20)},                                         // 3
		{DeviceID: 1, FixTime: at(5)},                                          // 4: a late fix, older than the latest
		{DeviceID: 2, FixTime: at(-60)},                                        // 5
		{DeviceID: 1, FixTime: at(20)},                                         // 6: the time of 3, stored after it
		{DeviceID: 256, FixTime: at(0)},                                        // 7: an id with a zero byte
		{DeviceID: 1, FixTime: time.Date(1969, 7, 20, 20, 17, 0, 0, time.UTC)}, // 8: before 1970
		{DeviceID: 1, FixTime: at(15).In(time.FixedZone("CEST", 2*3600))},      // 9: another zone
		{DeviceID: 1, FixTime: at(10).Add(time.Millisecond)},                   // 10: a millisecond after 1
	}
}

func (s *suite) positions(t *testing.T) {
	t.Run("AddPosition assigns ids in the order stored; LatestPosition is the newest fix, of equal fixes the last stored", func(t *testing.T) {
		st := s.open(t)
		ids, latest := addPositions(t, st, rangeFixes())
		sameIDs(t, "ids", ids, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
		if want := []bool{true, true, true, false, false, true, true, false, false, false}; !slices.Equal(latest, want) {
			t.Errorf("latest right after each AddPosition = %v, want %v", latest, want)
		}
		view(t, st, func(tx model.Tx) error {
			for device, want := range map[int64]int64{1: 6, 2: 2, 256: 7, 3: 0, 0: 0} {
				if got := latestID(t, tx, device); got != want {
					t.Errorf("LatestPosition(%d) = %d, want %d (0: ErrNotFound)", device, got, want)
				}
			}
			return nil
		})
	})
	t.Run("Position returns what AddPosition stored", func(t *testing.T) {
		st := s.open(t)
		full := model.Position{DeviceID: 1, Protocol: "teltonika", ServerTime: at(1), DeviceTime: at(0),
			FixTime: at(0).Add(250 * time.Millisecond), Outdated: true, Valid: true, Latitude: 52.5, Longitude: -13.25,
			Altitude: 30, Speed: 12.5, Course: 270, Address: strp("Main St"), Accuracy: 5,
			Network: map[string]any{"radioType": "gsm"}, GeofenceIDs: []int64{3, 1},
			Attributes: model.Attributes{"ignition": true, "odometer": 1234.5, "io": map[string]any{"a": "b"}}}
		bare := model.Position{DeviceID: 2, FixTime: at(1)}
		var stored []model.Position
		update(t, st, func(tx model.Tx) error {
			for _, p := range []model.Position{full, bare} {
				if err := tx.AddPosition(&p); err != nil {
					return err
				}
				stored = append(stored, p)
				got, err := tx.Position(p.ID)
				if err != nil {
					return fmt.Errorf("Position in the writing transaction: %w", err)
				}
				same(t, "Position in the writing transaction", got, &p)
			}
			return nil
		})
		view(t, st, func(tx model.Tx) error {
			for _, want := range stored {
				got, err := tx.Position(want.ID)
				if err != nil {
					return err
				}
				same(t, fmt.Sprint("Position(", want.ID, ")"), got, &want)
				var scanned *model.Position
				tx.Positions(want.DeviceID, beginning, end, func(p *model.Position) bool { scanned = p; return false })
				same(t, "Positions", scanned, &want)
				latest, err := tx.LatestPosition(want.DeviceID)
				if err != nil {
					return err
				}
				same(t, "LatestPosition", latest, &want)
			}
			return nil
		})
	})
	t.Run("Position of a missing id is ErrNotFound", func(t *testing.T) {
		st := s.open(t)
		addPositions(t, st, rangeFixes()[:3])
		view(t, st, func(tx model.Tx) error {
			for _, id := range []int64{0, -1, 4, 1 << 40} {
				p, err := tx.Position(id)
				wantIs(t, err, model.ErrNotFound, fmt.Sprint("Position(", id, ")"))
				if p != nil {
					t.Errorf("Position(%d) returned %+v with the error", id, p)
				}
			}
			return nil
		})
	})

	cest, est := time.FixedZone("CEST", 2*3600), time.FixedZone("EST", -5*3600)
	for _, r := range []struct {
		name     string
		device   int64
		from, to time.Time
		want     []int64
	}{
		{"all of a device in fixTime order, equal times in id order", 1, beginning, end, []int64{8, 4, 1, 10, 9, 3, 6}},
		{"another device", 2, beginning, end, []int64{5, 2}},
		{"a device whose id has a zero byte", 256, beginning, end, []int64{7}},
		{"bounds are inclusive", 1, at(5), at(20), []int64{4, 1, 10, 9, 3, 6}},
		{"an inner range", 1, at(6), at(19), []int64{1, 10, 9}},
		{"a single instant", 1, at(10), at(10), []int64{1}},
		{"a millisecond", 1, at(10).Add(time.Millisecond), at(10).Add(time.Millisecond), []int64{10}},
		{"bounds in other zones", 1, at(15).In(est), at(20).In(cest), []int64{9, 3, 6}},
		{"a range between fixes", 1, at(11), at(14), nil},
		{"after the newest", 1, at(21), end, nil},
		{"from after to", 1, at(20), at(5), nil},
		{"a device without positions", 3, beginning, end, nil},
		{"device 0", 0, beginning, end, nil},
		{"before 1970", 1, beginning, time.Unix(0, 0), []int64{8}},
	} {
		t.Run("Positions: "+r.name, func(t *testing.T) {
			st := s.open(t)
			addPositions(t, st, rangeFixes())
			view(t, st, func(tx model.Tx) error {
				sameIDs(t, "Positions", positionIDs(t, tx, r.device, r.from, r.to), r.want)
				return nil
			})
		})
	}
	t.Run("Positions stops when fn returns false", func(t *testing.T) {
		st := s.open(t)
		addPositions(t, st, rangeFixes())
		for n := 1; n <= 7; n++ {
			var got []int64
			view(t, st, func(tx model.Tx) error {
				return tx.Positions(1, beginning, end, func(p *model.Position) bool { got = append(got, p.ID); return len(got) < n })
			})
			sameIDs(t, fmt.Sprint("Positions stopping after ", n), got, []int64{8, 4, 1, 10, 9, 3, 6}[:n])
		}
	})
	t.Run("Positions and LatestPosition see the transaction's own writes", func(t *testing.T) {
		st := s.open(t)
		addPositions(t, st, rangeFixes())
		update(t, st, func(tx model.Tx) error {
			p := model.Position{DeviceID: 1, FixTime: at(12)}
			if err := tx.AddPosition(&p); err != nil {
				return err
			}
			sameIDs(t, "Positions", positionIDs(t, tx, 1, at(10), at(15)), []int64{1, 10, 11, 9})
			if n, err := tx.DeletePositions(1, at(20), at(20), 10); n != 2 || err != nil {
				t.Errorf("DeletePositions = %d, %v; want 2", n, err)
			}
			if got := latestID(t, tx, 1); got != 9 {
				t.Errorf("LatestPosition = %d, want 9", got)
			}
			sameIDs(t, "Positions after the deletion", positionIDs(t, tx, 1, beginning, end), []int64{8, 4, 1, 10, 11, 9})
			return nil
		})
	})

	s.positionsAfter(t)
	s.deletePositions(t)
}

func (s *suite) positionsAfter(t *testing.T) {
	fixes := []model.Position{
		{DeviceID: 1, FixTime: at(10)}, // 1
		{DeviceID: 1, FixTime: at(20)}, // 2
		{DeviceID: 1, FixTime: at(20)}, // 3: the time of 2
		{DeviceID: 2, FixTime: at(20)}, // 4: another device
		{DeviceID: 1, FixTime: at(5)},  // 5: a late fix
		{DeviceID: 1, FixTime: at(30)}, // 6
		{DeviceID: 1, FixTime: at(20)}, // 7: the time of 2 again
	}
	order := []int64{5, 1, 2, 3, 7, 6} // device 1
	pos := func(id, device int64, fix time.Time) *model.Position {
		return &model.Position{Base: model.Base{ID: id}, DeviceID: device, FixTime: fix}
	}
	after := func(t *testing.T, tx model.Tx, last *model.Position, to time.Time, n int) []int64 {
		t.Helper()
		var ids []int64
		err := tx.PositionsAfter(last, to, func(p *model.Position) bool {
			if p.DeviceID != last.DeviceID {
				t.Errorf("PositionsAfter gave position %d of device %d", p.ID, p.DeviceID)
			}
			ids = append(ids, p.ID)
			return len(ids) < n
		})
		if err != nil {
			t.Errorf("PositionsAfter: %v", err)
		}
		return ids
	}
	for _, c := range []struct {
		name string
		last *model.Position
		to   time.Time
		want []int64
	}{
		{"after the oldest", pos(5, 1, at(5)), end, []int64{1, 2, 3, 7, 6}},
		{"between equal times", pos(2, 1, at(20)), end, []int64{3, 7, 6}},
		{"after the last of equal times", pos(7, 1, at(20)), end, []int64{6}},
		{"up to an inclusive bound", pos(1, 1, at(10)), at(20), []int64{2, 3, 7}},
		{"up to a bound before the next", pos(1, 1, at(10)), at(19), nil},
		{"up to a bound before last", pos(6, 1, at(30)), at(10), nil},
		{"after the newest", pos(6, 1, at(30)), end, nil},
		{"of another device", pos(1, 2, at(10)), end, []int64{4}},
		{"after a position of the zero time", pos(0, 1, time.Time{}), at(10), []int64{5, 1}},
	} {
		t.Run("PositionsAfter "+c.name, func(t *testing.T) {
			st := s.open(t)
			addPositions(t, st, fixes)
			view(t, st, func(tx model.Tx) error {
				sameIDs(t, "PositionsAfter", after(t, tx, c.last, c.to, 1<<30), c.want)
				return nil
			})
		})
	}
	t.Run("Positions then PositionsAfter page through every position once, in order", func(t *testing.T) {
		st := s.open(t)
		addPositions(t, st, fixes)
		for size := 1; size <= len(order)+1; size++ {
			var all []int64
			view(t, st, func(tx model.Tx) error {
				var last *model.Position
				err := tx.Positions(1, beginning, end, func(p *model.Position) bool {
					all, last = append(all, p.ID), p
					return len(all) < size
				})
				for page := 0; last != nil && page < 20; page++ {
					prev := last
					last = nil
					n := 0
					err = firstErr(err, tx.PositionsAfter(prev, end, func(p *model.Position) bool {
						all, last, n = append(all, p.ID), p, n+1
						return n < size
					}))
				}
				return err
			})
			sameIDs(t, fmt.Sprint("pages of ", size), all, order)
		}
	})
	t.Run("PositionsAfter goes on after a position deleted since", func(t *testing.T) {
		st := s.open(t)
		addPositions(t, st, fixes)
		var last *model.Position
		view(t, st, func(tx model.Tx) error {
			var n int
			return tx.Positions(1, beginning, end, func(p *model.Position) bool { last, n = p, n+1; return n < 3 })
		})
		if last == nil || last.ID != 2 {
			t.Fatalf("third position = %+v, want id 2", last)
		}
		update(t, st, func(tx model.Tx) error {
			_, err := tx.DeletePositions(1, at(20), at(20), 2) // 2 and 3
			return err
		})
		view(t, st, func(tx model.Tx) error {
			sameIDs(t, "PositionsAfter the deleted 2", after(t, tx, last, end, 1<<30), []int64{7, 6})
			return nil
		})
	})
}

func (s *suite) deletePositions(t *testing.T) {
	fixes := []model.Position{
		{DeviceID: 1, FixTime: at(10)}, // 1
		{DeviceID: 1, FixTime: at(20)}, // 2
		{DeviceID: 1, FixTime: at(30)}, // 3
		{DeviceID: 2, FixTime: at(20)}, // 4: device 2's only one
		{DeviceID: 1, FixTime: at(30)}, // 5: the time of 3, stored after it: device 1's latest
	}
	all := []int64{1, 2, 3, 5}
	for _, c := range []struct {
		name     string
		device   int64
		from, to time.Time
		limit    int
		deleted  int
		left     []int64 // device 1's
		latest   int64   // device 1's, 0 for none
	}{
		{"a range without the latest", 1, at(0), at(15), 10, 1, []int64{2, 3, 5}, 5},
		{"a range with the latest: the newest remaining becomes latest", 1, at(25), at(35), 10, 2, []int64{1, 2}, 2},
		{"a single instant", 1, at(20), at(20), 10, 1, []int64{1, 3, 5}, 5},
		{"everything", 1, beginning, end, 10, 4, nil, 0},
		{"nothing in the range", 1, at(40), at(50), 10, 0, all, 5},
		{"at most limit, oldest first", 1, beginning, end, 2, 2, []int64{3, 5}, 5},
		{"at most limit, of equal times the first stored first", 1, at(30), at(30), 1, 1, []int64{1, 2, 5}, 5},
		{"the limit reached exactly", 1, at(20), at(30), 3, 3, []int64{1}, 1},
		{"limit 0 deletes nothing", 1, beginning, end, 0, 0, all, 5},
		{"from after to deletes nothing", 1, at(30), at(10), 10, 0, all, 5},
		{"a device without positions", 3, beginning, end, 10, 0, all, 5},
	} {
		t.Run("DeletePositions: "+c.name, func(t *testing.T) {
			st := s.open(t)
			addPositions(t, st, fixes)
			check := func(tx model.Tx, when string) {
				sameIDs(t, "device 1's positions "+when, positionIDs(t, tx, 1, beginning, end), c.left)
				if got := latestID(t, tx, 1); got != c.latest {
					t.Errorf("device 1's LatestPosition %s = %d, want %d (0: ErrNotFound)", when, got, c.latest)
				}
				sameIDs(t, "device 2's positions "+when, positionIDs(t, tx, 2, beginning, end), []int64{4})
				if got := latestID(t, tx, 2); got != 4 {
					t.Errorf("device 2's LatestPosition %s = %d, want 4", when, got)
				}
				for _, id := range []int64{1, 2, 3, 4, 5} {
					_, err := tx.Position(id)
					kept := id == 4 || slices.Contains(c.left, id)
					if kept && err != nil {
						t.Errorf("Position(%d) %s: %v", id, when, err)
					} else if !kept {
						wantIs(t, err, model.ErrNotFound, fmt.Sprintf("Position(%d) %s", id, when))
					}
				}
			}
			update(t, st, func(tx model.Tx) error {
				n, err := tx.DeletePositions(c.device, c.from, c.to, c.limit)
				if n != c.deleted {
					t.Errorf("DeletePositions = %d, want %d", n, c.deleted)
				}
				if err == nil {
					check(tx, "in the deleting transaction")
				}
				return err
			})
			view(t, st, func(tx model.Tx) error { check(tx, "after"); return nil })
			// Ids are not reused; a new fix is the latest if none is newer.
			ids, latest := addPositions(t, st, []model.Position{{DeviceID: 1, FixTime: at(1)}})
			if ids[0] != 6 {
				t.Errorf("id of the next position = %d, want 6", ids[0])
			}
			if latest[0] != (c.latest == 0) {
				t.Errorf("the next position (older than all) is latest: %v, want %v", latest[0], c.latest == 0)
			}
		})
	}
	// Enough positions that deleting the newest empties whole pages of a
	// B-tree: the latest must still be found in the same transaction.
	for _, c := range []struct {
		name   string
		from   time.Time
		latest int64
	}{
		{"the newest half deleted", at(300), 300},
		{"all but the oldest deleted", at(1), 1},
		{"all deleted", at(0), 0},
	} {
		t.Run("LatestPosition in the transaction that deleted "+c.name+" of 600", func(t *testing.T) {
			st := s.open(t)
			var many []model.Position
			for i := range 600 {
				many = append(many, model.Position{DeviceID: 1, FixTime: at(i)})
			}
			many = append(many, model.Position{DeviceID: 2, FixTime: at(0)}, model.Position{DeviceID: 2, FixTime: at(1)})
			addPositions(t, st, many)
			update(t, st, func(tx model.Tx) error {
				n, err := tx.DeletePositions(1, c.from, end, 1000)
				if err != nil {
					return err
				}
				if want := int(600 - c.latest); n != want {
					t.Errorf("DeletePositions = %d, want %d", n, want)
				}
				if got := latestID(t, tx, 1); got != c.latest {
					t.Errorf("LatestPosition(1) = %d, want %d (0: ErrNotFound)", got, c.latest)
				}
				if got := latestID(t, tx, 2); got != 602 {
					t.Errorf("LatestPosition(2) = %d, want 602", got)
				}
				return nil
			})
			view(t, st, func(tx model.Tx) error {
				if got := latestID(t, tx, 1); got != c.latest {
					t.Errorf("LatestPosition(1) after = %d, want %d (0: ErrNotFound)", got, c.latest)
				}
				return nil
			})
		})
	}
	t.Run("DeletePositions in chunks, one transaction each, deletes everything", func(t *testing.T) {
		st := s.open(t)
		var many []model.Position
		for i := range 100 {
			many = append(many, model.Position{DeviceID: 1, FixTime: at(i % 40)}, model.Position{DeviceID: 2, FixTime: at(i)})
		}
		addPositions(t, st, many)
		var counts []int
		for n := -1; n != 0 && len(counts) < 30; {
			update(t, st, func(tx model.Tx) (err error) {
				n, err = tx.DeletePositions(1, beginning, end, 7)
				return err
			})
			counts = append(counts, n)
		}
		want := append(slices.Repeat([]int{7}, 14), 2, 0)
		if !slices.Equal(counts, want) {
			t.Errorf("chunk counts = %v, want %v", counts, want)
		}
		view(t, st, func(tx model.Tx) error {
			if got := latestID(t, tx, 1); got != 0 {
				t.Errorf("LatestPosition(1) = %d, want ErrNotFound", got)
			}
			if got := positionIDs(t, tx, 2, beginning, end); len(got) != 100 {
				t.Errorf("device 2 kept %d positions, want 100", len(got))
			}
			return nil
		})
	})
}
