package app

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
func (c *Core) NoteBackup(r model.BackupReport) {
	c.backups.mu.Lock()
	c.backups.last = r
	if r.Err == "" {
		c.backups.good = r
	}
	good := c.backups.good
	c.backups.mu.Unlock()
	if r.Err == "" {
		c.settle(alertBackupFailed)
		return
	}
	last := "No scheduled backup has succeeded since the server started."
	if good.Path != "" {
		last = fmt.Sprintf("The last good one is %s (%s).", good.Path, good.At.UTC().Format("2006-01-02 15:04 UTC"))
	}
	c.raise(alertBackupFailed, "fleetd: a scheduled backup failed",
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
func (c *Core) Outlook() (Outlook, error) {
	space, err := c.Space()
	if err != nil {
		return Outlook{}, err
	}
	_, good := c.Backups()
	o := Outlook{Space: space, LastBackup: good, GrowthPerDay: good.GrowthPerDay}
	if size := c.opts.Space.StoreSize; size != nil {
		o.StoreSize, _ = size()
	}
	if o.GrowthPerDay > 0 {
		days := float64(space.Free) / o.GrowthPerDay
		o.FullBy = c.now().Add(time.Duration(min(days, 100*365) * float64(24*time.Hour)))
	}
	return o, nil
}

// Backups is the last scheduled backup and the last one that succeeded
// (zero values before any).
func (c *Core) Backups() (last, good model.BackupReport) {
	c.backups.mu.Lock()
	defer c.backups.mu.Unlock()
	return c.backups.last, c.backups.good
}
