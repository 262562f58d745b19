package storage

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk"
	bolt "go.etcd.io/bbolt"
)

// chunkMax is the most positions a chunk holds. Larger chunks compress a
// little better (GT06: 17 bytes a position in chunks of 128, 14.7 in 512)
// but a read of one position, or of a device's latest after a restart,
// decodes the whole chunk (about a millisecond at 512).
const chunkMax = 512

// mergeBelow is the size a chunk is worth keeping at: from 128 on, chunks
// compress nearly as well as at chunkMax (GT06: 17.1 bytes a position at
// 128, 14.7 at 512). Fewer positions than this, flushed when the log is
// full or old, make small chunks that the next flushes merge up to it.
const mergeBelow = 128

// Compaction tunes the compactor, which moves positions from the log into
// per-device chunks in the background; zero fields take the defaults.
type Compaction struct {
	// Every is how often the compactor looks for work (default 250 ms);
	// negative: never (Compact still works).
	Every time.Duration
	// A device's logged positions move once there are FlushCount of them
	// (default 256), or once the oldest has waited FlushAge (default 10
	// minutes), or, when the log holds more than MaxLog, the devices with
	// most go first; Batch callers wait while it holds more than twice
	// MaxLog (default 40,000).
	FlushCount int
	FlushAge   time.Duration
	MaxLog     int
	// Log reports the migration's progress (default slog.Default()).
	Log *slog.Logger
}

// roundMax bounds the positions one compaction transaction moves: its
// work is done before the transaction, but its writes share the ingest's
// group commit, which should stay milliseconds long.
const roundMax = 1024

func (c Compaction) withDefaults() Compaction {
	c.Every = orDefault(c.Every, 250*time.Millisecond)
	c.FlushCount = orDefault(c.FlushCount, 256)
	c.FlushAge = orDefault(c.FlushAge, 10*time.Minute)
	c.MaxLog = orDefault(c.MaxLog, 40_000)
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

type compactor struct {
	db   *DB
	cfg  Compaction
	mu   sync.Mutex // one round at a time (the loop, Compact)
	wake chan struct{}
	quit chan struct{}
	done chan struct{}

	// A round's writes go on while the next round plans: pending reports
	// them, and the devices they move are busy, left out of that round.
	pending chan applied
	busy    map[int64]bool

	migrated, migrateLeft int // old rows moved, and left when counted
	reported              time.Time
}

func startCompactor(db *DB, cfg Compaction) *compactor {
	c := &compactor{db: db, cfg: cfg.withDefaults(), quit: make(chan struct{}), done: make(chan struct{})}
	c.migrateLeft = -1
	if c.cfg.Every < 0 {
		close(c.done)
		return c
	}
	c.wake = make(chan struct{}, 1)
	db.tail.limit, db.tail.full = c.cfg.MaxLog, c.wake
	go c.loop()
	return c
}

func (c *compactor) stop() {
	c.db.tail.unstall()
	select {
	case <-c.quit:
	default:
		close(c.quit)
	}
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	c.finish()
}

func (c *compactor) loop() {
	defer close(c.done)
	tick := time.NewTicker(c.cfg.Every)
	defer tick.Stop()
	for {
		select {
		case <-c.quit:
			return
		case <-tick.C:
		case <-c.wake:
		}
		for {
			n, err := c.round(false)
			if err != nil {
				c.cfg.Log.Error("position compaction failed", "err", err)
				break
			}
			if n == 0 {
				break
			}
			select {
			case <-c.quit:
				return
			default:
			}
		}
	}
}

// Compact moves every logged position into chunks and every position of
// the old layout too, then returns. The compactor does this in the
// background; Compact is for tests, benchmarks and tools.
func (db *DB) Compact() error {
	if db.compactor == nil {
		return fmt.Errorf("compact: store is read-only")
	}
	for {
		n, err := db.compactor.round(true)
		if err != nil || n == 0 {
			return err
		}
	}
}

// flushPlan is the work of one device in a round, prepared in a read
// transaction and applied in a write one if nothing it read has changed.
type flushPlan struct {
	device int64
	logged []posKey    // log rows moved
	old    [][]byte    // old-layout rows moved
	drop   [][2][]byte // chunks replaced: key, value as read
	put    [][2][]byte // chunks written
}

// round plans a batch and starts writing it, while it waits for the last
// round's writes. It reports what those moved plus the flushes it planned:
// 0 when there was nothing left to do. A forced round (Compact) also
// takes the devices the last round was moving, after its writes.
func (c *compactor) round(force bool) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var moved int
	var aerr error
	if force { // everything: the last round's devices too
		moved, aerr = c.finish()
	}
	due := c.due(force)
	plans, err := c.plan(due)
	// The previous round's writes went on while this one planned.
	m, ferr := c.finish()
	moved, aerr = moved+m, errors.Join(aerr, ferr)
	if err = errors.Join(err, aerr); err != nil || len(plans) == 0 {
		return moved, err
	}
	c.busy = map[int64]bool{}
	for _, p := range plans {
		c.busy[p.device] = true
	}
	done := make(chan applied, 1)
	c.pending = done
	go func() {
		moved, err := c.apply(plans)
		done <- applied{moved, err, len(due) == 0}
	}()
	return moved + len(plans), nil
}

