package ops

import (
	"fmt"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// backupStatus keeps the last scheduled backup and the last good one.
type backupStatus struct {
	mu         sync.Mutex
	last, good model.BackupReport
}

// NoteBackup records the outcome of a scheduled backup; the first failure
// after a success is mailed to the administrators.
func (ops *Service) NoteBackup(r model.BackupReport) {
	ops.backups.mu.Lock()
	ops.backups.last = r
	if r.Err == "" {
		ops.backups.good = r
	}
	good := ops.backups.good
	ops.backups.mu.Unlock()
	if r.Err == "" {
		ops.settle(alertBackupFailed)
		return
	}
	last := "No scheduled backup has succeeded since the server started."
	if good.Path != "" {
		last = fmt.Sprintf("The last good one is %s (%s).", good.Path, good.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	ops.raise(alertBackupFailed, "fleetd: a scheduled backup failed",
		fmt.Sprintf("The scheduled backup at %s failed: %s. %s You are told again only after a backup has succeeded.",
			r.At.UTC().Format("2006-01-02 15:04 UTC"), r.Err, last))
}

// Outlook is the data disk at a glance: its free space, the last good
// backup, how fast the data grows and when the disk is full at that rate
// (zero when it does not grow or nothing tells yet).
type Outlook struct {
	Space        Space
	StoreSize    int64 // 0: unknown
	LastBackup   model.BackupReport
	GrowthPerDay float64
	FullBy       time.Time
}

// Outlook is the data disk at a glance, for administrators.
func (ops *Service) Outlook() (Outlook, error) {
	space, err := ops.Space()
	if err != nil {
		return Outlook{}, err
	}
	_, good := ops.Backups()
	o := Outlook{Space: space, LastBackup: good, GrowthPerDay: good.GrowthPerDay}
	if size := ops.opts.StoreSize; size != nil {
		o.StoreSize, _ = size()
	}
	if o.GrowthPerDay > 0 {
		days := float64(space.Free) / o.GrowthPerDay
		o.FullBy = ops.now().Add(time.Duration(min(days, 100*365) * float64(24*time.Hour)))
	}
	return o, nil
}

// Backups is the last scheduled backup and the last one that succeeded
// (zero values before any).
func (ops *Service) Backups() (last, good model.BackupReport) {
	ops.backups.mu.Lock()
	defer ops.backups.mu.Unlock()
	return ops.backups.last, ops.backups.good
}
