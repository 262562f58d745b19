package storage

import (
	"bytes"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// Records and Keys reach a collection or key set by name: a registered
// one (collections.go) in its own bucket, any other in the shared ad hoc
// buckets under its name. Either way the bucket exists (Open checks), so
// a write in a read transaction fails as any write there does, with
// bbolt's ErrTxNotWritable.

func (t *tx) Records(name string) model.RecordSet {
	if c := collectionsByName[name]; c != nil {
		return &recordSet{tx: t.btx, b: collectionBucket(t.btx, c.bucket())}
	}
	return &recordSet{tx: t.btx, b: collectionBucket(t.btx, bucketAdhocRecords), name: name, prefix: adhocPrefix(name)}
}

func (t *tx) Keys(name string) model.KeySet {
	if keySetsByName[name] {
		return &keySet{b: collectionBucket(t.btx, keySetBucket(name))}
	}
	return &keySet{b: collectionBucket(t.btx, bucketAdhocKeys), name: name, prefix: adhocPrefix(name)}
}

// recordSet is a collection's bucket, or the ad hoc collection name's
// range (keys prefixed with prefix) of the shared bucket.
type recordSet struct {
	tx     *bolt.Tx
	b      *bolt.Bucket
	name   string
	prefix []byte // nil for a registered collection
}

func (r *recordSet) adhoc() bool { return r.prefix != nil }

func (r *recordSet) key(id int64) []byte { return concat(r.prefix, idKey(id)) }

func (r *recordSet) Get(id int64) ([]byte, bool, error) {
	v := r.b.Get(r.key(id))
	return v, v != nil, nil
}

func (r *recordSet) NextID() (int64, error) {
	if !r.adhoc() {
		seq, err := r.b.NextSequence()
		return int64(seq), err
	}
	if !validAdhocName(r.name) {
		return 0, model.Invalid("collection name %q has a zero byte", r.name)
	}
	seqs := collectionBucket(r.tx, bucketAdhocSequences)
	seq := keyID(seqs.Get([]byte(r.name))) + 1
	return seq, seqs.Put([]byte(r.name), idKey(seq))
}

func (r *recordSet) Put(id int64, data []byte) error {
	if id <= 0 {
		return model.Invalid("record id must be positive")
	}
	if r.adhoc() && !validAdhocName(r.name) {
		return model.Invalid("collection name %q has a zero byte", r.name)
	}
	return r.b.Put(r.key(id), data)
}

func (r *recordSet) Delete(id int64) (bool, error) {
	if r.b.Get(r.key(id)) == nil {
		return false, nil
	}
	return true, r.b.Delete(r.key(id))
}

// each calls fn for the set's records in key order (descending when
// reverse) until fn returns false.
func (r *recordSet) each(reverse bool, fn func(k, v []byte) bool) {
	c := r.b.Cursor()
	var k, v []byte
	switch {
	case !reverse:
		k, v = c.Seek(r.prefix)
	case !r.adhoc():
		k, v = c.Last()
	default:
		// The first key after the range, then back.
		if k, _ = c.Seek(prefixEnd(r.prefix)); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
	}
	for ; k != nil && bytes.HasPrefix(k, r.prefix); k, v = step(c, reverse) {
		if len(k) == len(r.prefix)+8 && !fn(k[len(r.prefix):], v) {
			return
		}
	}
}

func step(c *bolt.Cursor, reverse bool) ([]byte, []byte) {
	if reverse {
		return c.Prev()
	}
	return c.Next()
}

// prefixEnd is the least key greater than every key with prefix p, which
// ends with the 0x00 of an ad hoc name.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	end[len(end)-1]++
	return end
}

func (r *recordSet) List(reverse bool, fn func(int64, []byte) bool) error {
	r.each(reverse, func(k, v []byte) bool { return fn(keyID(k), v) })
	return nil
}

func (r *recordSet) Count() (int, error) {
	if !r.adhoc() {
		return r.b.Stats().KeyN, nil
	}
	n := 0
	r.each(false, func(_, _ []byte) bool { n++; return true })
	return n, nil
}

// keySet is a key set's bucket, or the ad hoc key set name's range of
// the shared bucket.
type keySet struct {
	b      *bolt.Bucket
	name   string
	prefix []byte // nil for a registered key set
}

func (k *keySet) Get(key string) (int64, bool, error) {
	v := k.b.Get(concat(k.prefix, []byte(key)))
	return keyID(v), v != nil, nil
}

func (k *keySet) Put(key string, id int64) error {
	if key == "" {
		return model.Invalid("empty key")
	}
	if k.prefix != nil && !validAdhocName(k.name) {
		return model.Invalid("key set name %q has a zero byte", k.name)
	}
	return k.b.Put(concat(k.prefix, []byte(key)), idKey(id))
}

func (k *keySet) Delete(key string) error {
	if key == "" {
		return nil
	}
	return k.b.Delete(concat(k.prefix, []byte(key)))
}

func (k *keySet) Scan(prefix string, fn func(string, int64) bool) error {
	c := k.b.Cursor()
	p := concat(k.prefix, []byte(prefix))
	for key, v := c.Seek(p); key != nil && bytes.HasPrefix(key, p); key, v = c.Next() {
		if !fn(string(key[len(k.prefix):]), keyID(v)) {
			return nil
		}
	}
	return nil
}
