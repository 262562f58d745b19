package storage

import (
	"path/filepath"
	"testing"
)

func TestFreeSpace(t *testing.T) {
	free, total, err := FreeSpace(t.TempDir())
	if err != nil || total == 0 || free > total {
		t.Errorf("FreeSpace = %d of %d, %v", free, total, err)
	}
	if _, _, err := FreeSpace(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("no error for a missing directory")
	}
}

func TestFileSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	used, _ := db.Size()
	if size, err := FileSize(path); err != nil || size < used {
		t.Errorf("FileSize = %d, %v; the store uses %d", size, err, used)
	}
	if _, err := FileSize(path + ".missing"); err == nil {
		t.Error("no error for a missing file")
	}
}
