package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// series is a per-device time series of records (events; positions in the
// layout of schema 4 and before) keyed seriesKey(deviceID, time, id), with
// an id -> key index so a record is also found by id in O(log n).
type series[T any, P entity[T]] struct {
	data, ids []byte // bucket names
	what      string // "position"
	timeField string // "fixTime"
	deviceOf  func(*T) int64
	timeOf    func(*T) time.Time
}

// add assigns v's id from the data bucket's sequence, stores v and returns
// its key.
func (s *series[T, P]) add(tx *bolt.Tx, v *T) ([]byte, error) {
	device, at := s.deviceOf(v), s.timeOf(v)
	switch {
	case device <= 0:
		return nil, model.Invalid("%s deviceId is required", s.what)
	case at.IsZero():
		return nil, model.Invalid("%s %s is required", s.what, s.timeField)
	case !timeInKeyRange(at):
		return nil, model.Invalid("%s %s %s is out of range", s.what, s.timeField, at.Format(time.RFC3339))
	}
	data, ids := tx.Bucket(s.data), tx.Bucket(s.ids)
	// Keys append: ids at the end of the index, records at the end of their
	// device's range. bbolt's default split leaves pages half empty, which
	// doubles both the file and the pages each commit writes.
	data.FillPercent, ids.FillPercent = appendFill, appendFill
	seq, err := data.NextSequence()
	if err != nil {
		return nil, err
	}
	id := int64(seq)
	P(v).SetID(id)
	value, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", s.what, err)
	}
	key := seriesKey(device, at, id)
	if err := data.Put(key, value); err != nil {
		return nil, err
	}
	return key, ids.Put(idKey(id), key)
}

// appendFill is the fill percent of buckets whose keys mostly append: in
// time order a device's pages end up full (about 520 bytes a position
// instead of 1,150 at the default 0.5). Records inserted out of order, such
// as a tracker uploading its buffer newest first, split full pages and
// take more room than at the default (1,240 bytes a position in reverse
// order against 940); trackers send in time order nearly always.
const appendFill = 1.0

func (s *series[T, P]) get(tx *bolt.Tx, id int64) (*T, error) {
	if id <= 0 {
		return nil, model.NotFound(s.what)
	}
	return s.atKey(tx, tx.Bucket(s.ids).Get(idKey(id)))
}

// atKey decodes the record stored at key, NotFound if there is none.
func (s *series[T, P]) atKey(tx *bolt.Tx, key []byte) (*T, error) {
	var value []byte
	if len(key) == seriesKeyLen {
		value = tx.Bucket(s.data).Get(key)
	}
	if value == nil {
		return nil, model.NotFound(s.what)
	}
	return s.decode(key, value)
}

func (s *series[T, P]) decode(key, value []byte) (*T, error) {
	v := new(T)
	if err := json.Unmarshal(value, v); err != nil {
		return nil, fmt.Errorf("decode %s %x: %w", s.what, key, err)
	}
	P(v).SetID(keyID(key[16:])) // the key is authoritative
	return v, nil
}

// each calls fn with the key and value of device's records in time order
// (equal times in id order) for from <= time <= to, until fn returns false;
// at time from, only ids from fromID on.
func (s *series[T, P]) each(tx *bolt.Tx, device int64, from time.Time, fromID int64, to time.Time, fn func(k, v []byte) bool) {
	if from.Before(minKeyTime) {
		from, fromID = minKeyTime, 0
	}
	to = clampKeyTime(to)
	if from.After(to) {
		return
	}
	start := seriesKey(device, from, fromID)
	end := appendTime(idKey(device), to) // compared with the first 16 bytes
	c := tx.Bucket(s.data).Cursor()
	for k, v := c.Seek(start); len(k) == seriesKeyLen && bytes.Compare(k[:16], end) <= 0; k, v = c.Next() {
		if !fn(k, v) {
			return
		}
	}
}

// eachNewest is each in reverse: device's records for from <= time <= to,
// newest first (equal times by id, descending), until fn returns false.
func (s *series[T, P]) eachNewest(tx *bolt.Tx, device int64, from, to time.Time, fn func(k, v []byte) bool) {
	from, to = clampKeyTime(from), clampKeyTime(to)
	if from.After(to) {
		return
	}
	// Every key of device up to time to sorts at or before (device, to,
	// max id); nothing of device from time from on sorts before start.
	end := seriesKey(device, to, math.MaxInt64)
	start := appendTime(idKey(device), from)
	c := tx.Bucket(s.data).Cursor()
	k, v := c.Seek(end)
	switch {
	case k == nil:
		k, v = c.Last()
	case !bytes.Equal(k, end):
		k, v = c.Prev()
	}
	var last []byte // the last key visited
	for ; len(k) == seriesKeyLen && bytes.Compare(k[:16], start) >= 0 && bytes.HasPrefix(k, start[:8]); k, v = c.Prev() {
		if !fn(k, v) {
			return
		}
		last = k
	}
	if k != nil || !tx.Writable() {
		return
	}
	// Prev found nothing: the bucket's first key is behind, or, in a
	// writing transaction, bbolt's Prev stopped on a leaf that deletions
	// earlier in it emptied (Next and Last skip them; see lastKeyIn). Visit
	// what is left of the range, read forwards. Only then does this cost
	// more than the keys visited.
	var rest [][]byte
	s.each(tx, device, from, 0, to, func(k, _ []byte) bool {
		if last != nil && bytes.Compare(k, last) >= 0 {
			return false
		}
		rest = append(rest, bytes.Clone(k))
		return true
	})
	data := tx.Bucket(s.data)
	for i := len(rest) - 1; i >= 0; i-- {
		if !fn(rest[i], data.Get(rest[i])) {
			return
		}
	}
}

// decodeEach adapts fn to each and eachNewest: records are decoded, and a
// decoding error stops the walk in *errp.
func (s *series[T, P]) decodeEach(errp *error, fn func(*T) bool) func(k, v []byte) bool {
	return func(k, value []byte) bool {
		var v *T
		if v, *errp = s.decode(k, value); *errp != nil {
			return false
		}
		return fn(v)
	}
}

func (s *series[T, P]) scan(tx *bolt.Tx, device int64, from time.Time, fromID int64, to time.Time, fn func(*T) bool) error {
	var err error
	s.each(tx, device, from, fromID, to, s.decodeEach(&err, fn))
	return err
}

// scanNewest is scan newest first.
func (s *series[T, P]) scanNewest(tx *bolt.Tx, device int64, from, to time.Time, fn func(*T) bool) error {
	var err error
	s.eachNewest(tx, device, from, to, s.decodeEach(&err, fn))
	return err
}

// deleteRange removes at most limit of device's records in [from, to],
// oldest first, with their id index entries.
func (s *series[T, P]) deleteRange(tx *bolt.Tx, device int64, from, to time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, nil
	}
	var keys [][]byte
	s.each(tx, device, from, 0, to, func(k, _ []byte) bool {
		keys = append(keys, bytes.Clone(k))
		return len(keys) < limit
	})
	return s.deleteKeys(tx, keys)
}

// deleteKeys removes the records at keys with their id index entries.
// Keys are collected first: a bbolt cursor must not walk what is deleted.
func (s *series[T, P]) deleteKeys(tx *bolt.Tx, keys [][]byte) (int, error) {
	data, ids := tx.Bucket(s.data), tx.Bucket(s.ids)
	for _, k := range keys {
		if err := data.Delete(k); err != nil {
			return 0, err
		}
		if err := ids.Delete(k[16:]); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}
