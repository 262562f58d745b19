package config

import (
	"path/filepath"
	"time"
)

// Backup is the schedule of automatic backups: archives of the store and
// the uploaded files, taken while the server runs.
type Backup struct {
	Schedule time.Duration
	Dir      string
	Keep     int
}

// BackupDir is where scheduled backups go: backup.dir, else data.dir/backups.
func (c *Config) BackupDir() string {
	if c.Backup.Dir != "" {
		return c.Backup.Dir
	}
	return filepath.Join(c.Data.Dir, "backups")
}

func backupKeys() []Key {
	return []Key{
		field("backup.schedule", 24*time.Hour, "How often fleetd serve writes a backup archive (the store and the uploaded files); the first one soon after start when none is that recent.",
			parseDurationAtLeast(time.Second), func(c *Config) *time.Duration { return &c.Backup.Schedule }, formatDuration),
		field("backup.dir", "", "Directory of the scheduled backup archives; empty: data.dir/backups. Another disk, or a directory copied off the machine, survives a failed SD card.",
			parseString, func(c *Config) *string { return &c.Backup.Dir }, asIs[string]),
		field("backup.keep", 3, "How many scheduled backup archives to keep; older ones are removed.",
			parseIntIn(1, 1000), func(c *Config) *int { return &c.Backup.Keep }, asIs[int]),
	}
}
