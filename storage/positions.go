package storage

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk"
	bolt "go.etcd.io/bbolt"
)

// Positions live in three places (see doc.go):
//
//   - the log (positions_log), where AddPosition appends in arrival order,
//     so a commit writes a few sequential pages whatever the number of
//     devices it carries;
//   - per-device chunks (position_chunks), where the compactor moves them
//     later (compact.go), a few hundred to a value in storage/chunk's
//     encoding, under the key of the chunk's last position;
//   - the JSON rows of schema 4 and before (positions), until the
//     background migration has moved them into chunks.
//
// Reads merge the three in the device's order (fix time, then id). A
// position is in exactly one of them in any snapshot: the compactor moves
// it in one transaction.

// oldPositions is the layout of schema 4: one JSON row a position.
var oldPositions = series[model.Position, *model.Position]{
	data:      bucketPositions,
	ids:       bucketPositionIDs,
	what:      "position",
	timeField: "fixTime",
	deviceOf:  func(p *model.Position) int64 { return p.DeviceID },
	timeOf:    func(p *model.Position) time.Time { return p.FixTime },
}

// logHeadLen is the log value's head: device id and fix time, so the tail
// is rebuilt at open without decoding the rest, a chunk.Record of the
// position (1.5 µs to encode, as many to decode, about 200 bytes for a GT06
// position).
const logHeadLen = 16

func logHead(k, v []byte) (device int64, key posKey, ok bool) {
	if len(k) != 8 || len(v) < logHeadLen {
		return 0, posKey{}, false
	}
	return int64(binary.BigEndian.Uint64(v)),
		posKey{int64(binary.BigEndian.Uint64(v[8:]) ^ (1 << 63)), keyID(k)}, true
}

func corruptLog(k []byte) error { return fmt.Errorf("store is damaged: position log entry %x", k) }

func (t *tx) AddPosition(p *model.Position) error {
	switch {
	case p.DeviceID <= 0:
		return model.Invalid("position deviceId is required")
	case p.FixTime.IsZero():
		return model.Invalid("position fixTime is required")
	case !timeInKeyRange(p.FixTime):
		return model.Invalid("position fixTime %s is out of range", p.FixTime.Format(time.RFC3339))
	}
	log := t.btx.Bucket(bucketPositionLog)
	log.FillPercent = appendFill // ids only grow
	seq, err := log.NextSequence()
	if err != nil {
		return err
	}
	p.ID = int64(seq)
	value := make([]byte, logHeadLen, logHeadLen+256)
	binary.BigEndian.PutUint64(value, uint64(p.DeviceID))
	appendTime(value[:8], p.FixTime)
	if value, err = chunk.AppendRecord(value, p); err != nil {
		return model.Invalid("position: %v", err)
	}
	if err := log.Put(idKey(p.ID), value); err != nil {
		return err
	}
	key := posKey{p.FixTime.UnixNano(), p.ID}
	if err := t.indexID(p.DeviceID, key); err != nil {
		return err
	}
	t.logChanges().add(p.DeviceID, key)
	return nil
}

// logPosition decodes a log row; nil if the row is absent or not device's.
func logPosition(log *bolt.Bucket, device int64, id int64) (*model.Position, error) {
	k := idKey(id)
	v := log.Get(k)
	if v == nil {
		return nil, nil
	}
	d, key, ok := logHead(k, v)
	if !ok {
		return nil, corruptLog(k)
	}
	if device != 0 && d != device {
		return nil, nil
	}
	p, err := chunk.DecodeRecord(v[logHeadLen:])
	if err != nil {
		return nil, fmt.Errorf("decode position %d: %w", id, err)
	}
	p.ID, p.DeviceID = key.id, d
	return p, nil
}

func (t *tx) Position(id int64) (*model.Position, error) {
	if id <= 0 {
		return nil, model.NotFound("position")
	}
	p, err := logPosition(t.btx.Bucket(bucketPositionLog), 0, id)
	if p != nil || err != nil {
		return p, err
	}
	// Moved to a chunk, or a JSON row of the old layout (whose id index
	// stays when the row is migrated).
	device, key, ok := t.lookupID(id)
	if !ok {
		sk := t.btx.Bucket(bucketPositionIDs).Get(idKey(id))
		if len(sk) != seriesKeyLen {
			return nil, model.NotFound("position")
		}
		if v := t.btx.Bucket(bucketPositions).Get(sk); v != nil {
			return oldPositions.decode(sk, v)
		}
		device, key = keyOfSeries(sk)
	}
	if p, err := chunkPosition(t.btx, device, key); p != nil || err != nil {
		return p, err
	}
	return nil, model.NotFound("position")
}

// LatestPosition is the device's position with the newest fix; among equal
// fixes, the one with the largest id (it arrived last).
func (t *tx) LatestPosition(deviceID int64) (*model.Position, error) {
	k, where := t.latestKey(deviceID)
	switch where {
	case fromLog:
		return logPosition(t.btx.Bucket(bucketPositionLog), deviceID, k.id)
	case fromChunks:
		if p, err := chunkPosition(t.btx, deviceID, k); p != nil || err != nil {
			return p, err
		}
	case fromOld:
		return oldPositions.atKey(t.btx, k.seriesKey(deviceID))
	}
	return nil, model.NotFound("position")
}

