package storage

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// A store file whose header promises more than the file holds is refused
// before bbolt maps it (bbolt would fault reading past the end), by
// CheckFile and by Open, read-only or not, and left as it was.
func TestCheckFile(t *testing.T) {
	// grown: two commits, the newer one growing the file, so the current
	// meta page counts more pages than the previous one.
	grown := func(t *testing.T, path string) (older, newer boltMeta) {
		seedStore(t, path, "small")
		older = metaOf(t, path)
		db := openAt(t, path)
		mustUpdate(t, db, func(tx model.Tx) error {
			for i := range 300 {
				if err := tx.Devices().Create(&model.Device{UniqueID: fmt.Sprintf("device-%d", i), Name: string(bytes.Repeat([]byte("n"), 200))}); err != nil {
					return err
				}
			}
			return nil
		})
		db.Close()
		return older, metaOf(t, path)
	}
	breakMeta := func(t *testing.T, path string, offset int64) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteAt([]byte{0xff}, offset+boltPageHeader+8) // the page size: the checksum no longer matches
			f.Close()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		want    error // nil: the file passes and opens
	}{
		{"a store", func(t *testing.T, path string) { seedStore(t, path, "a") }, nil},
		{"a backup, exactly its pages long", func(t *testing.T, path string) {
			seedStore(t, path+".src", "a")
			if err := BackupFile(openAt(t, path+".src"), path); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"an empty file: a new store", func(t *testing.T, path string) { os.WriteFile(path, nil, 0o600) }, nil},
		{"one page short", func(t *testing.T, path string) {
			seedStore(t, path, "a")
			cutShort(t, path)
		}, ErrDamaged},
		{"only the first page", func(t *testing.T, path string) {
			seedStore(t, path, "a")
			os.Truncate(path, 4096)
		}, ErrDamaged},
		{"shorter than a meta page", func(t *testing.T, path string) {
			seedStore(t, path, "a")
			os.Truncate(path, 40)
		}, ErrDamaged},
		{"not a bbolt file", func(t *testing.T, path string) {
			os.WriteFile(path, bytes.Repeat([]byte("not a store "), 2000), 0o600)
		}, ErrDamaged},
		{"first meta page broken, the second intact", func(t *testing.T, path string) {
			seedStore(t, path, "a")
			breakMeta(t, path, 0)
		}, nil},
		{"both meta pages broken", func(t *testing.T, path string) {
			seedStore(t, path, "a")
			breakMeta(t, path, 0)
			breakMeta(t, path, metaOf(t, path).pageSize)
		}, ErrDamaged},
		{"long enough for the previous meta, not the current one", func(t *testing.T, path string) {
			older, newer := grown(t, path)
			if older.pages >= newer.pages {
				t.Fatalf("the second commit did not grow the store: %d -> %d pages", older.pages, newer.pages)
			}
			os.Truncate(path, int64(older.pages)*older.pageSize)
		}, ErrDamaged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "fleetd.db")
			tt.prepare(t, path)
			before, _ := os.ReadFile(path)
			if err := CheckFile(path); !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
				t.Fatalf("CheckFile: %v, want %v", err, tt.want)
			}
			for _, readOnly := range []bool{true, false} {
				db, err := Open(path, Options{ReadOnly: readOnly && len(before) > 0, NoSync: true})
				if err == nil {
					db.Close()
				}
				if !errors.Is(err, tt.want) || (err != nil) != (tt.want != nil) {
					t.Errorf("Open(ReadOnly: %v): %v, want %v", readOnly, err, tt.want)
				}
			}
			if tt.want == nil {
				return
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Error("the refused file was changed")
			}
		})
	}
	if err := CheckFile(filepath.Join(t.TempDir(), "missing.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("CheckFile of a missing file: %v", err)
	}
}
