package app_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// The outlook tells when the disk is full at the growth the last good
// backup measured; with no growth known, it tells no date.
func TestOutlook(t *testing.T) {
	db := storagetest.Open(t)
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	core := app.New(db, app.Options{Now: func() time.Time { return now },
		Space: ops.Options{Statfs: func() (uint64, uint64, error) { return 10 << 30, 32 << 30, nil }}})
	if o, err := core.Ops.Outlook(); err != nil || !o.FullBy.IsZero() || o.Space.Free != 10<<30 {
		t.Fatalf("before any backup: %+v, %v", o, err)
	}
	core.Ops.NoteBackup(model.BackupReport{At: now, Path: "/b/a.tar", Size: 5 << 20, GrowthPerDay: 1 << 30})
	core.Ops.NoteBackup(model.BackupReport{At: now.Add(time.Hour), Err: "disk full"}) // a failure keeps the last good outlook
	o, err := core.Ops.Outlook()
	if err != nil || o.LastBackup.Path != "/b/a.tar" || !o.FullBy.Equal(now.Add(10*24*time.Hour)) {
		t.Fatalf("outlook %+v (%v), want full in 10 days after /b/a.tar", o, err)
	}
}
