package storage

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// Backup runs while writers commit. Every position committed before Backup
// started must be in the copy, and the copy must be a valid store.
func TestBackupWhileWriting(t *testing.T) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"", Options{NoSync: true}},
		// The compactor moving positions from the log into chunks all along.
		{"while compacting", Options{NoSync: true, Compaction: Compaction{Every: time.Millisecond, FlushCount: 10}}},
	} {
		t.Run(c.name, func(t *testing.T) { backupWhileWriting(t, c.opts) })
	}
}

func backupWhileWriting(t *testing.T, opts Options) {
	db, err := Open(filepath.Join(t.TempDir(), "fleetd.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var committed atomic.Int64 // highest position id whose commit returned
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var id int64
				err := db.Batch(func(tx model.Tx) error {
					p := &model.Position{DeviceID: int64(w + 1), FixTime: at(i)}
					err := tx.AddPosition(p)
					id = p.ID
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				for cur := committed.Load(); id > cur && !committed.CompareAndSwap(cur, id); cur = committed.Load() {
				}
			}
		})
	}
	// Let some history build up (with the compactor on, some of it in
	// chunks: a loaded machine may run it late), then back up mid-stream.
	for committed.Load() < 200 || (opts.Compaction.Every > 0 && bucketLen(t, db, bucketPositionChunks) == 0) {
		time.Sleep(time.Millisecond)
	}
	before := committed.Load()
	path := filepath.Join(t.TempDir(), "backup.db")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.Backup(f)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	close(stop)
	wg.Wait()
	if fi, _ := os.Stat(path); fi.Size() != n {
		t.Errorf("Backup reported %d bytes, file has %d", n, fi.Size())
	}

	copyDB := openAt(t, path)
	mustView(t, copyDB, func(tx model.Tx) error {
		for id := int64(1); id <= before; id++ {
			if _, err := tx.Position(id); err != nil {
				t.Fatalf("position %d committed before the backup is missing: %v", id, err)
			}
		}
		seen := map[int64]bool{}
		for d := int64(1); d <= 4; d++ {
			tx.Positions(d, time.Time{}, maxKeyTime, func(p *model.Position) bool {
				if seen[p.ID] {
					t.Errorf("position %d read twice from the backup", p.ID)
				}
				seen[p.ID] = true
				return true
			})
		}
		if int64(len(seen)) < before {
			t.Errorf("%d positions in the backup, %d committed before it", len(seen), before)
		}
		return nil
	})
	if opts.Compaction.Every > 0 && bucketLen(t, copyDB, bucketPositionChunks) == 0 {
		t.Error("the backup holds no chunk: nothing was compacted while writing")
	}
	checkConsistent(t, copyDB)
}

func checkConsistent(t *testing.T, db *DB) {
	t.Helper()
	db.bolt.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("consistency: %v", err)
		}
		return nil
	})
}

// seedStore creates a closed store at path holding the given device uniqueIds.
func seedStore(t *testing.T, path string, uniqueIDs ...string) {
	t.Helper()
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, uid := range uniqueIDs {
			if err := tx.Devices().Create(&model.Device{UniqueID: uid}); err != nil {
				return err
			}
		}
		return nil
	})
}

// deviceUIDs lists the uniqueIds in the store at path.
func deviceUIDs(t *testing.T, path string) []string {
	t.Helper()
	db := openAt(t, path)
	defer db.Close()
	var uids []string
	mustView(t, db, func(tx model.Tx) error {
		return tx.Devices().List(func(d *model.Device) bool { uids = append(uids, d.UniqueID); return true })
	})
	return uids
}

func TestBackupFile(t *testing.T) {
	dir := t.TempDir()
	db := openAt(t, filepath.Join(dir, "live.db"))
	mustUpdate(t, db, func(tx model.Tx) error { return tx.Devices().Create(&model.Device{UniqueID: "live"}) })
	dst := filepath.Join(dir, "backup.db")
	seedStore(t, dst, "stale") // BackupFile replaces an older backup
	if err := BackupFile(db, dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dst + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file left behind: %v", err)
	}
	if got := deviceUIDs(t, dst); fmt.Sprint(got) != "[live]" {
		t.Errorf("backup holds %v, want [live]", got)
	}
	if err := BackupFile(db, filepath.Join(dir, "missing", "b.db")); err == nil {
		t.Error("BackupFile into a missing directory succeeded")
	}
}

