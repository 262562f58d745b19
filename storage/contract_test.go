package storage_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/model/storetest"
	"github.com/fleetd/fleetd/storage"
)

// TestContract runs the store contract (app/model/storetest) against the
// bbolt store, opened as fleetd serve opens it (fsync on every commit).
func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) model.Store {
		return openContract(t, filepath.Join(t.TempDir(), "fleetd.db"))
	})
}

// TestContractCompacted runs the contract with every write followed by a
// compaction, so positions are read, found and deleted in chunks (and, for
// those a transaction adds, in the log) instead of in the log alone.
func TestContractCompacted(t *testing.T) {
	storetest.Run(t, func(t *testing.T) model.Store {
		c := openContract(t, filepath.Join(t.TempDir(), "fleetd.db"))
		c.compact = true
		return c
	})
}

// contractDB lets the suite reopen the store and open its backups.
type contractDB struct {
	*storage.DB
	path    string
	closed  bool
	compact bool // compact after every write
}

func (c *contractDB) Update(fn func(model.Tx) error) error {
	return c.compacted(c.DB.Update(fn))
}

func (c *contractDB) Batch(fn func(model.Tx) error) error {
	return c.compacted(c.DB.Batch(fn))
}

func (c *contractDB) compacted(err error) error {
	if err == nil && c.compact {
		err = c.DB.Compact()
	}
	return err
}

func openContract(t *testing.T, path string) *contractDB {
	t.Helper()
	db, err := storage.Open(path, storage.Options{NoSync: true})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	c := &contractDB{DB: db, path: path}
	t.Cleanup(func() {
		if !c.closed {
			c.Close()
		}
	})
	return c
}

func (c *contractDB) Close() error {
	c.closed = true
	return c.DB.Close()
}

func (c *contractDB) Reopen(t *testing.T) model.Store {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	r := openContract(t, c.path)
	r.compact = c.compact
	return r
}

func (c *contractDB) OpenBackup(t *testing.T, backup []byte) model.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := os.WriteFile(path, backup, 0o600); err != nil {
		t.Fatal(err)
	}
	r := openContract(t, path)
	r.compact = c.compact
	return r
}
