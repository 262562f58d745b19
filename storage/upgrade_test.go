package storage

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// writeSchemaV1 makes a store as fleetd's first schema left it, with one
// marker record, so Open has to migrate it.
func writeSchemaV1(t *testing.T, path string) {
	t.Helper()
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	err = raw.Update(func(tx *bolt.Tx) error {
		if err := migrations[0](tx); err != nil {
			return err
		}
		if err := tx.Bucket(bucketMeta).Put(metaSchema, binary.BigEndian.AppendUint64(nil, 1)); err != nil {
			return err
		}
		return tx.Bucket(bucketUsers).Put([]byte("marker"), []byte("v1 data"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpenBacksUpBeforeMigrating(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	writeSchemaV1(t, path)
	db := openAt(t, path)

	backup := PreMigrationBackup(path, CurrentSchema)
	want := Upgrade{From: 1, To: CurrentSchema, Backup: backup}
	if got := db.Upgraded(); got != want {
		t.Fatalf("Upgraded() = %+v, want %+v", got, want)
	}
	raw, err := bolt.Open(backup, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("backup does not open: %v", err)
	}
	defer raw.Close()
	err = raw.View(func(tx *bolt.Tx) error {
		if v, err := readSchema(tx); v != 1 || err != nil {
			t.Errorf("backup schema = %d, %v; want the old 1", v, err)
		}
		if got := tx.Bucket(bucketUsers).Get([]byte("marker")); string(got) != "v1 data" {
			t.Errorf("backup lost the data: marker = %q", got)
		}
		if tx.Bucket(bucketQueue) != nil {
			t.Error("backup was taken after the migration")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := SchemaVersion(db); v != CurrentSchema {
		t.Errorf("store schema after Open = %d", v)
	}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketLatest) != nil {
			t.Error("migration 3 left the latest-position index")
		}
		if got := tx.Bucket(bucketUsers).Get([]byte("marker")); string(got) != "v1 data" {
			t.Errorf("the migrated store lost the data: marker = %q", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// No copy is made when there is nothing to lose or nothing to migrate.
func TestOpenWithoutMigrationBackup(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, path string)
		want    Upgrade
	}{
		{"new store", func(*testing.T, string) {}, Upgrade{From: 0, To: CurrentSchema}},
		{"current store", func(t *testing.T, path string) { openAt(t, path).Close() }, Upgrade{From: CurrentSchema, To: CurrentSchema}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "fleetd.db")
			tc.prepare(t, path)
			db := openAt(t, path)
			if got := db.Upgraded(); got != tc.want {
				t.Errorf("Upgraded() = %+v, want %+v", got, tc.want)
			}
			matches, _ := filepath.Glob(path + ".pre-v*")
			if len(matches) != 0 {
				t.Errorf("unexpected backups %v", matches)
			}
		})
	}
}

// A failing backup stops the migration: the store is left untouched.
func TestOpenMigrationBackupFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	writeSchemaV1(t, path)
	// A directory where the temporary copy would go makes the write fail.
	if err := os.Mkdir(PreMigrationBackup(path, CurrentSchema)+".tmp", 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, Options{NoSync: true}); err == nil {
		t.Fatal("Open migrated without a backup")
	}
	if _, err := os.Stat(PreMigrationBackup(path, CurrentSchema)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("backup stat = %v, want none", err)
	}
	raw, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.View(func(tx *bolt.Tx) error {
		if v, _ := readSchema(tx); v != 1 {
			t.Errorf("schema = %d after a refused migration, want 1", v)
		}
		return nil
	})
}

// Each migration copies the store first; the two newest copies are kept,
// older ones removed.
func TestPreMigrationCopiesKeepTwo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	writeSchemaV1(t, path)
	for _, to := range []int{CurrentSchema - 2, CurrentSchema - 1} { // what earlier upgrades left
		if err := os.WriteFile(PreMigrationBackup(path, to), []byte("older copy"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db := openAt(t, path)
	if up := db.Upgraded(); up.Backup != PreMigrationBackup(path, CurrentSchema) {
		t.Fatalf("upgrade %+v, want a copy at %s", up, PreMigrationBackup(path, CurrentSchema))
	}
	var kept []int
	for _, c := range PreMigrationBackups(path) {
		kept = append(kept, c.To)
	}
	if fmt.Sprint(kept) != fmt.Sprint([]int{CurrentSchema - 1, CurrentSchema}) {
		t.Errorf("copies kept for schemas %v, want the last two", kept)
	}
	last, err := LatestPreMigrationCopy(path)
	if err != nil || last.To != CurrentSchema {
		t.Errorf("latest copy %+v, %v", last, err)
	}
	if _, err := LatestPreMigrationCopy(filepath.Join(t.TempDir(), "fleetd.db")); !errors.Is(err, ErrNoPreMigrationCopy) {
		t.Errorf("no copies: %v", err)
	}
}
