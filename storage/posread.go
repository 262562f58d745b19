package storage

import (
	"bytes"
	"fmt"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk"
	bolt "go.etcd.io/bbolt"
)

// decodeChunk decodes the chunk stored at key.
func decodeChunk(key, value []byte) ([]*model.Position, error) {
	ps, err := chunk.Decode(value)
	if err != nil {
		return nil, fmt.Errorf("decode position chunk %x: %w", key, err)
	}
	return ps, nil
}

// chunkPosition finds the position at key in device's chunks; nil if none
// has it. Chunks of a device do not overlap, so the first whose last
// position is at or after key is the only one that can.
func chunkPosition(btx *bolt.Tx, device int64, key posKey) (*model.Position, error) {
	c := btx.Bucket(bucketPositionChunks).Cursor()
	k, v := c.Seek(key.seriesKey(device))
	if len(k) != seriesKeyLen || keyID(k[:8]) != device {
		return nil, nil
	}
	h, err := chunk.ReadHeader(v)
	if err != nil {
		return nil, fmt.Errorf("position chunk %x: %w", k, err)
	}
	if (posKey{h.FirstFix.UnixNano(), h.FirstID}).cmp(key) > 0 {
		return nil, nil
	}
	ps, err := decodeChunk(k, v)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.ID == key.id {
			return p, nil
		}
	}
	return nil, nil
}

// The sources a device's positions are merged from.
const (
	fromLog = iota
	fromChunks
	fromOld
	nSources
)

// merger walks a device's positions in [from, to] (to: fix time, UnixNano)
// in order over the log, the chunks and the old rows.
type merger struct {
	device int64
	from   posKey
	to     int64
	err    error
	heads  [nSources]*model.Position

	logKeys []posKey
	log     *bolt.Bucket

	chunks      *bolt.Cursor
	chunkKey    []byte // the chunk whose positions are in decoded
	chunkVal    []byte // (or, with decoded nil, the next one, not decoded yet)
	chunkHeader chunk.Header
	decoded     []*model.Position
	started     bool // chunks seeked
	// headChunk is the chunk the chunks' head came from, popped the one
	// the position next returned last came from.
	headChunk, popped []byte

	old *bolt.Cursor
	oldEnd,
	oldKey []byte
	oldVal []byte
}

func (t *tx) merged(device int64, from posKey, to int64) *merger {
	m := &merger{device: device, from: from, to: to,
		log:    t.btx.Bucket(bucketPositionLog),
		chunks: t.btx.Bucket(bucketPositionChunks).Cursor(),
		old:    t.btx.Bucket(bucketPositions).Cursor(),
	}
	m.logKeys = t.loggedKeys(device, from, posKey{to, 1<<63 - 1})
	m.oldEnd = posKey{to, 1<<63 - 1}.seriesKey(device)
	m.oldKey, m.oldVal = m.old.Seek(from.seriesKey(device))
	for s := range nSources {
		m.fill(s)
	}
	return m
}

// fill loads source s's next position into heads[s] if it is empty.
func (m *merger) fill(s int) {
	if m.heads[s] != nil || m.err != nil {
		return
	}
	switch s {
	case fromLog:
		for len(m.logKeys) > 0 && m.heads[s] == nil && m.err == nil {
			k := m.logKeys[0]
			m.logKeys = m.logKeys[1:]
			m.heads[s], m.err = logPosition(m.log, m.device, k.id)
		}
	case fromChunks:
		for m.heads[s] == nil && m.err == nil {
			if len(m.decoded) > 0 {
				p := m.decoded[0]
				m.decoded = m.decoded[1:]
				if p.FixTime.UnixNano() > m.to {
					m.decoded, m.chunkVal = nil, nil
					m.chunks = nil // past the range
					return
				}
				if (posKey{p.FixTime.UnixNano(), p.ID}).cmp(m.from) >= 0 {
					m.heads[s], m.headChunk = p, m.chunkKey
				}
				continue
			}
			if !m.nextChunk() {
				return
			}
			m.decoded, m.err = m.decodeRange()
		}
	case fromOld:
		if len(m.oldKey) == seriesKeyLen && bytes.Compare(m.oldKey, m.oldEnd) <= 0 {
			m.heads[s], m.err = oldPositions.decode(m.oldKey, m.oldVal)
			m.oldKey, m.oldVal = m.old.Next()
		}
	}
}

// decodeRange decodes the current chunk's positions up to the end of the
// range: a chunk decodes in order only, but need not be decoded past it
// (the resend check reads one instant).
func (m *merger) decodeRange() ([]*model.Position, error) {
	if m.chunkHeader.LastFix.UnixNano() <= m.to {
		return decodeChunk(m.chunkKey, m.chunkVal)
	}
	var ps []*model.Position
	err := chunk.DecodeEach(m.chunkVal, func(p *model.Position) bool {
		if p.FixTime.UnixNano() > m.to {
			return false
		}
		ps = append(ps, p)
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("decode position chunk %x: %w", m.chunkKey, err)
	}
	return ps, nil
}

// nextChunk moves to the device's next chunk that may hold positions of
// the range, undecoded; false at the end.
func (m *merger) nextChunk() bool {
	if m.chunks == nil {
		return false
	}
	var k, v []byte
	if !m.started {
		k, v = m.chunks.Seek(m.from.seriesKey(m.device))
		m.started = true
	} else {
		k, v = m.chunks.Next()
	}
	if len(k) != seriesKeyLen || keyID(k[:8]) != m.device {
		m.chunks = nil
		return false
	}
	h, err := chunk.ReadHeader(v)
	if err != nil {
		m.err = fmt.Errorf("position chunk %x: %w", k, err)
		return false
	}
	if h.FirstFix.UnixNano() > m.to {
		m.chunks = nil
		return false
	}
	m.chunkKey, m.chunkVal, m.chunkHeader = k, v, h
	return true
}

// next returns the next position and its source; nil at the end.
func (m *merger) next() (*model.Position, int, error) {
	best := -1
	var bk posKey
	for s, p := range m.heads {
		if p == nil {
			continue
		}
		if k := (posKey{p.FixTime.UnixNano(), p.ID}); best < 0 || k.cmp(bk) < 0 {
			best, bk = s, k
		}
	}
	if m.err != nil || best < 0 {
		return nil, 0, m.err
	}
	p := m.heads[best]
	m.heads[best] = nil
	if best == fromChunks {
		m.popped = m.headChunk
	}
	m.fill(best)
	return p, best, nil
}
