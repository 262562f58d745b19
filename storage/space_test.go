package storage

import (
	"bytes"
	"context"
	"log/slog"
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

func TestWarnNearMapLimit(t *testing.T) {
	for _, tc := range []struct {
		goarch string
		size   int64
		warn   bool
	}{
		{"arm", 100 << 20, false},
		{"arm", mapLimitWarn - 1, false},
		{"arm", mapLimitWarn, true},
		{"arm", 2 << 30, true},
		{"386", 1600 << 20, true},
		{"arm64", 10 << 30, false},
		{"amd64", 10 << 30, false},
	} {
		var log bytes.Buffer
		got := warnNearMapLimit(slog.New(slog.NewTextHandler(&log, nil)), tc.size, tc.goarch)
		if got != tc.warn || (log.Len() > 0) != tc.warn {
			t.Errorf("%s at %d bytes: warned %v (%q), want %v", tc.goarch, tc.size, got, log.String(), tc.warn)
		}
	}
}

// Only a 32-bit build has the job; it reads the store's size.
func TestMapLimitJob(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "fleetd.db"), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var log bytes.Buffer
	if _, ok := db.mapLimitJob(slog.New(slog.NewTextHandler(&log, nil)), "amd64"); ok {
		t.Error("a 64-bit build has the job")
	}
	j, ok := db.mapLimitJob(slog.New(slog.NewTextHandler(&log, nil)), "arm")
	if !ok || j.Every <= 0 {
		t.Fatalf("a 32-bit build's job: %+v, %v", j, ok)
	}
	if err := j.Run(context.Background()); err != nil || log.Len() > 0 {
		t.Errorf("a small store: %v, log %q", err, log.String())
	}
	db.Close()
	if err := j.Run(context.Background()); err == nil {
		t.Error("no error from a closed store")
	}
}