func TestRestore(t *testing.T) {
	dir := t.TempDir()
	backup := filepath.Join(dir, "backup.db")
	seedStore(t, backup, "from-backup")

	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte("this is not a bbolt file, it is just some text padding it out"), 0o600)
	foreign := filepath.Join(dir, "foreign.db") // a bbolt file of some other program
	raw, err := bolt.Open(foreign, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("other")); return err })
	raw.Close()
	newer := filepath.Join(dir, "newer.db")
	seedStore(t, newer, "x")
	setRawSchema(t, newer, CurrentSchema+1)
	truncated := filepath.Join(dir, "truncated.db") // a copy cut short by one page
	seedStore(t, truncated, "from-truncated")
	cutShort(t, truncated)

	tests := []struct {
		name    string
		src     string
		dst     func(t *testing.T) string // prepares dst
		wantErr error                     // nil: success; errAny: any error
		want    []string                  // dst devices afterwards
	}{
		{"into a new directory", backup, func(t *testing.T) string {
			return filepath.Join(t.TempDir(), "new", "fleetd.db")
		}, nil, []string{"from-backup"}},
		{"over an existing store", backup, func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "fleetd.db")
			seedStore(t, p, "old")
			return p
		}, nil, []string{"from-backup"}},
		{"over a damaged file", backup, func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "fleetd.db")
			os.WriteFile(p, []byte("damaged"), 0o600)
			return p
		}, nil, []string{"from-backup"}},
		{"not a bbolt file", garbage, existingStore, errAny, []string{"old"}},
		{"bbolt file without meta", foreign, existingStore, errAny, []string{"old"}},
		{"newer schema", newer, existingStore, ErrNewerSchema, []string{"old"}},
		{"missing source", filepath.Join(dir, "nope.db"), existingStore, errAny, []string{"old"}},
		{"truncated source", truncated, existingStore, ErrDamaged, []string{"old"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := tt.dst(t)
			before, _ := os.ReadFile(dst)
			at := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
			kept, err := Restore(tt.src, dst, at)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatal(err)
			case tt.wantErr == errAny && err == nil:
				t.Fatal("Restore succeeded")
			case tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("Restore: %v, want %v", err, tt.wantErr)
			}
			if err != nil && errors.Is(err, ErrLocked) {
				t.Errorf("Restore of a bad source reported a lock: %v", err)
			}
			if got := deviceUIDs(t, dst); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("dst holds %v, want %v", got, tt.want)
			}
			// The replaced file is kept byte for byte; a refused restore keeps nothing.
			wantKept := ""
			if err == nil && before != nil {
				wantKept = dst + ".before-restore-20261124T030000Z"
			}
			if kept != wantKept || fmt.Sprint(SafetyCopies(dst)) != fmt.Sprint(slices.DeleteFunc([]string{wantKept}, func(s string) bool { return s == "" })) {
				t.Fatalf("kept %q, copies %v; want %q", kept, SafetyCopies(dst), wantKept)
			}
			if kept != "" {
				if got, _ := os.ReadFile(kept); !bytes.Equal(got, before) {
					t.Errorf("the safety copy differs from the replaced store (%d bytes, was %d)", len(got), len(before))
				}
			}
		})
	}
}

// cutShort truncates the store file at path to one page less than its
// header counts, as an interrupted copy leaves it.
func cutShort(t *testing.T, path string) {
	t.Helper()
	m := metaOf(t, path)
	if err := os.Truncate(path, int64(m.pages-1)*m.pageSize); err != nil {
		t.Fatal(err)
	}
}

// metaOf reads the current meta page of the store file at path.
func metaOf(t *testing.T, path string) boltMeta {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := currentMeta(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Restores in the same second keep one copy each.
func TestRestoreKeepsEveryReplacedStore(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "fleetd.db")
	seedStore(t, dst, "first")
	at := time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)
	var kept []string
	for _, uid := range []string{"second", "third"} {
		backup := filepath.Join(dir, uid+".db")
		seedStore(t, backup, uid)
		k, err := Restore(backup, dst, at)
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, k)
	}
	want := []string{SafetyCopy(dst, at), SafetyCopy(dst, at) + ".2"}
	if fmt.Sprint(kept) != fmt.Sprint(want) || fmt.Sprint(SafetyCopies(dst)) != fmt.Sprint(want) {
		t.Fatalf("kept %v, copies %v; want %v", kept, SafetyCopies(dst), want)
	}
	for i, uid := range []string{"first", "second"} {
		if got := deviceUIDs(t, kept[i]); fmt.Sprint(got) != "["+uid+"]" {
			t.Errorf("%s holds %v, want [%s]", kept[i], got, uid)
		}
	}
}

var errAny = errors.New("any error")

func existingStore(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "fleetd.db")
	seedStore(t, p, "old")
	return p
}

// While a *DB holds dst (as fleetd serve does), Restore refuses and leaves
// dst alone; once it is closed, Restore goes through.
func TestRestoreRefusesOpenStore(t *testing.T) {
	dir := t.TempDir()
	backup, dst := filepath.Join(dir, "backup.db"), filepath.Join(dir, "live.db")
	seedStore(t, backup, "from-backup")
	seedStore(t, dst, "live")
	live := openAt(t, dst)
	if _, err := Restore(backup, dst, time.Now()); !errors.Is(err, ErrLocked) {
		t.Fatalf("Restore over an open store: %v, want ErrLocked", err)
	}
	mustView(t, live, func(tx model.Tx) error {
		_, err := tx.DeviceByUniqueID("live")
		return err
	})
	live.Close()
	if _, err := Restore(backup, dst, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got := deviceUIDs(t, dst); fmt.Sprint(got) != "[from-backup]" {
		t.Errorf("restored store holds %v", got)
	}
}
