// Package storagetest opens real stores for tests: a bbolt file in the
// test's temporary directory, without fsync (a test needs no durability
// against power loss), closed when the test ends.
package storagetest

import (
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/storage"
)

// Open opens a fresh store for t; opts may set more options (OnCommit...).
func Open(t testing.TB, opts ...storage.Options) *storage.DB {
	t.Helper()
	var o storage.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	o.NoSync = true
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
