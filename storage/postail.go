package storage

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// posKey is a position's place in its device's order: fix time (UnixNano),
// then id.
type posKey struct{ fix, id int64 }

func (a posKey) cmp(b posKey) int {
	if c := cmp.Compare(a.fix, b.fix); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// seriesKey is the key of posKey k of device in the series layouts.
func (k posKey) seriesKey(device int64) []byte {
	return seriesKey(device, time.Unix(0, k.fix), k.id)
}

// keyOfSeries reads a 24-byte series key back.
func keyOfSeries(k []byte) (device int64, pk posKey) {
	return int64(binary.BigEndian.Uint64(k)),
		posKey{int64(binary.BigEndian.Uint64(k[8:]) ^ (1 << 63)), int64(binary.BigEndian.Uint64(k[16:]))}
}

// tail is the in-memory index of the position log: for each device, the
// keys of its positions that are still in the log (not yet compacted into
// chunks), in order. Reads find a device's unmerged positions through it
// instead of scanning the log, which is in arrival order.
//
// Transactions see the store as of their start, the tail as of now. So the
// tail may list a key a reader's snapshot does not have in its log: added
// after it began (the reader checks each key in its own log and skips
// those), or moved out of the log before it began (then the reader's
// chunks hold it). What the tail must never do is forget a key a live
// reader's log still holds: a key removed from the log by commit c stays
// listed until every reader that began before c has ended.
type tail struct {
	mu      sync.RWMutex
	devices map[int64]*deviceTail
	total   int
	// pendingN are the keys of pending: total less pendingN is what is
	// still to compact.
	pendingN int
	// pending are removals kept listed for readers older than their commit.
	pending []tailRemoval

	// full, when set, is signalled when a commit leaves more than limit
	// positions listed: the compactor then starts at once.
	full  chan struct{}
	limit int
	// drained is broadcast when a commit leaves the log at most limit.
	drained *sync.Cond

	rmu     sync.Mutex
	readers map[int]int // live readers by the last commit applied when they began
	applied int         // the last commit applied to the tail
}

type deviceTail struct {
	keys  []posKey
	since time.Time // when the oldest of keys reached the tail, about
}

type tailRemoval struct {
	txid   int
	device int64
	keys   []posKey
}

func newTail() *tail {
	tl := &tail{devices: map[int64]*deviceTail{}, readers: map[int]int{}}
	tl.drained = sync.NewCond(&tl.mu)
	return tl
}

// stallFactor times the limit is where writers wait for the compactor: a
// log that outgrows it faster than it is compacted would take the disk
// and the memory its pages are read into. Positions are then acknowledged
// at the rate they are compacted.
const stallFactor = 2

// wait holds a writer while the log is over stallFactor times its limit.
func (tl *tail) wait() {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	for tl.full != nil && tl.total-tl.pendingN > stallFactor*tl.limit {
		tl.drained.Wait()
	}
}

// load lists the log of a store being opened.
func (tl *tail) load(btx *bolt.Tx) error {
	now := time.Now()
	c := btx.Bucket(bucketPositionLog).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		device, key, ok := logHead(k, v)
		if !ok {
			return corruptLog(k)
		}
		d := tl.devices[device]
		if d == nil {
			d = &deviceTail{since: now}
			tl.devices[device] = d
		}
		d.keys = append(d.keys, key)
		tl.total++
	}
	for _, d := range tl.devices {
		slices.SortFunc(d.keys, posKey.cmp)
	}
	tl.applied = btx.ID()
	return nil
}

// enter registers a reader about to begin a transaction; exit with the
// value it returns when the transaction ends. The reader's snapshot is at
// least as new as the last commit applied here, so it needs no removal of
// that commit or before listed any more.
func (tl *tail) enter() int {
	tl.rmu.Lock()
	defer tl.rmu.Unlock()
	tl.readers[tl.applied]++
	return tl.applied
}

