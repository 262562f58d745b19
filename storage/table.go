package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// entity is the pointer type of an id-keyed record.
type entity[T any] interface {
	*T
	model.Entity
}

// tableSpec describes one entity bucket; one spec per entity type, shared
// by every transaction.
type tableSpec[T any] struct {
	bucket []byte
	what   string // for messages: "user", "device"
	index  *uniqueIndex[T]
	group  *groupIndex[T]
	// encode and decode default to encoding/json when nil.
	encode func(*T) ([]byte, error)
	decode func([]byte, *T) error
}

// uniqueIndex maps a normalized field value to the id holding it.
type uniqueIndex[T any] struct {
	bucket    []byte
	field     string // for messages: "email", "uniqueId"
	value     func(*T) string
	normalize func(string) string
	// required rejects records whose normalized value is empty; otherwise
	// empty values are allowed and not indexed.
	required bool
}

func (ix *uniqueIndex[T]) key(v *T, what string) (string, error) {
	k := ix.normalize(ix.value(v))
	if k == "" && ix.required {
		return "", model.Invalid("%s %s is required", what, ix.field)
	}
	return k, nil
}

// groupIndex files records by group (an owner, a ticket): key
// "<group>/<id>", both as 16 hex digits, -> id, so a group's records are
// one prefix scan in id order. Groups are not unique.
type groupIndex[T any] struct {
	bucket []byte
	group  func(*T) int64
}

func groupPrefix(group int64) string { return fmt.Sprintf("%016x/", group) }

func (gx *groupIndex[T]) key(v *T, id int64) []byte {
	return []byte(groupPrefix(gx.group(v)) + fmt.Sprintf("%016x", id))
}

// table is tableSpec bound to a transaction; it implements model.Table[T].
type table[T any, P entity[T]] struct {
	spec *tableSpec[T]
	tx   *bolt.Tx
}

func (t table[T, P]) bucket() *bolt.Bucket { return bucketAt(t.tx, t.spec.bucket) }

func (t table[T, P]) notFound() error { return model.NotFound(t.spec.what) }

func (t table[T, P]) decode(id int64, data []byte) (*T, error) {
	v := new(T)
	var err error
	if t.spec.decode != nil {
		err = t.spec.decode(data, v)
	} else {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return nil, fmt.Errorf("decode %s %d: %w", t.spec.what, id, err)
	}
	P(v).SetID(id) // the key is authoritative
	return v, nil
}

func (t table[T, P]) put(v *T) error {
	var data []byte
	var err error
	if t.spec.encode != nil {
		data, err = t.spec.encode(v)
	} else {
		data, err = json.Marshal(v)
	}
	if err != nil {
		return fmt.Errorf("encode %s: %w", t.spec.what, err)
	}
	return t.bucket().Put(idKey(P(v).GetID()), data)
}

func (t table[T, P]) Get(id int64) (*T, error) {
	if id <= 0 {
		return nil, t.notFound()
	}
	data := t.bucket().Get(idKey(id))
	if data == nil {
		return nil, t.notFound()
	}
	return t.decode(id, data)
}

func (t table[T, P]) List(fn func(*T) bool) error {
	c := t.bucket().Cursor()
	for k, data := c.First(); k != nil; k, data = c.Next() {
		v, err := t.decode(keyID(k), data)
		if err != nil {
			return err
		}
		if !fn(v) {
			return nil
		}
	}
	return nil
}

// Create assigns the next id, overwriting any id v carries.
func (t table[T, P]) Create(v *T) error {
	newKey, err := t.indexKey(v)
	if err != nil {
		return err
	}
	if err := t.claim(newKey, 0); err != nil {
		return err
	}
	seq, err := t.bucket().NextSequence()
	if err != nil {
		return err
	}
	P(v).SetID(int64(seq))
	if err := t.put(v); err != nil {
		return err
	}
	if err := t.moveGroup(nil, v, P(v).GetID()); err != nil {
		return err
	}
	return t.setIndex(newKey, P(v).GetID())
}

func (t table[T, P]) Put(v *T) error {
	id := P(v).GetID()
	old, err := t.Get(id)
	if err != nil {
		return err
	}
	if err := t.moveIndex(old, v, id); err != nil {
		return err
	}
	if err := t.moveGroup(old, v, id); err != nil {
		return err
	}
	return t.put(v)
}

