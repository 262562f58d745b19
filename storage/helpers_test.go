package storage

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// openTestDB opens a fresh store in a temporary directory. NoSync keeps the
// tests fast; durability is exercised by the benchmarks.
func openTestDB(t testing.TB) *DB {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "data", "fleetd.db"))
}

func openAt(t testing.TB, path string) *DB {
	t.Helper()
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustUpdate(t testing.TB, db *DB, fn func(model.Tx) error) {
	t.Helper()
	if err := db.Update(fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

func mustView(t testing.TB, db *DB, fn func(model.Tx) error) {
	t.Helper()
	if err := db.View(fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// wantKind fails unless err matches sentinel (app.ErrNotFound, ...).
func wantKind(t *testing.T, err, sentinel error) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("error = %v, want one of kind %d", err, model.ClassOf(sentinel))
	}
}
