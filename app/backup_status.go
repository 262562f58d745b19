package app

import (
	"fmt"
	"sync"
	"time"
)

// BackupReport is the outcome of one scheduled backup, as the server's
// backup schedule tells the core so the dashboard can show it.
type BackupReport struct {
	At   time.Time // when it ended
	Path string    // the archive written; empty when it failed
	Size int64
	Err  string // why it failed; empty when it succeeded
}

// backupStatus keeps the last scheduled backup and the last good one.
type backupStatus struct {
	mu         sync.Mutex
	last, good BackupReport
}

// NoteBackup records the outcome of a scheduled backup; the first failure
// after a success is mailed to the administrators.
func (c *Core) NoteBackup(r BackupReport) {
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

// Backups is the last scheduled backup and the last one that succeeded
// (zero values before any).
func (c *Core) Backups() (last, good BackupReport) {
	c.backups.mu.Lock()
	defer c.backups.mu.Unlock()
	return c.backups.last, c.backups.good
}