// applied is what a round's writes did.
type applied struct {
	moved     int
	err       error
	migration bool
}

// finish waits for the round whose writes are under way, if any, and
// reports what they moved.
func (c *compactor) finish() (int, error) {
	if c.pending == nil {
		return 0, nil
	}
	r := <-c.pending
	c.pending, c.busy = nil, nil
	if r.migration && r.err == nil {
		c.reportMigration(r.moved)
	}
	return r.moved, r.err
}

// apply writes plans in one transaction of the group commit, skipping
// those whose reads have changed since.
func (c *compactor) apply(plans []*flushPlan) (moved int, err error) {
	err = c.db.batch.do(func(mt model.Tx) error {
		t := mt.(*tx)
		moved = 0
		for _, p := range plans {
			ok, err := t.applyFlush(p)
			if err != nil {
				return err
			}
			if ok {
				moved += len(p.logged) + len(p.old)
			}
		}
		return nil
	})
	return moved, err
}

// plan prepares the round's work: the due devices' flushes, planned by
// up to planners goroutines (the work is per device; under load the
// compactor is what the ingest waits for), or else a step of the old
// layout's migration.
func (c *compactor) plan(due []int64) ([]*flushPlan, error) {
	if len(due) == 0 {
		var p *flushPlan
		err := c.db.view(func(t *tx) (err error) { p, err = t.planMigration(); return err })
		if p == nil {
			return nil, err
		}
		return []*flushPlan{p}, err
	}
	shards := min(runtime.GOMAXPROCS(0), maxPlanners, len(due))
	plans, errs := make([][]*flushPlan, shards), make([]error, shards)
	var wg sync.WaitGroup
	for i := range shards {
		wg.Go(func() {
			errs[i] = c.db.view(func(t *tx) error {
				for j := i; j < len(due); j += shards {
					p, err := t.planFlush(due[j], roundMax)
					if err != nil {
						return err
					}
					if p != nil {
						plans[i] = append(plans[i], p)
					}
				}
				return nil
			})
		})
	}
	wg.Wait()
	return slices.Concat(plans...), errors.Join(errs...)
}

// maxPlanners bounds the goroutines that plan a round.
const maxPlanners = 4

// due lists the devices whose logged positions should move now, most
// first.
func (c *compactor) due(force bool) []int64 {
	devices, total := c.db.tail.snapshot()
	slices.SortFunc(devices, func(a, b tailDevice) int { return cmp.Compare(b.n, a.n) })
	var out []int64
	over := total - c.cfg.MaxLog
	n := 0
	for _, d := range devices {
		if c.busy[d.device] {
			continue
		}
		if force || d.n >= c.cfg.FlushCount || time.Since(d.since) >= c.cfg.FlushAge || over > 0 {
			out = append(out, d.device)
			over -= d.n
			if n += d.n; n >= roundMax {
				break
			}
		}
	}
	return out
}

