package backups

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/storage"
)

func openStore(t *testing.T, path string) *storage.DB {
	t.Helper()
	db, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// A verified copy replaces the file only when it opens as a store; junk,
// or a stream that breaks off, leaves the previous backup and no temporary
// file.
func TestWriteVerified(t *testing.T) {
	db := openStore(t, filepath.Join(t.TempDir(), "fleetd.db"))
	dst := filepath.Join(t.TempDir(), "backup.db")
	n, schema, err := WriteVerified(dst, db.Backup)
	if err != nil || schema != storage.CurrentSchema {
		t.Fatalf("WriteVerified = %d bytes, schema %d, %v", n, schema, err)
	}
	if fi, err := os.Stat(dst); err != nil || fi.Size() != n {
		t.Fatalf("backup file: %v, %v; want %d bytes", fi, err, n)
	}
	good, _ := os.ReadFile(dst)
	for name, source := range map[string]func(io.Writer) (int64, error){
		"junk": func(w io.Writer) (int64, error) {
			m, err := w.Write(bytes.Repeat([]byte("junk"), 4096))
			return int64(m), err
		},
		"broken stream": func(w io.Writer) (int64, error) { return 0, errors.New("connection reset") },
	} {
		if _, _, err := WriteVerified(dst, source); err == nil {
			t.Errorf("%s: no error", name)
		}
		if now, _ := os.ReadFile(dst); !bytes.Equal(now, good) {
			t.Errorf("%s replaced the good backup", name)
		}
		if _, err := os.Stat(dst + ".tmp"); !os.IsNotExist(err) {
			t.Errorf("%s left its temporary file: %v", name, err)
		}
	}
	if _, _, err := WriteVerified(dst, func(w io.Writer) (int64, error) { return 4, nil }); err == nil ||
		!strings.Contains(err.Error(), "not a valid store") {
		t.Errorf("an empty copy: %v", err)
	}
}

// Restore puts back a bare store, keeping the one it replaces, or an
// archive with its files; it refuses while the store is open.
func TestRestore(t *testing.T) {
	src := t.TempDir()
	db := openStore(t, filepath.Join(src, "fleetd.db"))
	files := filepath.Join(src, "files")
	if err := os.MkdirAll(files, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(files, "doc.pdf"), []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "bare.db")
	if _, _, err := WriteVerified(bare, db.Backup); err != nil {
		t.Fatal(err)
	}
	s := &Schedule{DB: db, FilesDir: files, Dir: t.TempDir(), Every: time.Hour, Keep: 1}
	archive := s.Run(time.Now())
	if archive.Err != nil {
		t.Fatal(archive.Err)
	}

	data := t.TempDir()
	store, restoredFiles := filepath.Join(data, "fleetd.db"), filepath.Join(data, "files")
	r, err := Restore(bare, store, restoredFiles, time.Now())
	if err != nil || r != (Restored{Store: true, Schema: storage.CurrentSchema}) {
		t.Fatalf("bare store into an empty directory: %+v, %v", r, err)
	}
	r, err = Restore(archive.Path, store, restoredFiles, time.Now())
	if err != nil || !r.Store || !r.Files || !strings.HasPrefix(r.Kept, store+".before-restore-") {
		t.Fatalf("archive over the store: %+v, %v", r, err)
	}
	if got, err := os.ReadFile(filepath.Join(restoredFiles, "doc.pdf")); string(got) != "%PDF" {
		t.Errorf("restored file %q, %v", got, err)
	}
	if _, err := os.Stat(store + ".from-archive"); !os.IsNotExist(err) {
		t.Errorf("the store taken from the archive is left behind: %v", err)
	}

	openStore(t, store) // as fleetd serve holds it
	if r, err := Restore(bare, store, restoredFiles, time.Now()); !errors.Is(err, storage.ErrLocked) || r.Store {
		t.Errorf("restore over an open store: %+v, %v; want ErrLocked", r, err)
	}
}
