package storage

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/fleetd/fleetd/app/jobs"
	"golang.org/x/sys/unix"
)

// FreeSpace reports the bytes an unprivileged process may still write on
// the file system holding dir (the blocks reserved for root left out, as
// fleetd runs as its own user) and the file system's size.
func FreeSpace(dir string) (free, total uint64, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, 0, err
	}
	return st.Bavail * uint64(st.Bsize), st.Blocks * uint64(st.Bsize), nil
}

// FileSize is the size of the store file at path on disk, which bbolt
// grows ahead of the pages in use.
func FileSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// mapLimitWarn is the store size from which a 32-bit build warns: bbolt
// maps the whole file into a process address space of which about 2 GB is
// usable, so the store cannot grow much past it.
const mapLimitWarn = 1536 << 20

// MapLimitJob checks every 10 minutes whether the store nears what this
// build can map, and warns; ok is false on a build without that limit
// (only the 32-bit ones have it).
func (db *DB) MapLimitJob(log *slog.Logger) (j jobs.Job, ok bool) {
	return db.mapLimitJob(log, runtime.GOARCH)
}

func (db *DB) mapLimitJob(log *slog.Logger, goarch string) (jobs.Job, bool) {
	if !mapLimited(goarch) {
		return jobs.Job{}, false
	}
	return jobs.Job{Name: "store size check", Every: 10 * time.Minute, Run: func(context.Context) error {
		size, err := db.Size()
		if err == nil {
			warnNearMapLimit(log, size, goarch)
		}
		return err
	}}, true
}

// mapLimited reports whether a build for goarch has that limit (arm, 386).
func mapLimited(goarch string) bool { return goarch == "arm" || goarch == "386" }

// warnNearMapLimit logs a warning and reports true when a store of size
// bytes nears what a build for goarch can map.
func warnNearMapLimit(log *slog.Logger, size int64, goarch string) bool {
	if !mapLimited(goarch) || size < mapLimitWarn {
		return false
	}
	log.Warn("the store nears the ~2 GB a 32-bit fleetd can map: set retention.positions, or move to a 64-bit OS (arm64)",
		"sizeBytes", size, "goarch", goarch)
	return true
}
