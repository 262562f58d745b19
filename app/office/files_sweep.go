package office

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// Temporary files in the files directory carry the tag of the run (the
// Core) that made them, so that SweepFiles tells a crashed run's from those
// in flight whatever their age or the clock.
const (
	uploadTemp = ".upload-" // an upload being written: .upload-<run>-<random>
	spoolTemp  = ".tmp-"    // the run's temporary directory (TempDir): .tmp-<run>
)

// sweepChunk is how many files one transaction of SweepFiles looks at.
const sweepChunk = 500

// newRunTag names a run: random, so that no run takes another's for its own.
func newRunTag() string {
	b := make([]byte, 6)
	rand.Read(b) // never fails: crypto/rand.Read crashes the program instead
	return hex.EncodeToString(b)
}

// TempDir creates this run's directory for temporary files in the files
// directory and returns it ("" without one). serve points the process's
// TMPDIR at it: the HTTP server spills large multipart uploads into temporary
// files there, and a crash would leave them in the system's /tmp, where
// nobody removes them.
func (svc *Service) TempDir() (string, error) {
	if svc.opts.FilesDir == "" {
		return "", nil
	}
	dir := filepath.Join(svc.opts.FilesDir, spoolTemp+svc.run)
	return dir, os.MkdirAll(dir, 0o700)
}

// tempRun is the run that made a temporary file, ok false for other names.
func tempRun(name string) (run string, ok bool) {
	for _, prefix := range []string{uploadTemp, spoolTemp} {
		if rest, found := strings.CutPrefix(name, prefix); found {
			run, _, _ = strings.Cut(rest, "-")
			return run, true
		}
	}
	return "", false
}

// SweepFiles removes what a crash (or a failed removal) leaves in the files
// directory: temporary files of other runs (unfinished uploads, spilled
// multipart bodies) and content without metadata, which is an upload that
// never committed or the file of a record deleted before its content went
// (removeFileContent). serve runs it at start-up, in the background, and
// hourly. It returns how many files it removed.
func (svc *Service) SweepFiles() (int, error) {
	dir := svc.opts.FilesDir
	if dir == "" {
		return 0, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	removed := 0
	var content []model.TextID
	for _, e := range entries {
		if run, ok := tempRun(e.Name()); ok {
			if run != svc.run && os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
				removed++
			}
			continue
		}
		if id, err := model.ParseTextID(e.Name()); err == nil && id.String() == e.Name() && e.Type().IsRegular() {
			content = append(content, id)
		}
	}
	for chunk := range slices.Chunk(content, sweepChunk) {
		n, err := svc.sweepContent(chunk)
		removed += n
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// sweepContent removes the content among ids that has no metadata. An
// upload renames its content into place inside the transaction that stores
// the metadata, so the check and the removal happen in a write transaction:
// no upload is then between its rename and its commit, and content found
// without metadata is never an upload in flight (a rolled-back upload's id
// is handed out again, so content removed on a read transaction's word could
// be the next upload's). A read transaction looks first, so that the writer
// is taken only when there is something to remove.
func (svc *Service) sweepContent(ids []model.TextID) (int, error) {
	orphans := func(tx model.Tx) ([]model.TextID, error) {
		var out []model.TextID
		for _, id := range ids {
			_, err := files.table(tx).Get(int64(id))
			switch {
			case model.ClassOf(err) == model.ClassNotFound:
				out = append(out, id)
			case err != nil:
				return nil, err
			}
		}
		return out, nil
	}
	var seen []model.TextID
	err := svc.store.View(func(tx model.Tx) (err error) {
		seen, err = orphans(tx)
		return err
	})
	if err != nil || len(seen) == 0 {
		return 0, err
	}
	removed := 0
	err = svc.store.Update(func(tx model.Tx) error {
		gone, err := orphans(tx)
		for _, id := range gone {
			if os.Remove(svc.filePath(id)) == nil {
				removed++
			}
		}
		return err
	})
	return removed, err
}
