package storage

import (
	"bytes"
	"encoding/binary"
	"slices"
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
	var v []byte
	gap, base := int64(0), sec
	if old := b.Get(bk); old == nil {
		v = binary.AppendUvarint(nil, uint64(off))
		v = binary.AppendVarint(v, base)
	} else {
		last, oldBase, ok := t.db.blockTail.read(bk, old)
		if !ok || off <= last {
			return corruptLog(bk)
		}
		gap, base = off-last-1, oldBase
		v = slices.Grow(slices.Clone(old), 16)
	}
	v = binary.AppendUvarint(v, uint64(gap))
	v = binary.AppendUvarint(v, uint64(device))
	v = binary.AppendVarint(v, sec-base)
	v = binary.AppendUvarint(v, uint64(ns))
	t.db.blockTail.wrote(bk, v, off, base)
	return b.Put(bk, v)
}

// blockTail remembers the last block written, so an append does not walk
// the block to find its last entry (that walk was a twentieth of the
// ingest's CPU). Only writers use it, one at a time. The cached entry is
// trusted only for a value of the length it was made for: blocks only
// grow, so a rolled-back append shows as a different length.
type blockTail struct {
	key        []byte
	length     int
	last, base int64
}

func (c *blockTail) read(key, value []byte) (last, base int64, ok bool) {
	if bytes.Equal(key, c.key) && len(value) == c.length {
		return c.last, c.base, true
	}
	return walkBlock(value, nil)
}

func (c *blockTail) wrote(key, value []byte, last, base int64) {
	c.key, c.length, c.last, c.base = key, len(value), last, base
}

// walkBlock calls fn (if set) with each entry of a block and returns the
// last entry's offset and the block's base second; ok is false for a
// damaged block.
func walkBlock(v []byte, fn func(off, device, fix int64) bool) (last, base int64, ok bool) {
	r := reader(v)
	first := r.uvarint()
	base = r.varint()
	off := int64(first) - 1
	for i := 0; len(r.b) > 0 && r.ok; i++ {
		gap := r.uvarint()
		if i == 0 && gap != 0 {
			return 0, 0, false
		}
		off += int64(gap) + 1
		device := int64(r.uvarint())
		sec := r.varint() + base
		ns := int64(r.uvarint())
		if !r.ok || ns >= 1e9 || off >= 1<<idBlockBits {
			return 0, 0, false
		}
		if fn != nil && !fn(off, device, sec*1e9+ns) {
			return off, base, true
		}
	}
	return off, base, r.ok && off >= int64(first)
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

// reader reads varints, remembering the first failure.
type varReader struct {
	b  []byte
	ok bool
}

func reader(b []byte) *varReader { return &varReader{b, true} }

func (r *varReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.ok, r.b = false, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *varReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.ok, r.b = false, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}
