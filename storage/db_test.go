package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

func TestOpenCreatesPrivateFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "fleetd.db")
	openAt(t, path)
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
}

func TestSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := SchemaVersion(db); v != CurrentSchema || err != nil {
		t.Fatalf("fresh store schema = %d, %v; want %d", v, err, CurrentSchema)
	}
	txID := lastTxID(t, db) + 1 // Close's commit, which writes the freelist
	db.Close()

	// Reopening a current store runs no migration and no write transaction.
	db, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := lastTxID(t, db); got != txID {
		t.Errorf("reopen committed a transaction: txid %d -> %d", txID, got)
	}
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		n, err := migrate(tx)
		if n != 0 {
			t.Errorf("migrate on a current store ran %d migrations", n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	// A newer store is refused as it is: no migration, no copy, no write.
	setRawSchema(t, path, CurrentSchema+1)
	before, _ := os.ReadFile(path)
	for _, readOnly := range []bool{false, true} {
		_, err := Open(path, Options{ReadOnly: readOnly})
		if !errors.Is(err, ErrNewerSchema) || strings.Contains(err.Error(), "migrat") {
			t.Errorf("Open(ReadOnly=%v) of a newer store: %v, want ErrNewerSchema alone", readOnly, err)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Error("opening a newer store changed it")
	}
	if copies := SafetyCopies(path); len(copies) != 0 {
		t.Errorf("opening a newer store left copies %v", copies)
	}
}

func TestMigrationsAreComplete(t *testing.T) {
	for i, m := range migrations {
		if m == nil {
			t.Errorf("migration %d is nil", i+1)
		}
	}
}

// An empty bbolt file (schema 0) is migrated by a writable Open and refused
// by a read-only one.
func TestOpenUpgradesOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if _, err := Open(path, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "older") {
		t.Errorf("read-only Open of schema 0: %v, want an 'older' error", err)
	}
	db := openAt(t, path)
	if v, _ := SchemaVersion(db); v != CurrentSchema {
		t.Errorf("schema after upgrade = %d", v)
	}
}

func lastTxID(t *testing.T, db *DB) int {
	var id int
	db.bolt.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil })
	return id
}

func setRawSchema(t testing.TB, path string, v int) {
	t.Helper()
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	err = raw.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		return b.Put(metaSchema, binary.BigEndian.AppendUint64(nil, uint64(v)))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// bbolt's flock belongs to the open file description, so on Linux a second
// Open of the same file fails even inside one process.
func TestOpenLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	db := openAt(t, path)
	for _, readOnly := range []bool{false, true} {
		_, err := Open(path, Options{Timeout: 50 * time.Millisecond, ReadOnly: readOnly})
		if !errors.Is(err, ErrLocked) {
			t.Fatalf("second Open(ReadOnly=%v): %v, want ErrLocked", readOnly, err)
		}
		if !strings.Contains(err.Error(), "is fleetd serve running?") {
			t.Errorf("error %q does not explain the lock", err)
		}
	}
	db.Close()

	// Read-only opens share the lock with each other, not with a writer.
	r1, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	r2, err := Open(path, Options{ReadOnly: true, Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("second read-only Open: %v", err)
	}
	r2.Close()
	if _, err := Open(path, Options{Timeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Errorf("writable Open beside a reader: %v, want ErrLocked", err)
	}
	if err := r1.Update(func(tx model.Tx) error { return tx.Groups().Create(&model.Group{}) }); err == nil {
		t.Error("Update on a read-only store succeeded")
	}
}

func TestUpdateRollback(t *testing.T) {
	db := openTestDB(t)
	boom := errors.New("boom")
	err := db.Update(func(tx model.Tx) error {
		if err := tx.Users().Create(&model.User{Email: "a@example.com"}); err != nil {
			return err
		}
		if err := tx.Devices().Create(&model.Device{UniqueID: "1"}); err != nil {
			return err
		}
		if err := tx.AddPosition(&model.Position{DeviceID: 1, FixTime: t0}); err != nil {
			return err
		}
		if err := tx.AddEvent(&model.Event{DeviceID: 1, EventTime: t0}); err != nil {
			return err
		}
		if err := tx.Link(perm(model.KindUser, 1, model.KindDevice, 1)); err != nil {
			return err
		}
		if err := tx.PutSession(&model.Session{Token: "t", UserID: 1}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want boom", err)
	}
	mustView(t, db, func(tx model.Tx) error {
		nu, _ := tx.Users().Count()
		nd, _ := tx.Devices().Count()
		_, errEmail := tx.UserByEmail("a@example.com")
		_, errUID := tx.DeviceByUniqueID("1")
		_, errPos := tx.LatestPosition(1)
		_, errEvent := tx.Event(1)
		_, errSession := tx.Session("t")
		linked, _ := tx.Linked(model.KindUser, 1, model.KindDevice)
		if nu+nd != 0 || linked != nil {
			t.Errorf("rolled back Update left %d users, %d devices, links %v", nu, nd, linked)
		}
		for _, err := range []error{errEmail, errUID, errPos, errEvent, errSession} {
			wantKind(t, err, model.ErrNotFound)
		}
		return nil
	})
	// Sequences rolled back too.
	mustUpdate(t, db, func(tx model.Tx) error {
		u := &model.User{}
		err := tx.Users().Create(u)
		if u.ID != 1 {
			t.Errorf("first id after rollback = %d, want 1", u.ID)
		}
		return err
	})
}

// A cleanly closed store has its freelist written, so the next open reads
// it instead of walking every page; a store left by a crash has none and
// still opens.
func TestCloseWritesTheFreelist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	db := openAt(t, path)
	for i := range 200 {
		if err := db.Update(func(tx model.Tx) error {
			return tx.Devices().Create(&model.Device{Name: "n", UniqueID: fmt.Sprint(i)})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if freelistSynced(t, path) {
		t.Fatal("an open store's commits wrote the freelist; NoFreelistSync is meant to be on")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if !freelistSynced(t, path) {
		t.Fatal("Close left the freelist out: the next open walks the whole file")
	}
	db = openAt(t, path)
	if err := db.View(func(tx model.Tx) error {
		_, err := tx.DeviceByUniqueID("199")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// freelistSynced reads the newest meta page's freelist page id, which is
// all ones when the last commit did not write the freelist.
func freelistSynced(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var best struct{ txid, freelist uint64 }
	pageSize := int64(0) // from the first meta page
	for n := int64(0); n < 2; n++ {
		var page [16 + 64]byte
		if _, err := f.ReadAt(page[:], n*pageSize); err != nil {
			t.Fatal(err)
		}
		m := page[16:]
		pageSize = int64(binary.LittleEndian.Uint32(m[8:]))
		if txid := binary.LittleEndian.Uint64(m[48:]); txid >= best.txid {
			best.txid, best.freelist = txid, binary.LittleEndian.Uint64(m[32:])
		}
	}
	return best.freelist != ^uint64(0)
}
