package storage

import (
	"bytes"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// Records and Keys give the extended (v2) entity kinds their own buckets,
// named "records/<name>" and "keys/<name>" so they can never collide with
// the core's. They are created on first write; in a read transaction a
// bucket that does not exist yet reads as empty, and a write to it fails
// as any write there does.

func (t *tx) Records(name string) model.RecordSet {
	return &recordSet{tx: t.btx, name: []byte("records/" + name)}
}

func (t *tx) Keys(name string) model.KeySet {
	return &keySet{tx: t.btx, name: []byte("keys/" + name)}
}

// bucketFor returns the bucket to write to, creating it if needed; in a
// read transaction, a bucket that does not exist is bbolt's
// ErrTxNotWritable (a nil bucket would make the write panic).
func bucketFor(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
	if b := tx.Bucket(name); b != nil {
		return b, nil
	}
	if !tx.Writable() {
		return nil, bolt.ErrTxNotWritable
	}
	return tx.CreateBucket(name)
}

type recordSet struct {
	tx   *bolt.Tx
	name []byte
}

func (r *recordSet) Get(id int64) ([]byte, bool, error) {
	b := r.tx.Bucket(r.name)
	if b == nil {
		return nil, false, nil
	}
	v := b.Get(idKey(id))
	return v, v != nil, nil
}

func (r *recordSet) NextID() (int64, error) {
	b, err := bucketFor(r.tx, r.name)
	if err != nil {
		return 0, err
	}
	seq, err := b.NextSequence()
	return int64(seq), err
}

func (r *recordSet) Put(id int64, data []byte) error {
	if id <= 0 {
		return model.Invalid("record id must be positive")
	}
	b, err := bucketFor(r.tx, r.name)
	if err != nil {
		return err
	}
	return b.Put(idKey(id), data)
}

func (r *recordSet) Delete(id int64) (bool, error) {
	b := r.tx.Bucket(r.name)
	if b == nil || b.Get(idKey(id)) == nil {
		return false, nil
	}
	return true, b.Delete(idKey(id))
}

func (r *recordSet) List(reverse bool, fn func(int64, []byte) bool) error {
	b := r.tx.Bucket(r.name)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	first, next := c.First, c.Next
	if reverse {
		first, next = c.Last, c.Prev
	}
	for k, v := first(); k != nil; k, v = next() {
		if !fn(keyID(k), v) {
			return nil
		}
	}
	return nil
}

func (r *recordSet) Count() (int, error) {
	b := r.tx.Bucket(r.name)
	if b == nil {
		return 0, nil
	}
	return b.Stats().KeyN, nil
}

type keySet struct {
	tx   *bolt.Tx
	name []byte
}

func (k *keySet) Get(key string) (int64, bool, error) {
	b := k.tx.Bucket(k.name)
	if b == nil {
		return 0, false, nil
	}
	v := b.Get([]byte(key))
	return keyID(v), v != nil, nil
}

func (k *keySet) Put(key string, id int64) error {
	if key == "" {
		return model.Invalid("empty key")
	}
	b, err := bucketFor(k.tx, k.name)
	if err != nil {
		return err
	}
	return b.Put([]byte(key), idKey(id))
}

func (k *keySet) Delete(key string) error {
	b := k.tx.Bucket(k.name)
	if b == nil || key == "" {
		return nil
	}
	return b.Delete([]byte(key))
}

func (k *keySet) Scan(prefix string, fn func(string, int64) bool) error {
	b := k.tx.Bucket(k.name)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	p := []byte(prefix)
	for key, v := c.Seek(p); key != nil && bytes.HasPrefix(key, p); key, v = c.Next() {
		if !fn(string(key), keyID(v)) {
			return nil
		}
	}
	return nil
}

// Drivers and computed attributes are extended collections kept as
// records: they have no index but the drivers' uniqueId keys.
func (t *tx) Drivers() model.Table[model.Driver] {
	return model.RecordTable[model.Driver](t, "drivers", "driver")
}

func (t *tx) ComputedAttributes() model.Table[model.ComputedAttribute] {
	return model.RecordTable[model.ComputedAttribute](t, "computed_attributes", "Attribute")
}
