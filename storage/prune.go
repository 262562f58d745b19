package storage

import (
	"bytes"
	"math"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// PrunePositions deletes at most limit of device's positions with a fixTime
// before cutoff, oldest first, and reports how many it deleted. The
// device's latest position is kept whatever its age: the device's place on
// the map and its position id point to it. Retention calls it repeatedly,
// so a large backlog never holds the single writer long enough to stall
// the ingest.
func (db *DB) PrunePositions(deviceID int64, cutoff time.Time, limit int) (int, error) {
	if deviceID <= 0 || limit <= 0 || !cutoff.After(minKeyTime) {
		return 0, nil
	}
	to := clampKeyTime(cutoff).UnixNano() - 1
	some := false
	err := db.view(func(t *tx) error {
		first, found := t.earliestKey(deviceID)
		latest, _ := t.latestKey(deviceID)
		some = found && first.fix <= to && first != latest
		return nil
	})
	if err != nil || !some {
		return 0, err
	}
	var n int
	err = db.batch.do(func(mt model.Tx) (err error) {
		t := mt.(*tx)
		latest, _ := t.latestKey(deviceID)
		n, err = t.deletePositions(deviceID, posKey{math.MinInt64, 0}, to, limit, &latest)
		return err
	})
	return n, writeError(err)
}

// PruneEvents deletes at most limit of device's events with an eventTime
// before cutoff, oldest first.
func (db *DB) PruneEvents(deviceID int64, cutoff time.Time, limit int) (int, error) {
	return db.prune(func(btx *bolt.Tx, limit int) [][]byte {
		return events.keysBefore(btx, deviceID, cutoff, limit)
	}, events.deleteKeys, limit)
}

// prune deletes the keys due lists, looking first in a read transaction:
// a pass over devices with nothing due writes and syncs nothing (it was
// two commits per device). The deletion runs in the ingest's group commit,
// so under load it shares the ingest's fsyncs instead of queueing for the
// writer with its own.
func (db *DB) prune(due func(btx *bolt.Tx, limit int) [][]byte, del func(*bolt.Tx, [][]byte) (int, error), limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	some := false
	if err := db.bolt.View(func(btx *bolt.Tx) error { some = len(due(btx, 1)) > 0; return nil }); err != nil || !some {
		return 0, err
	}
	var n int
	err := db.batch.do(func(t model.Tx) (err error) {
		btx := t.(*tx).btx
		n, err = del(btx, due(btx, limit)) // listed again: the group may be retried
		return err
	})
	return n, writeError(err)
}

// keysBefore lists up to limit of device's keys dated before cutoff, oldest
// first.
func (s *series[T, P]) keysBefore(tx *bolt.Tx, device int64, cutoff time.Time, limit int) [][]byte {
	if device <= 0 {
		return nil
	}
	// Ids are positive, so every key of device dated before cutoff sorts
	// below (device, cutoff, 0), and nothing else at or after the seek does.
	end := seriesKey(device, clampKeyTime(cutoff), 0)
	var keys [][]byte
	c := tx.Bucket(s.data).Cursor()
	for k, _ := c.Seek(idKey(device)); len(k) == seriesKeyLen && bytes.Compare(k, end) < 0 && len(keys) < limit; k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	return keys
}

// Size is the size of the store file in bytes as bbolt maps it. Deleting
// records frees pages for reuse but never shrinks the file.
func (db *DB) Size() (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		n = tx.Size()
		return nil
	})
	return n, err
}

// PruneMedia deletes at most limit of the media files whose keys start
// with prefix and sort below bound (a device's files that arrived before a
// time: fleet.MediaBefore), and reports how many it deleted.
func (db *DB) PruneMedia(prefix, bound string, limit int) (int, error) {
	return db.prune(func(btx *bolt.Tx, limit int) [][]byte {
		var keys [][]byte
		c := collectionBucket(btx, ksMedia.bucket()).Cursor()
		for k, _ := c.Seek([]byte(prefix)); k != nil && bytes.HasPrefix(k, []byte(prefix)) && string(k) < bound && len(keys) < limit; k, _ = c.Next() {
			keys = append(keys, bytes.Clone(k))
		}
		return keys
	}, func(btx *bolt.Tx, keys [][]byte) (int, error) {
		b := collectionBucket(btx, ksMedia.bucket())
		for i, k := range keys {
			if err := b.Delete(k); err != nil {
				return i, err
			}
		}
		return len(keys), nil
	}, limit)
}
