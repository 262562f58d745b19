package app

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// sweepAge is how old a file without metadata must be before SweepFiles
// removes it: an upload renames its content into place inside the
// transaction that stores the metadata, so a young one may be in flight.
const sweepAge = time.Hour

// SweepFiles removes what a crash can leave in the files directory:
// unfinished uploads and content whose metadata never committed. It
// returns how many files it removed.
func (c *Core) SweepFiles() (int, error) {
	dir := c.opts.Office.FilesDir
	entries, err := os.ReadDir(dir)
	if dir == "" || os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	cutoff := c.now().Add(-sweepAge)
	var stale []string
	err = c.store.View(func(tx Tx) error {
		for _, e := range entries {
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() || info.ModTime().After(cutoff) {
				continue
			}
			if strings.HasPrefix(e.Name(), ".upload-") {
				stale = append(stale, e.Name())
				continue
			}
			id, err := ParseTextID(e.Name())
			if err != nil {
				continue // not ours
			}
			if _, err := files.table(tx).Get(int64(id)); KindOf(err) == KindNotFound {
				stale = append(stale, e.Name())
			} else if err != nil {
				return err
			}
		}
		return nil
	})
	removed := 0
	for _, name := range stale {
		if rerr := os.Remove(filepath.Join(dir, name)); rerr == nil {
			removed++
		}
	}
	return removed, err
}
