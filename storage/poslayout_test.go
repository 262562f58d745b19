package storage

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// refStore is what the position store must hold: every device's
// positions in store order, by id.
type refStore map[int64][]model.Position

func (r refStore) add(p model.Position) { r[p.DeviceID] = append(r[p.DeviceID], p); r.sort(p.DeviceID) }

func (r refStore) sort(device int64) {
	slices.SortFunc(r[device], func(a, b model.Position) int {
		return cmp.Or(a.FixTime.Compare(b.FixTime), cmp.Compare(a.ID, b.ID))
	})
}

// delete removes at most limit of device's positions in [from, to] but
// keep, oldest first, as DeletePositions and PrunePositions must.
func (r refStore) delete(device int64, from, to time.Time, limit int, keep int64) int {
	n := 0
	r[device] = slices.DeleteFunc(r[device], func(p model.Position) bool {
		if n < limit && p.ID != keep && !p.FixTime.Before(from) && !p.FixTime.After(to) {
			n++
			return true
		}
		return false
	})
	return n
}

func (r refStore) latest(device int64) int64 {
	if ps := r[device]; len(ps) > 0 {
		return ps[len(ps)-1].ID
	}
	return 0
}

// checkStore compares every read of the store with ref.
func checkStore(t *testing.T, db *DB, ref refStore, devices int64, step string) {
	t.Helper()
	mustView(t, db, func(tx model.Tx) error {
		for d := int64(1); d <= devices; d++ {
			var got []int64
			err := tx.Positions(d, time.Time{}, maxKeyTime, func(p *model.Position) bool {
				if p.DeviceID != d {
					t.Errorf("%s: device %d scan returned position %d of device %d", step, d, p.ID, p.DeviceID)
				}
				got = append(got, p.ID)
				return true
			})
			if err != nil {
				return err
			}
			var want []int64
			for _, p := range ref[d] {
				want = append(want, p.ID)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: device %d positions\n got %v\nwant %v", step, d, got, want)
			}
			latest := int64(0)
			if p, err := tx.LatestPosition(d); err == nil {
				latest = p.ID
			}
			if w := ref.latest(d); latest != w {
				t.Fatalf("%s: device %d latest %d, want %d", step, d, latest, w)
			}
			for i, w := range ref[d] {
				if i%50 != 7 && i != len(ref[d])-1 { // a sample: each decodes a chunk
					continue
				}
				p, err := tx.Position(w.ID)
				if err != nil {
					t.Fatalf("%s: Position(%d): %v", step, w.ID, err)
				}
				if p.DeviceID != d || !p.FixTime.Equal(w.FixTime) || p.Latitude != w.Latitude || p.Attributes["n"] != w.Attributes["n"] {
					t.Fatalf("%s: Position(%d) = %+v, want %+v", step, w.ID, p, w)
				}
			}
			// A range in the middle, and going on after its second position.
			if ps := ref[d]; len(ps) > 3 {
				from, to := ps[1].FixTime, ps[len(ps)-2].FixTime
				var mid []int64
				tx.Positions(d, from, to, func(p *model.Position) bool { mid = append(mid, p.ID); return true })
				var wantMid []int64
				for _, p := range ps {
					if !p.FixTime.Before(from) && !p.FixTime.After(to) {
						wantMid = append(wantMid, p.ID)
					}
				}
				if !slices.Equal(mid, wantMid) {
					t.Fatalf("%s: device %d range\n got %v\nwant %v", step, d, mid, wantMid)
				}
				second := ps[1]
				var after []int64
				tx.PositionsAfter(&second, maxKeyTime, func(p *model.Position) bool { after = append(after, p.ID); return true })
				if !slices.Equal(after, want[2:]) {
					t.Fatalf("%s: device %d after %d\n got %v\nwant %v", step, d, second.ID, after, want[2:])
				}
			}
		}
		return nil
	})
}

