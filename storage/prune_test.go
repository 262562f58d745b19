package storage

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// minutesFixes are fixes of device at the given minutes after t0.
func minutesFixes(device int64, minutes ...int) []model.Position {
	var out []model.Position
	for _, m := range minutes {
		out = append(out, model.Position{DeviceID: device, FixTime: at(m)})
	}
	return out
}

func TestPrunePositions(t *testing.T) {
	db := openTestDB(t)
	ids1, _ := addPositions(t, db, minutesFixes(1, 0, 1, 2, 3, 4, 5, 6))
	ids2, _ := addPositions(t, db, minutesFixes(2, 0, 1, 2))
	all := time.Time{}
	end := at(1000)
	for _, step := range []struct {
		name   string
		device int64
		cutoff time.Time
		limit  int
		want   int     // deleted
		left1  []int64 // device 1's remaining positions
		left2  []int64
	}{
		{"limit bounds one call", 1, at(4), 2, 2, ids1[2:], ids2},
		{"strictly before the cutoff", 1, at(4), 100, 2, ids1[4:], ids2},
		{"nothing left to prune", 1, at(4), 100, 0, ids1[4:], ids2},
		{"latest position is kept", 2, end, 100, 2, ids1[4:], ids2[2:]},
		{"zero limit deletes nothing", 1, end, 0, 0, ids1[4:], ids2[2:]},
		{"unknown device", 9, end, 100, 0, ids1[4:], ids2[2:]},
		{"invalid device", -1, end, 100, 0, ids1[4:], ids2[2:]},
		{"far future cutoff", 1, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 100, 2, ids1[6:], ids2[2:]},
	} {
		writes := pagesWritten(db)
		n, err := db.PrunePositions(step.device, step.cutoff, step.limit)
		if err != nil || n != step.want {
			t.Fatalf("%s: PrunePositions = %d, %v; want %d", step.name, n, err, step.want)
		}
		// Nothing to delete writes nothing: no commit, no fsync.
		if wrote := pagesWritten(db) > writes; wrote != (step.want > 0) {
			t.Fatalf("%s: wrote pages %v, want %v", step.name, wrote, step.want > 0)
		}
		if got := positionIDs(t, db, 1, all, end); !reflect.DeepEqual(got, step.left1) {
			t.Fatalf("%s: device 1 keeps %v, want %v", step.name, got, step.left1)
		}
		if got := positionIDs(t, db, 2, all, end); !reflect.DeepEqual(got, step.left2) {
			t.Fatalf("%s: device 2 keeps %v, want %v", step.name, got, step.left2)
		}
	}
	if latestID(t, db, 1) != ids1[6] || latestID(t, db, 2) != ids2[2] {
		t.Errorf("latest = %d, %d; want %d, %d", latestID(t, db, 1), latestID(t, db, 2), ids1[6], ids2[2])
	}
	mustView(t, db, func(tx model.Tx) error {
		_, err := tx.Position(ids1[0])
		wantKind(t, err, model.ErrNotFound)
		return nil
	})
}

func TestPruneEvents(t *testing.T) {
	db := openTestDB(t)
	var ids []int64
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, m := range []int{0, 1, 2, 3} {
			e := &model.Event{DeviceID: 1, Type: "alarm", EventTime: at(m)}
			if err := tx.AddEvent(e); err != nil {
				return err
			}
			ids = append(ids, e.ID)
		}
		return tx.AddEvent(&model.Event{DeviceID: 2, Type: "alarm", EventTime: at(0)})
	})
	// Unlike positions, the newest event is not kept.
	for _, step := range []struct {
		cutoff time.Time
		limit  int
		want   int
		left   []int64
	}{
		{at(2), 1, 1, ids[1:]},
		{at(2), 10, 1, ids[2:]},
		{at(10), 10, 2, nil},
	} {
		n, err := db.PruneEvents(1, step.cutoff, step.limit)
		if err != nil || n != step.want {
			t.Fatalf("PruneEvents(%v, %d) = %d, %v; want %d", step.cutoff, step.limit, n, err, step.want)
		}
		var left []int64
		mustView(t, db, func(tx model.Tx) error {
			return tx.Events(1, time.Time{}, at(1000), func(e *model.Event) bool { left = append(left, e.ID); return true })
		})
		if !reflect.DeepEqual(left, step.left) {
			t.Fatalf("events left %v, want %v", left, step.left)
		}
	}
	var other int
	mustView(t, db, func(tx model.Tx) error {
		return tx.Events(2, time.Time{}, at(1000), func(*model.Event) bool { other++; return true })
	})
	if other != 1 {
		t.Errorf("device 2 has %d events, want its 1 untouched", other)
	}
}

func TestSize(t *testing.T) {
	db := openTestDB(t)
	before, err := db.Size()
	if err != nil || before <= 0 {
		t.Fatalf("Size = %d, %v", before, err)
	}
	var fixes []model.Position
	for i := range 5000 {
		fixes = append(fixes, model.Position{DeviceID: 1, FixTime: at(i), Attributes: model.Attributes{"pad": "0123456789abcdef"}})
	}
	addPositions(t, db, fixes)
	if after, _ := db.Size(); after <= before {
		t.Errorf("Size after 5000 positions = %d, before %d", after, before)
	}
}

// pagesWritten is how many pages the store's commits have written.
func pagesWritten(db *DB) int64 {
	st := db.bolt.Stats()
	return st.TxStats.GetWrite()
}

// BenchmarkRetentionNothingDue is one retention pass over 2,000 devices
// none of whose records is due: it reads, and writes nothing.
func BenchmarkRetentionNothingDue(b *testing.B) {
	db := openTestDB(b)
	const devices = 2000
	if err := db.Update(func(tx model.Tx) error {
		for d := int64(1); d <= devices; d++ {
			if err := tx.AddPosition(&model.Position{DeviceID: d, FixTime: at(10)}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		for d := int64(1); d <= devices; d++ {
			if _, err := db.PrunePositions(d, at(0), 500); err != nil {
				b.Fatal(err)
			}
			if _, err := db.PruneEvents(d, at(0), 500); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// PruneMedia deletes the files of one prefix below a bound, at most limit
// at a time; a longer prefix that starts the same ("10/" for "1/") and
// names at or above the bound stay.
func TestPruneMedia(t *testing.T) {
	db := openTestDB(t)
	names := []string{"1/20260101T000000Z-A.amr", "1/20260102T000000Z-B.jpg", "1/20260103T000000Z-C.jpg", "1/device.png", "10/20260101T000000Z-D.amr"}
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, n := range names {
			if err := tx.Media().Put(n, &model.Blob{Type: "x/y", Data: []byte(n)}); err != nil {
				return err
			}
		}
		return nil
	})
	for _, step := range []struct {
		bound       string
		limit, want int
		left        []string
	}{
		{"1/20260103T000000Z", 1, 1, names[1:]},
		{"1/20260103T000000Z", 10, 1, names[2:]},
		{"1/20260103T000000Z", 10, 0, names[2:]},
	} {
		n, err := db.PruneMedia("1/", step.bound, step.limit)
		if err != nil || n != step.want {
			t.Fatalf("PruneMedia(%q, %d) = %d, %v; want %d", step.bound, step.limit, n, err, step.want)
		}
		var left []string
		mustView(t, db, func(tx model.Tx) error {
			for _, n := range names {
				if _, err := tx.Media().Get(n); err == nil {
					left = append(left, n)
				}
			}
			return nil
		})
		if !reflect.DeepEqual(left, step.left) {
			t.Fatalf("left %q, want %q", left, step.left)
		}
	}
}
