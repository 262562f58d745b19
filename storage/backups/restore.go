package backups

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fleetd/fleetd/storage"
)

// verifyTimeout bounds the wait for a fresh copy's lock, which no other
// process knows of.
const verifyTimeout = 300 * time.Millisecond

// WriteVerified writes what source writes (a store's backup) to dst
// through a synced temporary file, checks that the copy opens as a fleetd
// store, and only then renames it over dst: a failed backup never replaces
// a good one. It returns the bytes written and the copy's schema.
func WriteVerified(dst string, source func(io.Writer) (int64, error)) (n int64, schema int, err error) {
	err = storage.WriteChecked(dst, func(w io.Writer) (err error) {
		n, err = source(w)
		return err
	}, func(tmp string) (err error) {
		if schema, err = verify(tmp); err != nil {
			return fmt.Errorf("the copy is not a valid store: %w", err)
		}
		return nil
	})
	return n, schema, err
}

// verify opens the store at path read-only and reads its schema.
func verify(path string) (int, error) {
	db, err := storage.Open(path, storage.Options{Timeout: verifyTimeout, ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	return storage.SchemaVersion(db)
}

// Restored is what Restore did.
type Restored struct {
	Store  bool   // the store is replaced (an archive's files may have failed after)
	Schema int    // the restored store's schema
	Kept   string // where the replaced store is kept ("" when there was none)
	Files  bool   // an archive's uploaded files were restored too
}

// Restore replaces the store at storePath with src, a bare store or an
// archive (storage.Restore checks it and keeps the replaced store). An
// archive's uploaded files go into filesDir once the store is in place;
// the files of records added since the backup stay until the start-up
// sweep finds them without a record. It fails with storage.ErrLocked while
// a server has the store open. The store keeps its schema: a backup of an
// older one is migrated by the next writable open, not refused.
func Restore(src, storePath, filesDir string, at time.Time) (Restored, error) {
	var r Restored
	store := src
	archive := IsArchive(src)
	if archive { // the store first; the files once it is in place
		store = storePath + ".from-archive"
		defer os.Remove(store)
		if err := os.MkdirAll(filepath.Dir(storePath), 0o700); err != nil {
			return r, err
		}
		if err := Extract(src, store, ""); err != nil {
			return r, err
		}
	}
	kept, err := storage.Restore(store, storePath, at)
	if err != nil {
		return r, err
	}
	schema, err := storage.FileSchema(storePath)
	if err != nil {
		return r, err
	}
	r = Restored{Store: true, Schema: schema, Kept: kept}
	if archive {
		if err := Extract(src, "", filesDir); err != nil {
			return r, fmt.Errorf("the store is restored, but its files are not: %w", err)
		}
		r.Files = true
	}
	return r, nil
}
