package app

import (
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

// NoteBackup records the outcome of a scheduled backup.
func (c *Core) NoteBackup(r BackupReport) {
	c.backups.mu.Lock()
	defer c.backups.mu.Unlock()
	c.backups.last = r
	if r.Err == "" {
		c.backups.good = r
	}
}

// Backups is the last scheduled backup and the last one that succeeded
// (zero values before any).
func (c *Core) Backups() (last, good BackupReport) {
	c.backups.mu.Lock()
	defer c.backups.mu.Unlock()
	return c.backups.last, c.backups.good
}