func (tl *tail) exit(at int) {
	tl.rmu.Lock()
	defer tl.rmu.Unlock()
	if tl.readers[at]--; tl.readers[at] <= 0 {
		delete(tl.readers, at)
	}
}

// oldestReader is the oldest snapshot a live reader may have, or max when
// none is live.
func (tl *tail) oldestReader(max int) int {
	tl.rmu.Lock()
	defer tl.rmu.Unlock()
	oldest := max
	for at := range tl.readers {
		oldest = min(oldest, at)
	}
	return oldest
}

// keys returns device's listed keys in [from, to], in order.
func (tl *tail) keys(device int64, from, to posKey) []posKey {
	tl.mu.RLock()
	defer tl.mu.RUnlock()
	d := tl.devices[device]
	if d == nil {
		return nil
	}
	i, _ := slices.BinarySearchFunc(d.keys, from, posKey.cmp)
	j, found := slices.BinarySearchFunc(d.keys, to, posKey.cmp)
	if found {
		j++
	}
	if i >= j {
		return nil
	}
	return slices.Clone(d.keys[i:j])
}

// commit applies a committed transaction's log changes.
func (tl *tail) commit(txid int, added, removed map[int64][]posKey) {
	now := time.Now()
	tl.mu.Lock()
	for device, keys := range added {
		d := tl.devices[device]
		if d == nil {
			d = &deviceTail{since: now}
			tl.devices[device] = d
		} else if len(d.keys) == 0 {
			d.since = now
		}
		for _, k := range keys {
			i, _ := slices.BinarySearchFunc(d.keys, k, posKey.cmp)
			d.keys = slices.Insert(d.keys, i, k)
		}
		tl.total += len(keys)
	}
	for device, keys := range removed {
		tl.pending = append(tl.pending, tailRemoval{txid, device, keys})
		tl.pendingN += len(keys)
	}
	if left := tl.total - tl.pendingN; tl.full != nil {
		if left > tl.limit {
			select {
			case tl.full <- struct{}{}:
			default:
			}
		}
		if left <= stallFactor*tl.limit {
			tl.drained.Broadcast()
		}
	}
	tl.mu.Unlock()
	tl.rmu.Lock()
	tl.applied = max(tl.applied, txid)
	tl.rmu.Unlock()
	tl.forget()
}

// forget drops the removals no live reader can need any more.
func (tl *tail) forget() {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	if len(tl.pending) == 0 {
		return
	}
	oldest := tl.oldestReader(int(^uint(0) >> 1))
	kept := tl.pending[:0]
	for _, r := range tl.pending {
		if r.txid > oldest {
			kept = append(kept, r)
			continue
		}
		tl.pendingN -= len(r.keys)
		d := tl.devices[r.device]
		if d == nil {
			continue
		}
		for _, k := range r.keys {
			if i, found := slices.BinarySearchFunc(d.keys, k, posKey.cmp); found {
				d.keys = slices.Delete(d.keys, i, i+1)
				tl.total--
			}
		}
		if len(d.keys) == 0 {
			delete(tl.devices, r.device)
		}
	}
	clear(tl.pending[len(kept):])
	tl.pending = kept
}

// unstall lets waiting writers go (the compactor stops).
func (tl *tail) unstall() {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	tl.full = nil
	tl.drained.Broadcast()
}

// tailDevice is what the compactor chooses from: a device, how many keys
// it has listed and since when.
type tailDevice struct {
	device int64
	n      int
	since  time.Time
}

// snapshot lists the devices with keys listed and how many are still to
// compact (total less those listed only for old readers).
func (tl *tail) snapshot() (devices []tailDevice, left int) {
	tl.mu.RLock()
	defer tl.mu.RUnlock()
	for id, d := range tl.devices {
		devices = append(devices, tailDevice{id, len(d.keys), d.since})
	}
	return devices, tl.total - tl.pendingN
}
