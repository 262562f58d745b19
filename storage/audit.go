package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// timeLog is a collection kept in time order: key seriesKey(0, time, id),
// value the record's JSON. The audit log and the usage statistics are
// ones.
type timeLog[T any] struct {
	btx *bolt.Tx
	col *collection
	at  func(*T) time.Time
}

func (l timeLog[T]) bucket() *bolt.Bucket { return collectionBucket(l.btx, l.col.bucket()) }

// put stores v under its time and id.
func (l timeLog[T]) put(v *T, id int64) error {
	t := l.at(v)
	if !timeInKeyRange(t) {
		return model.Invalid("%s time %v is out of range", l.col.what, t)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return l.bucket().Put(seriesKey(0, t, id), data)
}

func (l timeLog[T]) scan(from, to time.Time, fn func(*T) bool) error {
	c := l.bucket().Cursor()
	end := seriesKey(0, clampKeyTime(to), -1) // id all ones: the last of to
	for k, v := c.Seek(seriesKey(0, clampKeyTime(from), 0)); k != nil && bytes.Compare(k, end) <= 0; k, v = c.Next() {
		rec := new(T)
		if err := json.Unmarshal(v, rec); err != nil {
			return fmt.Errorf("decode %s: %w", l.col.what, err)
		}
		if !fn(rec) {
			return nil
		}
	}
	return nil
}

func (l timeLog[T]) prune(before time.Time, limit int) (int, error) {
	c := l.bucket().Cursor()
	end := seriesKey(0, clampKeyTime(before), 0)
	n := 0
	for k, _ := c.First(); k != nil && bytes.Compare(k, end) < 0 && n < limit; k, _ = c.First() {
		if err := c.Delete(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// auditLog is the audit log; ids come from its bucket's sequence.
type auditLog struct{ timeLog[model.AuditEntry] }

func (t *tx) Audit() model.AuditTx {
	return auditLog{timeLog[model.AuditEntry]{t.btx, colAudit, func(e *model.AuditEntry) time.Time { return e.ActionTime }}}
}

func (a auditLog) Add(e *model.AuditEntry) error {
	id, err := a.bucket().NextSequence()
	if err != nil {
		return err
	}
	e.ID = int64(id)
	return a.put(e, e.ID)
}

func (a auditLog) Range(from, to time.Time, fn func(*model.AuditEntry) bool) error {
	return a.scan(from, to, fn)
}

func (a auditLog) Prune(before time.Time, limit int) (int, error) { return a.prune(before, limit) }

// statisticsLog holds one record per capture time.
type statisticsLog struct{ timeLog[model.Statistics] }

func (t *tx) Statistics() model.StatisticsTx {
	return statisticsLog{timeLog[model.Statistics]{t.btx, colStatistics, func(s *model.Statistics) time.Time { return s.CaptureTime }}}
}

func (s statisticsLog) Put(v *model.Statistics) error { return s.put(v, 0) }

func (s statisticsLog) Get(at time.Time) (*model.Statistics, error) {
	var found *model.Statistics
	err := s.scan(at, at, func(v *model.Statistics) bool { found = v; return false })
	if err == nil && found == nil {
		err = model.NotFound("Statistics")
	}
	return found, err
}

func (s statisticsLog) Range(from, to time.Time, fn func(*model.Statistics) bool) error {
	return s.scan(from, to, fn)
}