func (t table[T, P]) Delete(id int64) error {
	old, err := t.Get(id)
	if err != nil {
		return err
	}
	if err := t.moveIndex(old, nil, id); err != nil {
		return err
	}
	if err := t.moveGroup(old, nil, id); err != nil {
		return err
	}
	return t.bucket().Delete(idKey(id))
}

func (t table[T, P]) Count() (int, error) {
	return t.bucket().Stats().KeyN, nil
}

// byIndex finds the record whose indexed field normalizes like value.
func (t table[T, P]) byIndex(value string) (*T, error) {
	ix := t.spec.index
	k := ix.normalize(value)
	if k == "" {
		return nil, t.notFound()
	}
	id := bucketAt(t.tx, ix.bucket).Get([]byte(k))
	if len(id) != 8 {
		return nil, t.notFound()
	}
	return t.Get(keyID(id))
}

// indexKey is v's index key, "" when the table has no index or v's value
// is empty.
func (t table[T, P]) indexKey(v *T) (string, error) {
	if t.spec.index == nil || v == nil {
		return "", nil
	}
	return t.spec.index.key(v, t.spec.what)
}

// claim fails with a conflict if key is indexed to a record other than id.
func (t table[T, P]) claim(key string, id int64) error {
	if key == "" {
		return nil
	}
	held := bucketAt(t.tx, t.spec.index.bucket).Get([]byte(key))
	if held != nil && keyID(held) != id {
		return model.Conflict("%s with %s %q already exists", t.spec.what, t.spec.index.field, key)
	}
	return nil
}

func (t table[T, P]) setIndex(key string, id int64) error {
	if key == "" {
		return nil
	}
	return bucketAt(t.tx, t.spec.index.bucket).Put([]byte(key), idKey(id))
}

// moveIndex updates the index when record id changes from old to cur
// (cur is nil on delete).
func (t table[T, P]) moveIndex(old, cur *T, id int64) error {
	if t.spec.index == nil {
		return nil
	}
	newKey, err := t.indexKey(cur)
	if err != nil {
		return err
	}
	// An old record stored before a value became required has no key.
	oldKey, _ := t.indexKey(old)
	if newKey == oldKey {
		return nil
	}
	if err := t.claim(newKey, id); err != nil {
		return err
	}
	if oldKey != "" {
		ix := bucketAt(t.tx, t.spec.index.bucket)
		if held := ix.Get([]byte(oldKey)); held != nil && keyID(held) == id {
			if err := ix.Delete([]byte(oldKey)); err != nil {
				return err
			}
		}
	}
	return t.setIndex(newKey, id)
}

// moveGroup files record id under cur's group instead of old's (old is
// nil on create, cur on delete).
func (t table[T, P]) moveGroup(old, cur *T, id int64) error {
	gx := t.spec.group
	if gx == nil {
		return nil
	}
	var oldKey, newKey []byte
	if old != nil {
		oldKey = gx.key(old, id)
	}
	if cur != nil {
		newKey = gx.key(cur, id)
	}
	if bytes.Equal(oldKey, newKey) {
		return nil
	}
	b := bucketAt(t.tx, gx.bucket)
	if oldKey != nil {
		if err := b.Delete(oldKey); err != nil {
			return err
		}
	}
	if newKey == nil {
		return nil
	}
	return b.Put(newKey, idKey(id))
}

// Group is q's window of group's records in id order (newest first when
// newestFirst) and how many the group has: the ids come from the group
// index, and only the window's records are read.
func (t table[T, P]) Group(group int64, q model.Query, newestFirst bool) ([]*T, int, error) {
	if err := q.Check(); err != nil {
		return nil, 0, err
	}
	var ids []int64
	c := bucketAt(t.tx, t.spec.group.bucket).Cursor()
	p := []byte(groupPrefix(group))
	for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
		ids = append(ids, keyID(v))
	}
	if newestFirst {
		slices.Reverse(ids)
	}
	window := model.Window(ids, q)
	out := make([]*T, 0, len(window))
	for _, id := range window {
		v, err := t.Get(id)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, len(ids), nil
}
