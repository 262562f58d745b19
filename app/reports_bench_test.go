package app_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk/chunktest"
)

// BenchmarkDayReport is a report of one device-day from the store as the
// API makes it: a GT06 day (8,640 fixes, every 10 s, compacted into
// chunks) read in chunks and fed to the trips detector or the summary.
// ns/op is one device-day.
func BenchmarkDayReport(b *testing.B) {
	f := newFixture(b)
	route := chunktest.GT06Route(8640, 7)
	for start := 0; start < len(route); start += 1000 {
		err := f.db.Update(func(tx model.Tx) error {
			for _, p := range route[start:min(start+1000, len(route))] {
				p.ID, p.DeviceID = 0, f.dev.ID
				if err := tx.AddPosition(p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := f.db.Compact(); err != nil {
		b.Fatal(err)
	}
	q := fleet.ReportQuery{DeviceIDs: []int64{f.dev.ID}, From: chunktest.Day, To: chunktest.Day.Add(24*time.Hour - time.Second)}
	for _, typ := range []string{fleet.ReportTrips, fleet.ReportSummary} {
		b.Run(typ, func(b *testing.B) {
			for b.Loop() {
				r, err := f.core.Fleet.Report(f.admin, q)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := r.Items(typ, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
