// Package backups writes fleetd's backup archives, the store and the
// uploaded files in one tar file, restores them, and keeps a rotated set
// of them on a schedule.
package backups

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/jobs"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
)

// storeEntry is the store's name in an archive; files follow under
// filesPrefix.
const (
	storeEntry  = "fleetd.db"
	filesPrefix = "files/"
)

// Write writes an archive of db and of the uploaded files in filesDir to
// w: the store first, from one read transaction, then every file. A file
// uploaded meanwhile may be in the archive without its record, which the
// start-up sweep removes after a restore; temporary files are left out.
func Write(w io.Writer, db *storage.DB, filesDir string) error {
	tw := tar.NewWriter(w)
	_, err := db.BackupSized(tw, func(size int64) error {
		return tw.WriteHeader(header(storeEntry, size, time.Now()))
	})
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(filesDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if err := addFile(tw, filepath.Join(filesDir, e.Name()), filesPrefix+e.Name()); err != nil {
			return err
		}
	}
	return tw.Close()
}

func addFile(tw *tar.Writer, path, name string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) { // deleted since listed
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	return add(tw, name, fi.Size(), fi.ModTime(), f)
}

// header is an archive entry's: a plain file only its owner may read.
func header(name string, size int64, mod time.Time) *tar.Header {
	return &tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: mod, Typeflag: tar.TypeReg}
}

func add(tw *tar.Writer, name string, size int64, mod time.Time, r io.Reader) error {
	if err := tw.WriteHeader(header(name, size, mod)); err != nil {
		return err
	}
	_, err := io.CopyN(tw, r, size)
	return err
}

// IsArchive reports whether the file at path is a backup archive (a tar
// file) rather than a bare store.
func IsArchive(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 262)
	n, _ := io.ReadFull(f, head)
	return n == len(head) && string(head[257:262]) == "ustar"
}

// Extract unpacks an archive: the store to storePath and the files into
// filesDir, each written atomically; an empty path skips that part. It
// refuses entries that are not the store or a plain file name under
// files/, so an archive cannot write elsewhere.
func Extract(archive, storePath, filesDir string) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	sawStore := false
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", archive, err)
		}
		name, isFile := strings.CutPrefix(h.Name, filesPrefix)
		switch {
		case h.Typeflag != tar.TypeReg:
			return fmt.Errorf("%s: %s is not a plain file", archive, h.Name)
		case h.Name == storeEntry:
			sawStore = true
			if storePath != "" {
				err = storage.WriteAtomic(storePath, func(w io.Writer) error { _, err := io.Copy(w, tr); return err })
			}
		case isFile && name != "" && name == filepath.Base(name) && !strings.HasPrefix(name, "."):
			if filesDir == "" {
				continue
			}
			if err = os.MkdirAll(filesDir, 0o750); err == nil {
				err = storage.WriteAtomic(filepath.Join(filesDir, name), func(w io.Writer) error { _, err := io.Copy(w, tr); return err })
			}
		default:
			return fmt.Errorf("%s: unexpected entry %q", archive, h.Name)
		}
		if err != nil {
			return err
		}
	}
	if !sawStore {
		return fmt.Errorf("%s holds no store", archive)
	}
	return nil
}

// Schedule keeps backups of a running server: one archive every Every in
// Dir, named by the time it was taken, the Keep newest kept.
type Schedule struct {
	DB       *storage.DB
	FilesDir string
	Dir      string
	Every    time.Duration
	Keep     int
	// Room reports the free bytes where archives go (nil: Dir's file
	// system's); a backup that would leave less than Reserve is not
	// started.
	Room    func() (int64, error)
	Reserve int64
}

// Result is the outcome of one scheduled backup.
type Result struct {
	At   time.Time // when it ended; zero before the first
	Path string    // the archive, when it succeeded
	Size int64
	Err  error
}

const nameLayout = "fleetd-20060102T150405Z.tar"

// Archives lists the archives in dir, oldest first.
func Archives(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if _, err := time.Parse(nameLayout, e.Name()); err == nil && e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out) // the names sort by time
	return out
}

// Due is how long until the next backup: none yet or the newest older
// than Every means now.
func (s *Schedule) Due(now time.Time) time.Duration {
	archives := Archives(s.Dir)
	if len(archives) == 0 {
		return 0
	}
	taken, _ := time.Parse(nameLayout, filepath.Base(archives[len(archives)-1]))
	return max(0, taken.Add(s.Every).Sub(now))
}

// Run takes a backup now and removes the archives beyond Keep.
func (s *Schedule) Run(now time.Time) Result {
	r := Result{Path: filepath.Join(s.Dir, now.UTC().Format(nameLayout))}
	r.Err = s.write(r.Path)
	if r.Err == nil {
		if fi, err := os.Stat(r.Path); err == nil {
			r.Size = fi.Size()
		}
		archives := Archives(s.Dir)
		for _, old := range archives[:max(0, len(archives)-s.Keep)] {
			os.Remove(old)
		}
	} else {
		r.Path = ""
	}
	r.At = time.Now()
	return r
}

func (s *Schedule) write(path string) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	room := s.Room
	if room == nil {
		room = func() (int64, error) {
			free, _, err := storage.FreeSpace(s.Dir)
			return int64(free), err
		}
	}
	need, err := s.DB.Size()
	if err != nil {
		return err
	}
	if free, err := room(); err == nil && free-need < s.Reserve {
		return fmt.Errorf("not started: %d bytes free in %s, the store alone needs %d and %d must stay free (data.lowFreeSpace)",
			free, s.Dir, need, s.Reserve)
	}
	return storage.WriteAtomic(path, func(w io.Writer) error { return Write(w, s.DB, s.FilesDir) })
}

// Job is the schedule as a periodic job: the first backup when the newest
// archive is due, but not in the first minute after start (the start-up
// repair goes first), then one every Every. Every outcome goes to note
// (app.Core.NoteBackup, for the dashboard, the alerts and the metrics);
// a backup written is logged, a failure is the scheduler's to log.
func (s *Schedule) Job(note func(model.BackupReport), log *slog.Logger) jobs.Job {
	return jobs.Job{Name: "scheduled backup", First: max(s.Due(time.Now()), min(time.Minute, s.Every)), Every: s.Every,
		Run: func(context.Context) error {
			began := time.Now()
			r := s.Run(began)
			report := model.BackupReport{At: r.At, Path: r.Path, Size: r.Size}
			report.GrowthPerDay, _ = Growth(s.Dir)
			if r.Err != nil {
				report.Err = r.Err.Error()
			} else {
				log.Info("scheduled backup written", "file", r.Path, "bytes", r.Size, "tookMs", time.Since(began).Milliseconds())
			}
			note(report)
			return r.Err
		}}
}

// Growth is how many bytes a day the archives in dir grew by, from the
// oldest kept to the newest (the store and the files together: what fills
// the disk). ok is false with fewer than two archives an hour apart.
func Growth(dir string) (perDay float64, ok bool) {
	archives := Archives(dir)
	if len(archives) < 2 {
		return 0, false
	}
	first, last := archives[0], archives[len(archives)-1]
	t0, _ := time.Parse(nameLayout, filepath.Base(first))
	t1, _ := time.Parse(nameLayout, filepath.Base(last))
	f0, err0 := os.Stat(first)
	f1, err1 := os.Stat(last)
	span := t1.Sub(t0)
	if err0 != nil || err1 != nil || span < time.Hour {
		return 0, false
	}
	return float64(f1.Size()-f0.Size()) / span.Hours() * 24, true
}
