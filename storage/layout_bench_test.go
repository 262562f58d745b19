package storage

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk/chunktest"
	bolt "go.etcd.io/bbolt"
)

// fleetRoutes is a fleet's positions: devices routes of n positions each.
func fleetRoutes(route func(int, uint64) []*model.Position, devices, n int) [][]*model.Position {
	out := make([][]*model.Position, devices)
	for d := range out {
		out[d] = route(n, uint64(d+1))
		for _, p := range out[d] {
			p.ID, p.DeviceID = 0, int64(d+1)
		}
	}
	return out
}

// storeFleet stores the routes through the ingest's path (Batch): each
// commit carries the next few positions of every device, with the
// compactor running.
func storeFleet(tb testing.TB, db *DB, routes [][]*model.Position, perCommit int) int {
	total := 0
	for i := 0; i < len(routes[0]); i += perCommit {
		err := db.Batch(func(tx model.Tx) error {
			for _, r := range routes {
				for _, p := range r[i:min(i+perCommit, len(r))] {
					if err := tx.AddPosition(p); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		total += len(routes) * min(perCommit, len(routes[0])-i)
	}
	return total
}

// BenchmarkBytesPerPosition stores a million positions (100 trackers, 10,000
// each, a day and a bit at 10 s) as the ingest does, lets the compactor
// finish, closes the store and divides the file's size by the positions.
// Issue 14's target is at most 100 bytes a position.
func BenchmarkBytesPerPosition(b *testing.B) {
	for _, c := range []struct {
		name  string
		route func(int, uint64) []*model.Position
	}{{"gt06", chunktest.GT06Route}, {"teltonika", chunktest.TeltonikaRoute}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				routes := fleetRoutes(c.route, 100, 10_000)
				path := filepath.Join(b.TempDir(), "fleetd.db")
				db, err := Open(path, Options{NoSync: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				n := storeFleet(b, db, routes, 5)
				if err := db.Compact(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				var chunks, blocks int
				db.bolt.View(func(btx *bolt.Tx) error {
					btx.Bucket(bucketPositionChunks).ForEach(func(_, v []byte) error { chunks += len(v); return nil })
					btx.Bucket(bucketPositionBlocks).ForEach(func(_, v []byte) error { blocks += len(v); return nil })
					return nil
				})
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
				st, err := os.Stat(path)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(st.Size())/float64(n), "file-B/position")
				b.ReportMetric(float64(chunks)/float64(n), "chunk-B/position")
				b.ReportMetric(float64(blocks)/float64(n), "idblock-B/position")
				b.StartTimer()
			}
		})
	}
}

// BenchmarkReadRoute reads a tracker's day (8,640 positions at 10 s) from
// chunks, with 99 other trackers' days in the store; the target is 10 ms.
// And streams a tracker's positions from end to end, for the rate a year
// of one tracker reads at (target 200,000 positions/s).
func BenchmarkReadRoute(b *testing.B) {
	for _, c := range []struct {
		name  string
		route func(int, uint64) []*model.Position
	}{{"gt06", chunktest.GT06Route}, {"teltonika", chunktest.TeltonikaRoute}} {
		routes := fleetRoutes(c.route, 20, 3*8640)
		db, err := Open(filepath.Join(b.TempDir(), "fleetd.db"), Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		storeFleet(b, db, routes, 20)
		if err := db.Compact(); err != nil {
			b.Fatal(err)
		}
		day := routes[7][8640].FixTime
		read := func(b *testing.B, from, to time.Time) int {
			n := 0
			err := db.View(func(tx model.Tx) error {
				return tx.Positions(8, from, to, func(*model.Position) bool { n++; return true })
			})
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
		b.Run(c.name+"/day", func(b *testing.B) {
			var n int
			for range b.N {
				n = read(b, day, day.Add(24*time.Hour-time.Nanosecond))
			}
			if n != 8640 {
				b.Fatalf("read %d positions, want 8640", n)
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/day")
		})
		b.Run(c.name+"/stream", func(b *testing.B) {
			var n int
			for range b.N {
				n += read(b, time.Time{}, maxKeyTime)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
		})
		b.Run(c.name+"/latest", func(b *testing.B) {
			for range b.N {
				db.View(func(tx model.Tx) error { _, err := tx.LatestPosition(8); return err })
			}
		})
		db.Close()
	}
}