// planFlush prepares moving device's logged positions (at most about
// budget) into its chunks.
func (t *tx) planFlush(device int64, budget int) (*flushPlan, error) {
	keys := t.loggedKeys(device, posKey{math.MinInt64, 0}, posKey{math.MaxInt64, math.MaxInt64})
	log := t.btx.Bucket(bucketPositionLog)
	p := &flushPlan{device: device}
	var in []*model.Position
	for _, k := range keys {
		pos, err := logPosition(log, device, k.id)
		if err != nil {
			return nil, err
		}
		if pos == nil {
			continue // moved or deleted before this snapshot
		}
		in = append(in, pos)
		p.logged = append(p.logged, k)
		if len(in) >= max(budget, chunkMax) {
			break
		}
	}
	if len(in) == 0 {
		return nil, nil
	}
	return p, t.planChunks(p, in)
}

// planMigration prepares moving the oldest device's JSON rows of the old
// layout into chunks, a round's worth.
func (t *tx) planMigration() (*flushPlan, error) {
	c := t.btx.Bucket(bucketPositions).Cursor()
	k, _ := c.First()
	if len(k) != seriesKeyLen {
		return nil, nil
	}
	device := keyID(k[:8])
	p := &flushPlan{device: device}
	var in []*model.Position
	for k, v := c.Seek(k); len(k) == seriesKeyLen && keyID(k[:8]) == device && len(in) < roundMax; k, v = c.Next() {
		pos, err := oldPositions.decode(k, v)
		if err != nil {
			return nil, err
		}
		in = append(in, pos)
		p.old = append(p.old, bytes.Clone(k))
	}
	return p, t.planChunks(p, in)
}

