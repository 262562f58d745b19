package storage

import (
	"bytes"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// Permission keys are objKey(a) objKey(b) with objKey = kind 0x00 id(8);
// the forward bucket has a = owner, the reverse bucket a = property. With
// the kind and id first, "everything linked to X" and "every Y linked to
// X" are prefix scans.

func objKey(b []byte, kind string, id int64) []byte {
	b = append(b, kind...)
	b = append(b, 0)
	return append(b, idKey(id)...)
}

func checkKind(kind string) error {
	if kind == "" || strings.IndexByte(kind, 0) >= 0 {
		return model.Invalid("invalid permission kind %q", kind)
	}
	return nil
}

func checkPermission(p model.Permission) error {
	if err := checkKind(p.OwnerKind); err != nil {
		return err
	}
	return checkKind(p.PropKind)
}

// splitObjKey splits one objKey off the front of k.
func splitObjKey(k []byte) (kind string, id int64, rest []byte, ok bool) {
	i := bytes.IndexByte(k, 0)
	if i <= 0 || len(k) < i+9 {
		return "", 0, nil, false
	}
	return string(k[:i]), keyID(k[i+1 : i+9]), k[i+9:], true
}

func (t *tx) permBuckets() (fwd, rev *bolt.Bucket) {
	return t.btx.Bucket(bucketPermissions), t.btx.Bucket(bucketPermsReverse)
}

func (t *tx) Link(p model.Permission) error {
	if err := checkPermission(p); err != nil {
		return err
	}
	owner, prop := objKey(nil, p.OwnerKind, p.OwnerID), objKey(nil, p.PropKind, p.PropID)
	fwd, rev := t.permBuckets()
	if err := fwd.Put(concat(owner, prop), nil); err != nil {
		return err
	}
	return rev.Put(concat(prop, owner), nil)
}

func (t *tx) Unlink(p model.Permission) error {
	if err := checkPermission(p); err != nil {
		return err
	}
	owner, prop := objKey(nil, p.OwnerKind, p.OwnerID), objKey(nil, p.PropKind, p.PropID)
	fwd, rev := t.permBuckets()
	if err := fwd.Delete(concat(owner, prop)); err != nil {
		return err
	}
	return rev.Delete(concat(prop, owner))
}

func (t *tx) Linked(ownerKind string, ownerID int64, propKind string) ([]int64, error) {
	return t.linkedIDs(bucketPermissions, ownerKind, ownerID, propKind)
}

func (t *tx) Owners(propKind string, propID int64, ownerKind string) ([]int64, error) {
	return t.linkedIDs(bucketPermsReverse, propKind, propID, ownerKind)
}

// linkedIDs lists, in id order, the ids of kind objects linked to (aKind, aID)
// in bucket.
func (t *tx) linkedIDs(bucket []byte, aKind string, aID int64, kind string) ([]int64, error) {
	if err := checkKind(aKind); err != nil {
		return nil, err
	}
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	prefix := append(objKey(nil, aKind, aID), kind...)
	prefix = append(prefix, 0)
	var ids []int64
	c := t.btx.Bucket(bucket).Cursor()
	for k, _ := c.Seek(prefix); bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		if len(k) == len(prefix)+8 {
			ids = append(ids, keyID(k[len(prefix):]))
		}
	}
	return ids, nil
}

func (t *tx) UnlinkAll(kind string, id int64) error {
	if err := checkKind(kind); err != nil {
		return err
	}
	fwd, rev := t.permBuckets()
	if err := unlinkFrom(fwd, rev, kind, id); err != nil {
		return err
	}
	return unlinkFrom(rev, fwd, kind, id)
}

// unlinkFrom removes every key of bucket that starts with (kind, id) and
// the mirrored key in other.
func unlinkFrom(bucket, other *bolt.Bucket, kind string, id int64) error {
	prefix := objKey(nil, kind, id)
	var keys [][]byte
	c := bucket.Cursor()
	for k, _ := c.Seek(prefix); bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, bytes.Clone(k))
	}
	for _, k := range keys {
		if err := bucket.Delete(k); err != nil {
			return err
		}
		if _, _, rest, ok := splitObjKey(k); ok {
			if err := other.Delete(concat(rest, k[:len(k)-len(rest)])); err != nil {
				return err
			}
		}
	}
	return nil
}

func concat(a, b []byte) []byte {
	return append(append(make([]byte, 0, len(a)+len(b)), a...), b...)
}
