package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// Defaults for zero Options fields.
const (
	DefaultTimeout = time.Second
	// DefaultMaxBatchSize bounds how many Batch calls share one commit.
	DefaultMaxBatchSize = 2000
)

// ErrLocked means another process (or another Open in this process) holds
// the store file.
var ErrLocked = errors.New("store is in use by another process (is fleetd serve running?)")

// ErrKeyTooLarge is what a write answers when a value it makes a key of
// (an e-mail, a uniqueId) is longer than bbolt takes. The core bounds such
// values first (model.MaxEmail, model.MaxUniqueID); this is the backstop for a
// path it missed, so the client learns its request was at fault (400)
// instead of getting a 500. errors.Is also matches bbolt's own error.
var ErrKeyTooLarge = &model.Error{Class: model.ClassInvalid, Message: "Invalid request",
	Description: fmt.Sprintf("a value is too long to be stored (a key takes at most %d bytes)", bolt.MaxKeySize)}

// Options configures Open.
type Options struct {
	// Timeout is how long Open waits for another holder to release the
	// file before failing with ErrLocked; zero means DefaultTimeout.
	Timeout time.Duration
	// ReadOnly opens without migrating and takes a shared lock.
	ReadOnly bool
	// NoSync skips fsync on commit. Only for tests and benchmarks: a crash
	// can corrupt the file.
	NoSync bool
	// MaxBatchSize bounds a Batch group (zero: DefaultMaxBatchSize).
	// MaxBatchDelay makes a small group wait that long for more callers;
	// zero (the default) commits at once, as groups grow with load anyway.
	MaxBatchSize  int
	MaxBatchDelay time.Duration
	// OnCommit, when set, is told each Batch group's size and how long its
	// commit took (for metrics). It runs on the writer: it must be quick.
	OnCommit func(calls int, took time.Duration)
	// Compaction tunes the background move of positions into chunks.
	Compaction Compaction
}

// DB is the bbolt-backed model.Store.
type DB struct {
	bolt  *bolt.DB
	batch *batcher
	tail  *tail
	// wmu holds a write transaction until its commit handlers have run,
	// so the next writer sees the tail that commit left (bbolt releases
	// its own lock before the handlers).
	wmu       sync.Mutex
	blockTail blockTail // guarded by wmu
	compactor *compactor
	path      string
	upgraded  Upgrade
}

var _ model.Store = (*DB)(nil)

// Open opens the store at path, creating its directory (0700) and file
// (0600) if needed, and migrates it to CurrentSchema unless opts.ReadOnly.
func Open(path string, opts Options) (*DB, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if !opts.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("create store directory: %w", err)
		}
	}
	bdb, err := openBolt(path, opts.Timeout, opts.ReadOnly)
	if errors.Is(err, ErrLocked) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	bdb.NoSync = opts.NoSync
	up, err := prepare(bdb, path, opts.ReadOnly)
	if err != nil {
		bdb.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db := &DB{bolt: bdb, path: path, upgraded: up, tail: newTail()}
	if err := bdb.View(db.tail.load); err != nil {
		bdb.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db.batch = newBatcher(db.update, orDefault(opts.MaxBatchSize, DefaultMaxBatchSize), opts.MaxBatchDelay)
	db.batch.onCommit = opts.OnCommit
	if !opts.ReadOnly {
		db.compactor = startCompactor(db, opts.Compaction)
	}
	return db, nil
}

// openBolt checks a bbolt file (CheckFile) and opens it, mapping a lock
// timeout to ErrLocked. A missing file is left to bbolt, which creates it
// unless readOnly.
func openBolt(path string, timeout time.Duration, readOnly bool) (*bolt.DB, error) {
	if err := CheckFile(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, ReadOnly: readOnly,
		// The freelist is rebuilt from the pages at open instead of being
		// written on every commit: ingest commits often and the store grows
		// large, where writing the freelist would dominate a commit.
		NoFreelistSync: true, FreelistType: bolt.FreelistMapType})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, ErrLocked
	}
	return bdb, err
}

// prepare migrates a writable store, then checks it is at CurrentSchema.
// A store that is already current costs no write transaction, nor does one
// of a newer schema, which is refused untouched. Before migrating a store
// that holds data, it copies the file (see Upgrade).
func prepare(bdb *bolt.DB, path string, readOnly bool) (Upgrade, error) {
	up := Upgrade{From: CurrentSchema, To: CurrentSchema}
	if err := bdb.View(checkCurrent); err != nil && !readOnly && !errors.Is(err, ErrNewerSchema) {
		var err error
		if up, err = backupBeforeMigration(bdb, path); err != nil {
			return up, err
		}
		err = bdb.Update(func(tx *bolt.Tx) error {
			_, err := migrate(tx)
			return err
		})
		if err != nil {
			return up, err
		}
	}
	return up, bdb.View(checkCurrent)
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// View runs fn in a read-only transaction.
// As returns db: the store keeps no record of who writes (live.Track,
// which wraps it, does).
func (db *DB) As(*model.User) model.Store { return db }

func (db *DB) View(fn func(model.Tx) error) error {
	return db.view(func(t *tx) error { return fn(t) })
}

// view runs fn in a read-only transaction registered with the tail.
func (db *DB) view(fn func(*tx) error) error {
	at := db.tail.enter()
	defer db.tail.exit(at)
	return db.bolt.View(func(btx *bolt.Tx) error { return fn(&tx{btx: btx, db: db}) })
}

// Update runs fn in a read-write transaction and commits unless fn fails.
func (db *DB) Update(fn func(model.Tx) error) error {
	return writeError(db.update(func(t *tx) error { return fn(t) }))
}

// update is every write transaction of an open store.
func (db *DB) update(fn func(*tx) error) error {
	db.wmu.Lock()
	defer db.wmu.Unlock()
	return db.bolt.Update(func(btx *bolt.Tx) error { return fn(&tx{btx: btx, db: db}) })
}

// Batch runs fn in a transaction shared with other concurrent Batch callers
// (group commit, see batcher): one commit and one fsync for the group. If
// any fn in the group fails, the group is rolled back, the failing fn gets
// its error and the others run again: fn may run more than once and must
// only touch the store through its Tx.
func (db *DB) Batch(fn func(model.Tx) error) error {
	// The ingest's path waits while the compactor is behind; Update, the
	// API's, does not: an administrator's edit is not held up by a flood
	// of positions.
	db.tail.wait()
	return writeError(db.batch.do(fn))
}

// writeError maps bbolt's refusal of a key to ErrKeyTooLarge, keeping
// bbolt's error in the chain.
func writeError(err error) error {
	if errors.Is(err, bolt.ErrKeyTooLarge) {
		return fmt.Errorf("%w (%w)", ErrKeyTooLarge, err)
	}
	return err
}

// Close releases the file and its lock. Open transactions finish first.
//
// A writable store ends with one commit that writes the freelist: commits
// leave it out (NoFreelistSync), and bbolt then rebuilds it at the next
// open by walking every page, a start-up that grows with the store (about
// 50 ms per 100 MB with a warm cache, far more from an SD card). After a
// clean stop the next open reads it instead; only a crash costs the walk.
func (db *DB) Close() error {
	if db.compactor != nil {
		db.compactor.stop()
	}
	db.batch.close()
	var err error
	if !db.bolt.IsReadOnly() {
		db.bolt.NoFreelistSync = false
		err = db.bolt.Update(func(*bolt.Tx) error { return nil })
	}
	return errors.Join(err, db.bolt.Close())
}
