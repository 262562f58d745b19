package storage

import (
	"slices"
)

// logChanges are a writing transaction's changes to the position log, for
// its own reads and, once it commits, for the tail.
type logChanges struct {
	added, removed map[int64][]posKey
}

func (c *logChanges) add(device int64, k posKey) {
	c.added[device] = append(c.added[device], k)
}

func (c *logChanges) remove(device int64, k posKey) {
	c.removed[device] = append(c.removed[device], k)
}

// merge adds the transaction's own additions of device in [from, to] to
// keys (the tail's), in order.
func (c *logChanges) merge(device int64, keys []posKey, from, to posKey) []posKey {
	n := len(keys)
	for _, k := range c.added[device] {
		if k.cmp(from) >= 0 && k.cmp(to) <= 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) > n {
		slices.SortFunc(keys, posKey.cmp)
	}
	return keys
}

// logChanges returns the transaction's log changes, registering them with
// the tail on commit the first time.
func (t *tx) logChanges() *logChanges {
	if t.changes == nil {
		t.changes = &logChanges{added: map[int64][]posKey{}, removed: map[int64][]posKey{}}
		c, tl, txid := t.changes, t.db.tail, t.btx.ID()
		t.btx.OnCommit(func() {
			for device, keys := range c.added {
				slices.SortFunc(keys, posKey.cmp)
				c.added[device] = keys
			}
			tl.commit(txid, c.added, c.removed)
		})
	}
	return t.changes
}
