package storage

import (
	"github.com/fleetd/fleetd/storage/chunk"
)

// deletePositions removes at most limit of device's positions in [from,
// to], oldest first, but never the one at keep (if set).
//
// Chunks wholly in the range that come before anything else in it go
// whole, without decoding: that is how retention deletes a year of a
// tracker in a few writes. The rest is merged over the three places and
// deleted one by one, rewriting the chunks it takes from.
func (t *tx) deletePositions(device int64, from posKey, to int64, limit int, keep *posKey) (int, error) {
	n, err := t.deleteWholeChunks(device, from, to, limit, keep)
	if err != nil || n == limit {
		return n, err
	}
	var (
		logged []posKey
		old    [][]byte
		edits  = map[string]map[int64]bool{} // chunk key -> ids to drop
		order  []string
	)
	m := t.merged(device, from, to)
	for n < limit {
		p, src, err := m.next()
		if err != nil {
			return 0, err
		}
		if p == nil {
			break
		}
		k := posKey{p.FixTime.UnixNano(), p.ID}
		if keep != nil && k == *keep {
			continue
		}
		switch src {
		case fromLog:
			logged = append(logged, k)
		case fromOld:
			old = append(old, k.seriesKey(device))
		case fromChunks:
			ck := string(m.popped)
			if edits[ck] == nil {
				edits[ck] = map[int64]bool{}
				order = append(order, ck)
			}
			edits[ck][p.ID] = true
		}
		n++
	}
	log := t.btx.Bucket(bucketPositionLog)
	for _, k := range logged {
		if err := log.Delete(idKey(k.id)); err != nil {
			return 0, err
		}
		t.logChanges().remove(device, k)
	}
	if _, err := oldPositions.deleteKeys(t.btx, old); err != nil {
		return 0, err
	}
	for _, ck := range order {
		if err := t.dropFromChunk([]byte(ck), edits[ck]); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// deleteWholeChunks deletes device's chunks from the start of the range
// while each lies wholly in it, fits in limit, does not hold keep, and
// comes before every logged or old position of the range.
func (t *tx) deleteWholeChunks(device int64, from posKey, to int64, limit int, keep *posKey) (int, error) {
	bound := posKey{to, 1<<63 - 1}
	if keys := t.loggedKeys(device, from, bound); len(keys) > 0 {
		bound = keys[0] // maybe not in this snapshot's log: then merely cautious
	}
	if k, _ := t.btx.Bucket(bucketPositions).Cursor().Seek(from.seriesKey(device)); len(k) == seriesKeyLen && keyID(k[:8]) == device {
		if _, pk := keyOfSeries(k); pk.cmp(bound) < 0 {
			bound = pk
		}
	}
	b := t.btx.Bucket(bucketPositionChunks)
	var whole [][]byte
	n := 0
	c := b.Cursor()
	for k, v := c.Seek(from.seriesKey(device)); len(k) == seriesKeyLen && keyID(k[:8]) == device; k, v = c.Next() {
		h, err := chunk.ReadHeader(v)
		if err != nil {
			return 0, err
		}
		first, last := posKey{h.FirstFix.UnixNano(), h.FirstID}, posKey{h.LastFix.UnixNano(), h.LastID}
		if first.cmp(from) < 0 || last.fix > to || last.cmp(bound) >= 0 || n+h.Count > limit ||
			keep != nil && first.cmp(*keep) <= 0 && last.cmp(*keep) >= 0 {
			break
		}
		whole = append(whole, append([]byte(nil), k...))
		n += h.Count
	}
	for _, k := range whole {
		if err := b.Delete(k); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// dropFromChunk rewrites the chunk at key without the positions of ids.
func (t *tx) dropFromChunk(key []byte, ids map[int64]bool) error {
	b := t.btx.Bucket(bucketPositionChunks)
	ps, err := decodeChunk(key, b.Get(key))
	if err != nil {
		return err
	}
	kept := ps[:0]
	for _, p := range ps {
		if !ids[p.ID] {
			kept = append(kept, p)
		}
	}
	if err := b.Delete(key); err != nil {
		return err
	}
	put, err := encodeChunks(kept)
	for _, kv := range put {
		if err == nil {
			err = b.Put(kv[0], kv[1])
		}
	}
	return err
}