// latestKey is the key of device's newest position and where it is
// (nSources: nowhere), read from keys only.
func (t *tx) latestKey(device int64) (best posKey, where int) {
	where = nSources
	if k, found := t.lastLogged(device); found {
		best, where = k, fromLog
	}
	for _, s := range [...]struct {
		bucket []byte
		where  int
	}{{bucketPositionChunks, fromChunks}, {bucketPositions, fromOld}} {
		if k := lastKeyIn(t.btx.Bucket(s.bucket), device); k != nil {
			if _, pk := keyOfSeries(k); where == nSources || pk.cmp(best) > 0 {
				best, where = pk, s.where
			}
		}
	}
	return best, where
}

// earliestKey is the key of device's oldest position, read from keys and
// chunk headers only; false if it has none.
func (t *tx) earliestKey(device int64) (best posKey, found bool) {
	for _, k := range t.loggedKeys(device, posKey{math.MinInt64, 0}, posKey{math.MaxInt64, math.MaxInt64}) {
		if t.inLog(device, k.id) {
			best, found = k, true
			break
		}
	}
	prefix := idKey(device)
	if k, v := t.btx.Bucket(bucketPositionChunks).Cursor().Seek(prefix); len(k) == seriesKeyLen && bytes.HasPrefix(k, prefix) {
		if h, err := chunk.ReadHeader(v); err == nil {
			if pk := (posKey{h.FirstFix.UnixNano(), h.FirstID}); !found || pk.cmp(best) < 0 {
				best, found = pk, true
			}
		}
	}
	if k, _ := t.btx.Bucket(bucketPositions).Cursor().Seek(prefix); len(k) == seriesKeyLen && bytes.HasPrefix(k, prefix) {
		if _, pk := keyOfSeries(k); !found || pk.cmp(best) < 0 {
			best, found = pk, true
		}
	}
	return best, found
}

// lastLogged is the key of device's newest position in the log.
func (t *tx) lastLogged(device int64) (posKey, bool) {
	keys := t.loggedKeys(device, posKey{math.MinInt64, 0}, posKey{math.MaxInt64, math.MaxInt64})
	for i := len(keys) - 1; i >= 0; i-- {
		if t.inLog(device, keys[i].id) {
			return keys[i], true
		}
	}
	return posKey{}, false
}

// inLog tells whether this transaction's log holds position id of device.
func (t *tx) inLog(device, id int64) bool {
	k := idKey(id)
	d, _, ok := logHead(k, t.btx.Bucket(bucketPositionLog).Get(k))
	return ok && d == device
}

// loggedKeys lists device's log keys in [from, to] that this transaction
// may see: the tail's and its own additions. Callers check each in the log.
func (t *tx) loggedKeys(device int64, from, to posKey) []posKey {
	keys := t.db.tail.keys(device, from, to)
	if t.changes != nil {
		keys = t.changes.merge(device, keys, from, to)
	}
	return keys
}

func (t *tx) Positions(deviceID int64, from, to time.Time, fn func(*model.Position) bool) error {
	return t.scanPositions(deviceID, from, 0, to, fn)
}

func (t *tx) PositionsAfter(last *model.Position, to time.Time, fn func(*model.Position) bool) error {
	return t.scanPositions(last.DeviceID, last.FixTime, last.ID+1, to, fn)
}

func (t *tx) scanPositions(device int64, from time.Time, fromID int64, to time.Time, fn func(*model.Position) bool) error {
	if from.Before(minKeyTime) {
		from, fromID = minKeyTime, 0
	}
	to = clampKeyTime(to)
	if device <= 0 || from.After(to) {
		return nil
	}
	m := t.merged(device, posKey{from.UnixNano(), fromID}, to.UnixNano())
	for {
		p, _, err := m.next()
		if p == nil || err != nil {
			return err
		}
		if !fn(p) {
			return nil
		}
	}
}

func (t *tx) DeletePositions(deviceID int64, from, to time.Time, limit int) (int, error) {
	from, to = clampKeyTime(from), clampKeyTime(to)
	if deviceID <= 0 || limit <= 0 || from.After(to) {
		return 0, nil
	}
	return t.deletePositions(deviceID, posKey{from.UnixNano(), 0}, to.UnixNano(), limit, nil)
}

// lastKeyIn is the key of device's last entry in a bucket of series keys,
// nil if it has none.
func lastKeyIn(b *bolt.Bucket, device int64) []byte {
	beyond := append(appendTime(idKey(device), maxKeyTime), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)
	c := b.Cursor()
	k, _ := c.Seek(beyond)
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if k == nil {
		// bbolt's Prev stops on a leaf that deletions earlier in this
		// transaction emptied (Next and Last skip them). Walk the device's
		// range forwards instead: correct, but it reads the whole range, so
		// callers look for the latest after deleting in a new transaction.
		prefix := idKey(device)
		for fk, _ := c.Seek(prefix); len(fk) == seriesKeyLen && bytes.HasPrefix(fk, prefix); fk, _ = c.Next() {
			k = fk
		}
	}
	if len(k) != seriesKeyLen || keyID(k[:8]) != device {
		return nil
	}
	return bytes.Clone(k)
}
