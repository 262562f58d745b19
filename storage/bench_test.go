package storage

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// benchDB opens a store with real fsync: these benchmarks measure commits.
func benchDB(b *testing.B) *DB {
	b.Helper()
	db, err := Open(filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// benchPosition is a typical fix as a tracker protocol decodes it.
func benchPosition(device int64, i int) *model.Position {
	fix := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
	return &model.Position{
		DeviceID: device, Protocol: "teltonika", ServerTime: fix, DeviceTime: fix, FixTime: fix,
		Valid: true, Latitude: 52.52 + float64(i)*1e-5, Longitude: 13.40, Altitude: 34, Speed: 12.5, Course: 270,
		Attributes: model.Attributes{"sat": 9, "ignition": true, "odometer": 123456.7, "power": 12.8},
	}
}

// reportPositionRate reports positions/s and the store file's size per
// stored position (which includes the pages' free space).
func reportPositionRate(b *testing.B, db *DB) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "positions/s")
	if size, err := db.Size(); err == nil {
		b.ReportMetric(float64(size)/float64(b.N), "file-bytes/position")
	}
}

// BenchmarkBatchAddPosition models many device connections each storing
// one fix through Batch: group commit shares one fsync per batch.
func BenchmarkBatchAddPosition(b *testing.B) {
	for _, goroutines := range []int{1, 16, 128, 1024, 5000} {
		b.Run(fmt.Sprintf("goroutines=%d", goroutines), func(b *testing.B) {
			db := benchDB(b)
			var wg sync.WaitGroup
			per := (b.N + goroutines - 1) / goroutines
			b.ResetTimer()
			for g := range goroutines {
				wg.Go(func() {
					for i := range per {
						err := db.Batch(func(tx model.Tx) error {
							err := tx.AddPosition(benchPosition(int64(g+1), i))
							return err
						})
						if err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.StopTimer()
			reportPositionRate(b, db)
		})
	}
}

// BenchmarkAddPositionsPerTx stores n positions per Update from one
// goroutine (an import, or one device's buffered upload).
func BenchmarkAddPositionsPerTx(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			db := benchDB(b)
			b.ResetTimer()
			for i := 0; i < b.N; i += n {
				err := db.Update(func(tx model.Tx) error {
					for j := i; j < i+n && j < b.N; j++ {
						if err := tx.AddPosition(benchPosition(int64(j%100+1), j)); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportPositionRate(b, db)
		})
	}
}