// planChunks merges in (one device's positions, in order) with the
// chunks they overlap, or with the chunk before them while that stays
// under chunkMax, and encodes the result.
func (t *tx) planChunks(p *flushPlan, in []*model.Position) error {
	first, last := in[0], in[len(in)-1]
	lo, hi := posKey{first.FixTime.UnixNano(), first.ID}, posKey{last.FixTime.UnixNano(), last.ID}
	c := t.btx.Bucket(bucketPositionChunks).Cursor()
	var (
		merged [][]*model.Position
		count  int
	)
	take := func(k, v []byte) error {
		ps, err := decodeChunk(k, v)
		if err != nil {
			return err
		}
		p.drop = append(p.drop, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
		merged = append(merged, ps)
		count += len(ps)
		return nil
	}
	k, v := c.Seek(lo.seriesKey(p.device))
	for ; len(k) == seriesKeyLen && keyID(k[:8]) == p.device; k, v = c.Next() {
		h, err := chunk.ReadHeader(v)
		if err != nil {
			return fmt.Errorf("position chunk %x: %w", k, err)
		}
		if (posKey{h.FirstFix.UnixNano(), h.FirstID}).cmp(hi) > 0 {
			break
		}
		if err := take(k, v); err != nil {
			return err
		}
	}
	if len(p.drop) == 0 && len(in) < mergeBelow {
		// Nothing overlaps, and in is small: it joins the small chunks
		// just before it once together they make a chunk of mergeBelow,
		// else it is a small chunk of its own until then. Each position is
		// so written about twice, however few a flush moves at a time.
		type kv struct{ k, v []byte }
		var small []kv
		n := len(in)
		c.Seek(lo.seriesKey(p.device))
		for k, v := c.Prev(); len(k) == seriesKeyLen && keyID(k[:8]) == p.device && n < mergeBelow; k, v = c.Prev() {
			h, err := chunk.ReadHeader(v)
			if err != nil {
				return fmt.Errorf("position chunk %x: %w", k, err)
			}
			if h.Count >= mergeBelow {
				break
			}
			small, n = append(small, kv{k, v}), n+h.Count
		}
		if n >= mergeBelow {
			for _, s := range small {
				if err := take(s.k, s.v); err != nil {
					return err
				}
			}
		}
	}
	all := in
	for _, ps := range merged {
		all = mergeOrdered(all, ps)
	}
	var err error
	p.put, err = encodeChunks(all)
	return err
}

// mergeOrdered merges two runs of positions in store order.
func mergeOrdered(a, b []*model.Position) []*model.Position {
	out := make([]*model.Position, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		ka, kb := posKey{a[0].FixTime.UnixNano(), a[0].ID}, posKey{b[0].FixTime.UnixNano(), b[0].ID}
		if ka.cmp(kb) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// applyFlush carries out p if what it read is unchanged (the ingest, an
// API deletion or retention may have written since); ok is false if not,
// and the positions wait for the next round.
func (t *tx) applyFlush(p *flushPlan) (ok bool, err error) {
	log, old := t.btx.Bucket(bucketPositionLog).Cursor(), t.btx.Bucket(bucketPositions)
	chunks := t.btx.Bucket(bucketPositionChunks)
	for _, k := range p.logged {
		if at, _ := log.Seek(idKey(k.id)); keyID(at) != k.id {
			return false, nil
		}
	}
	for _, k := range p.old {
		if old.Get(k) == nil {
			return false, nil
		}
	}
	for _, d := range p.drop {
		if !bytes.Equal(chunks.Get(d[0]), d[1]) {
			return false, nil
		}
	}
	for _, d := range p.drop {
		if err := chunks.Delete(d[0]); err != nil {
			return false, err
		}
	}
	for _, kv := range p.put {
		if err := chunks.Put(kv[0], kv[1]); err != nil {
			return false, err
		}
	}
	for _, k := range p.logged {
		log.Seek(idKey(k.id)) // there, as checked above
		if err := log.Delete(); err != nil {
			return false, err
		}
		t.logChanges().remove(p.device, k)
	}
	// The old layout's id index stays: Position(id) finds a migrated
	// position's chunk through it.
	for _, k := range p.old {
		if err := old.Delete(k); err != nil {
			return false, err
		}
	}
	return true, nil
}

// encodeChunks encodes one device's positions, in order, as chunks of at
// most chunkMax of equal size, each keyed by its last position.
func encodeChunks(ps []*model.Position) ([][2][]byte, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	n := (len(ps) + chunkMax - 1) / chunkMax
	size := (len(ps) + n - 1) / n
	var out [][2][]byte
	for i := 0; i < len(ps); i += size {
		part := ps[i:min(i+size, len(ps))]
		data, err := chunk.Encode(part)
		if err != nil {
			return nil, fmt.Errorf("encode positions of device %d: %w", part[0].DeviceID, err)
		}
		last := part[len(part)-1]
		out = append(out, [2][]byte{seriesKey(last.DeviceID, last.FixTime, last.ID), data})
	}
	return out, nil
}

// reportMigration logs the old layout's migration now and then.
func (c *compactor) reportMigration(moved int) {
	if moved == 0 {
		return
	}
	if c.migrateLeft < 0 {
		c.db.bolt.View(func(btx *bolt.Tx) error {
			c.migrateLeft = btx.Bucket(bucketPositions).Stats().KeyN + moved
			return nil
		})
		c.cfg.Log.Info("moving positions to the compact layout", "positions", c.migrateLeft)
	}
	c.migrated += moved
	left := c.migrateLeft - c.migrated
	if left <= 0 || time.Since(c.reported) >= 10*time.Second {
		c.reported = time.Now()
		c.cfg.Log.Info("moving positions to the compact layout", "moved", c.migrated, "left", max(left, 0))
	}
}
