package model

import "time"

// BackupReport is the outcome of one scheduled backup, as the server's
// backup schedule tells the core so the dashboard can show it.
type BackupReport struct {
	At   time.Time // when it ended
	Path string    // the archive written; empty when it failed
	Size int64
	Err  string // why it failed; empty when it succeeded
	// GrowthPerDay is how many bytes a day the kept archives grew by,
	// oldest to newest; 0 when fewer than two tell.
	GrowthPerDay float64
}
