package storage

import (
	"bytes"
	"encoding/binary"

	"github.com/fleetd/fleetd/storage/chunk"
)

// The id index of the position log and chunks (position_blocks) finds a
// position by id: the device and fix time it is ordered by, from which one
// seek finds its chunk. Ids are given in sequence, so the index is written
// in blocks of idBlock consecutive ids, each block one value that a commit
// extends at its end: about five bytes a position, where a key per
// position took 48.
//
// A block's value: uvarint first id's offset in the block, varint base
// fix second, then per position: uvarint ids skipped since the previous
// entry, uvarint device, varint fix second - base, uvarint fix nanosecond.
// Entries are never removed: a deleted position's entry leads to a chunk
// that no longer has it.
const idBlockBits = 8

func blockKey(id int64) []byte { return idKey(id >> idBlockBits) }

func (t *tx) indexID(device int64, key posKey) error {
	b := t.btx.Bucket(bucketPositionBlocks)
	b.FillPercent = appendFill
	bk := blockKey(key.id)
	off := key.id & (1<<idBlockBits - 1)
	sec, ns := floorDiv(key.fix, 1e9)
	c := &t.db.blockTail
	gap, base := int64(0), sec
	if old := b.Get(bk); old == nil {
		c.start(bk)
		c.value = binary.AppendUvarint(c.value, uint64(off))
		c.value = binary.AppendVarint(c.value, base)
	} else {
		if !c.holds(bk, old) {
			last, oldBase, ok := walkBlock(old, nil)
			if !ok {
				return corruptLog(bk)
			}
			c.start(bk)
			c.value, c.last, c.base = append(c.value, old...), last, oldBase
		}
		if off <= c.last {
			return corruptLog(bk)
		}
		gap, base = off-c.last-1, c.base
	}
	c.value = binary.AppendUvarint(c.value, uint64(gap))
	c.value = binary.AppendUvarint(c.value, uint64(device))
	c.value = binary.AppendVarint(c.value, sec-base)
	c.value = binary.AppendUvarint(c.value, uint64(ns))
	c.last, c.base = off, base
	return b.Put(bk, c.value)
}

// blockTail is the last block written, kept so an append neither walks
// the block for its last entry (a twentieth of the ingest's CPU) nor
// copies it. Only writers use it, one at a time. It is trusted only for a
// stored value of its length: blocks only grow, so a rolled-back append
// shows as a shorter value. Appending never changes the bytes a value put
// earlier in the transaction refers to.
type blockTail struct {
	key        []byte
	value      []byte
	last, base int64
}

func (c *blockTail) holds(key, stored []byte) bool {
	return bytes.Equal(key, c.key) && len(stored) == len(c.value)
}

// start begins a block: a new buffer, since the last one may still be
// referred to by an uncommitted put.
func (c *blockTail) start(key []byte) {
	c.key, c.value = key, make([]byte, 0, 2048)
}

// walkBlock calls fn (if set) with each entry of a block and returns the
// last entry's offset and the block's base second; ok is false for a
// damaged block.
func walkBlock(v []byte, fn func(off, device, fix int64) bool) (last, base int64, ok bool) {
	r := chunk.NewVarints(v)
	first := r.Uvarint()
	base = r.Varint()
	off := int64(first) - 1
	for i := 0; r.More(); i++ {
		gap := r.Uvarint()
		if i == 0 && gap != 0 {
			return 0, 0, false
		}
		off += int64(gap) + 1
		device := int64(r.Uvarint())
		sec := r.Varint() + base
		ns := int64(r.Uvarint())
		if !r.OK() || ns >= 1e9 || off >= 1<<idBlockBits {
			return 0, 0, false
		}
		if fn != nil && !fn(off, device, sec*1e9+ns) {
			return off, base, true
		}
	}
	return off, base, r.OK() && off >= int64(first)
}

// lookupID finds id's device and key in the block index.
func (t *tx) lookupID(id int64) (device int64, key posKey, found bool) {
	v := t.btx.Bucket(bucketPositionBlocks).Get(blockKey(id))
	if v == nil {
		return 0, posKey{}, false
	}
	want := id & (1<<idBlockBits - 1)
	walkBlock(v, func(off, d, fix int64) bool {
		if off == want {
			device, key, found = d, posKey{fix, id}, true
		}
		return off < want
	})
	return device, key, found
}

func floorDiv(a, b int64) (q, r int64) {
	q, r = a/b, a%b
	if r < 0 {
		q, r = q-1, r+b
	}
	return q, r
}
