package app_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/storage"
)

func TestSweepFiles(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dir := filepath.Join(t.TempDir(), "files")
	now := time.Now()
	core := app.New(db, app.Options{Office: app.OfficeOptions{FilesDir: dir}, Now: func() time.Time { return now }})
	if n, err := core.SweepFiles(); n != 0 || err != nil {
		t.Fatalf("before any upload: %d, %v", n, err)
	}
	kept, err := core.UploadFile(app.System(), "a.pdf", "application/pdf", -1, strings.NewReader("%PDF-1.4"))
	if err != nil {
		t.Fatal(err)
	}
	old := now.Add(-2 * time.Hour)
	for name, age := range map[string]time.Time{
		".upload-123": old, // crashed upload
		"999":         old, // content whose metadata never committed
		".upload-456": now, // an upload in flight
		"998":         now, // its rename, transaction not yet committed
		"notes.txt":   old, // not fleetd's
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, age, age); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(filepath.Join(dir, kept.ID.String()), old, old); err != nil {
		t.Fatal(err)
	}
	n, err := core.SweepFiles()
	if err != nil || n != 2 {
		t.Fatalf("swept %d, %v; want 2", n, err)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{".upload-456", kept.ID.String(), "998", "notes.txt"}
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Fatalf("left %v, want %v", left, want)
	}
}
