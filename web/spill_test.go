package web

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSpillUploadsTo(t *testing.T) {
	t.Setenv("TMPDIR", "/var/tmp") // restored after the test
	SpillUploadsTo("")()
	if got := os.TempDir(); got != "/var/tmp" {
		t.Fatalf("an empty dir changed TMPDIR to %q", got)
	}
	dir := filepath.Join(t.TempDir(), ".spool-run")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	restore := SpillUploadsTo(dir)
	if got := os.TempDir(); got != dir {
		t.Errorf("TMPDIR = %q, want %q", got, dir)
	}
	restore()
	if got := os.TempDir(); got != "/var/tmp" {
		t.Errorf("TMPDIR after restore = %q, want /var/tmp", got)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the spill directory is left: %v", err)
	}
}
