package storage

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	"golang.org/x/sys/unix"
)

// restoreLockTimeout is how long Restore waits for the destination's lock.
const restoreLockTimeout = 500 * time.Millisecond

// Backup writes a consistent copy of the store to w from one read
// transaction, so writers go on meanwhile. A long backup keeps old pages
// alive, and if the file must grow during it, writers wait for it to end
// (bbolt cannot remap under an open read transaction).
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupSized is Backup with head called first, in the same read
// transaction, with the number of bytes that will follow (an archive's
// header states it before the content).
func (db *DB) BackupSized(w io.Writer, head func(size int64) error) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		if err := head(tx.Size()); err != nil {
			return err
		}
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// BackupFile writes a backup of db to dst atomically: a crash leaves
// either the old dst or the complete new one.
func BackupFile(db *DB, dst string) error {
	return WriteAtomic(dst, func(w io.Writer) error {
		_, err := db.Backup(w)
		return err
	})
}

// Restore replaces the store at dst with the fleetd store src (a backup)
// and returns where it kept the store it replaced: SafetyCopy(dst, at), a
// hard link to the old file, so what was added since the backup is not
// lost for good ("" when there was no dst). src is checked first: it must
// pass CheckFile, be a bbolt file with a fleetd meta bucket and a schema no
// newer than CurrentSchema, and pass bbolt's consistency check; an older
// schema is fine, the next Open migrates it. Restore fails with ErrLocked
// while a process (fleetd serve) has dst open, and holds dst's lock while
// replacing it. dst may be missing or damaged.
//
// One window is left: a fleetd started during the restore that is waiting
// for dst's lock gets it on the replaced (unlinked) file once Restore is
// done. Restore is meant to run with the server stopped.
func Restore(src, dst string, at time.Time) (kept string, err error) {
	sdb, err := openBolt(src, restoreLockTimeout, true)
	if errors.Is(err, ErrLocked) {
		return "", fmt.Errorf("%s: %w", src, err)
	}
	if err != nil {
		return "", fmt.Errorf("%s is not a fleetd store: %w", src, err)
	}
	defer sdb.Close()
	err = sdb.View(func(tx *bolt.Tx) error {
		if err := checkBackup(tx); err != nil {
			return fmt.Errorf("%s is not a usable fleetd store: %w", src, err)
		}
		unlock, err := lockExisting(dst)
		if err != nil {
			return err
		}
		defer unlock()
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return err
		}
		if kept, err = keepSafetyCopy(dst, at); err != nil {
			return err
		}
		return WriteAtomic(dst, func(w io.Writer) error {
			_, err := tx.WriteTo(w)
			return err
		})
	})
	return kept, err
}

// keepSafetyCopy links dst to SafetyCopy(dst, at), or to that name with a
// counter when a restore in the same second took it.
func keepSafetyCopy(dst string, at time.Time) (string, error) {
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	base := SafetyCopy(dst, at)
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s.%d", base, i)
		}
		err := os.Link(dst, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("keep a copy of the store being replaced: %w", err)
		}
		return name, nil
	}
}

func checkBackup(tx *bolt.Tx) error {
	if tx.Bucket(bucketMeta) == nil {
		return errors.New("no meta bucket")
	}
	v, err := readSchema(tx)
	if err != nil {
		return err
	}
	if v < 1 {
		return errors.New("no schema version")
	}
	// Drain the channel: Check's goroutine blocks until every error is read.
	var first error
	for err := range tx.Check() {
		if first == nil {
			first = fmt.Errorf("consistency check: %w", err)
		}
	}
	return first
}

// lockExisting takes a shared lock on dst if it exists, so no fleetd
// process can open it until unlock. It locks the file as bbolt does
// (flock) without mapping it, so a damaged dst is locked too.
func lockExisting(dst string) (unlock func(), err error) {
	f, err := os.Open(dst)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(restoreLockTimeout)
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB)
		if !errors.Is(err, unix.EWOULDBLOCK) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", dst, ErrLocked)
		}
		return nil, fmt.Errorf("lock %s: %w", dst, err)
	}
	return func() { f.Close() }, nil
}

// WriteAtomic writes dst through a temporary file that is fsynced and
// renamed over dst, then fsyncs the directory so the rename is durable: a
// crash leaves the old dst or the whole new one, never a part.
func WriteAtomic(dst string, write func(io.Writer) error) error {
	return WriteChecked(dst, write, nil)
}

// WriteChecked is WriteAtomic with check, when set, run on the complete
// temporary file before the rename: a copy it refuses never replaces dst.
func WriteChecked(dst string, write func(io.Writer) error, check func(tmp string) error) (err error) {
	tmp := dst + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if check != nil {
		if err = check(tmp); err != nil {
			return err
		}
	}
	if err = os.Rename(tmp, dst); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(dst))
}

// SyncDir flushes a directory, so a rename into it survives a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// FileSchema reads the schema version of the store file at path, an older
// one included (a restored backup, which the next writable Open migrates).
func FileSchema(path string) (int, error) {
	bdb, err := openBolt(path, restoreLockTimeout, true)
	if err != nil {
		return 0, err
	}
	defer bdb.Close()
	var v int
	err = bdb.View(func(tx *bolt.Tx) (err error) { v, err = readSchema(tx); return err })
	return v, err
}
