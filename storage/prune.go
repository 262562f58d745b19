package storage

import (
	"bytes"
	"time"

	bolt "go.etcd.io/bbolt"
)

// PrunePositions deletes at most limit of device's positions with a fixTime
// before cutoff, oldest first, in one short write transaction, and reports
// how many it deleted. The device's latest position is kept whatever its
// age: the device's place on the map and its position id point to it.
// Retention calls it repeatedly, so a large backlog never holds the single
// bbolt writer long enough to stall the ingest.
func (db *DB) PrunePositions(deviceID int64, cutoff time.Time, limit int) (int, error) {
	var n int
	err := db.bolt.Update(func(btx *bolt.Tx) (err error) {
		n, err = positions.pruneBefore(btx, deviceID, cutoff, limit, positions.lastKey(btx, deviceID))
		return err
	})
	return n, err
}

// PruneEvents deletes at most limit of device's events with an eventTime
// before cutoff, oldest first, in one short write transaction.
func (db *DB) PruneEvents(deviceID int64, cutoff time.Time, limit int) (int, error) {
	var n int
	err := db.bolt.Update(func(btx *bolt.Tx) (err error) {
		n, err = events.pruneBefore(btx, deviceID, cutoff, limit, nil)
		return err
	})
	return n, err
}

// pruneBefore deletes up to limit of device's records dated before cutoff,
// skipping the record at keep.
func (s *series[T, P]) pruneBefore(tx *bolt.Tx, device int64, cutoff time.Time, limit int, keep []byte) (int, error) {
	if device <= 0 || limit <= 0 {
		return 0, nil
	}
	// Ids are positive, so every key of device dated before cutoff sorts
	// below (device, cutoff, 0), and nothing else at or after the seek does.
	end := seriesKey(device, clampKeyTime(cutoff), 0)
	var keys [][]byte
	c := tx.Bucket(s.data).Cursor()
	for k, _ := c.Seek(idKey(device)); len(k) == seriesKeyLen && bytes.Compare(k, end) < 0 && len(keys) < limit; k, _ = c.Next() {
		if !bytes.Equal(k, keep) {
			keys = append(keys, bytes.Clone(k))
		}
	}
	return s.deleteKeys(tx, keys)
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
