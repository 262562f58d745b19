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