// TestPositionLayoutAgainstReference drives the log, the compaction into
// chunks, deletions, retention and reopening in a random order, with
// out-of-order fixes and equal fix times, and checks every read against a
// plain sorted list after each step.
func TestPositionLayoutAgainstReference(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			path := filepath.Join(t.TempDir(), "fleetd.db")
			open := func() *DB {
				db, err := Open(path, Options{NoSync: true, Compaction: Compaction{Every: -1}})
				if err != nil {
					t.Fatal(err)
				}
				return db
			}
			db := open()
			defer func() { db.Close() }()
			ref := refStore{}
			const devices = 3
			base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			clock := 0
			for step := range 60 {
				switch op := rng.IntN(10); {
				case op < 5: // a batch of positions, mostly in order
					mustUpdate(t, db, func(tx model.Tx) error {
						for range rng.IntN(300) + 1 {
							clock += rng.IntN(3)
							at := clock
							if rng.IntN(10) == 0 {
								at -= rng.IntN(200) // buffered, older
							}
							p := model.Position{DeviceID: int64(rng.IntN(devices) + 1), FixTime: base.Add(time.Duration(at) * time.Second),
								Latitude: rng.Float64(), Protocol: "gt06", Attributes: model.Attributes{"n": float64(step)}}
							if err := tx.AddPosition(&p); err != nil {
								return err
							}
							ref.add(p)
						}
						return nil
					})
				case op < 7:
					if err := db.Compact(); err != nil {
						t.Fatal(err)
					}
					logged, chunks := bucketLen(t, db, bucketPositionLog), bucketLen(t, db, bucketPositionChunks)
					if _, total := db.tail.snapshot(); logged != 0 || total != 0 || chunks == 0 {
						t.Fatalf("after Compact: %d logged (tail %d), %d chunks", logged, total, chunks)
					}
				case op < 8: // D2
					d := int64(rng.IntN(devices) + 1)
					from := base.Add(time.Duration(rng.IntN(clock+1)) * time.Second)
					to := from.Add(time.Duration(rng.IntN(600)) * time.Second)
					limit := rng.IntN(800) + 1
					want := ref.delete(d, from, to, limit, 0)
					mustUpdate(t, db, func(tx model.Tx) error {
						n, err := tx.DeletePositions(d, from, to, limit)
						if n != want {
							t.Fatalf("step %d: DeletePositions = %d, want %d", step, n, want)
						}
						return err
					})
				case op < 9: // retention
					d := int64(rng.IntN(devices) + 1)
					cutoff := base.Add(time.Duration(rng.IntN(clock+1)) * time.Second)
					limit := rng.IntN(1200) + 1
					want := ref.delete(d, time.Time{}, cutoff.Add(-time.Nanosecond), limit, ref.latest(d))
					n, err := db.PrunePositions(d, cutoff, limit)
					if err != nil || n != want {
						t.Fatalf("step %d: PrunePositions = %d, %v, want %d", step, n, err, want)
					}
				default:
					db.Close()
					db = open()
				}
				checkStore(t, db, ref, devices, fmt.Sprint("step ", step))
			}
		})
	}
}

func bucketLen(t *testing.T, db *DB, name []byte) (n int) {
	t.Helper()
	if err := db.bolt.View(func(btx *bolt.Tx) error {
		n = btx.Bucket(name).Stats().KeyN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestLogOverLimitStallsWriters holds the compactor while a writer goes
// on: the writer must stop once the log holds twice its limit, and go on
// to store everything once the compactor runs again.
func TestLogOverLimitStallsWriters(t *testing.T) {
	const limit, total = 50, 300
	db, err := Open(filepath.Join(t.TempDir(), "fleetd.db"), Options{NoSync: true, Compaction: Compaction{Every: time.Hour, MaxLog: limit, FlushCount: 1 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.compactor.mu.Lock() // no round can run
	var done atomic.Int64
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for i := range total {
			err := db.Batch(func(tx model.Tx) error {
				return tx.AddPosition(&model.Position{DeviceID: 1, FixTime: time.Unix(int64(i), 0)})
			})
			if err != nil {
				t.Error(err)
				return
			}
			done.Add(1)
		}
	}()
	// Wait until the writer stops making progress (or finishes, which
	// fails below).
	for last := int64(-1); ; {
		time.Sleep(20 * time.Millisecond)
		n := done.Load()
		if n == last || n == total {
			break
		}
		last = n
	}
	if n := done.Load(); n > stallFactor*limit+1 {
		t.Errorf("the writer stored %d positions with the compactor held, want it stopped at %d", n, stallFactor*limit+1)
	}
	db.compactor.mu.Unlock()
	<-finished
	n := 0
	mustView(t, db, func(tx model.Tx) error {
		return tx.Positions(1, time.Time{}, maxKeyTime, func(*model.Position) bool { n++; return true })
	})
	if n != total {
		t.Errorf("%d positions stored, want %d", n, total)
	}
}
