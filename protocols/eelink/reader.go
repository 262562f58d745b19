package eelink

import (
	"encoding/binary"
	"errors"
)

var errShort = errors.New("eelink: packet content too short")

// reader reads big-endian fields; past the end it reads zeros and
// remembers the error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) left() int { return len(r.b) }

func (r *reader) take(n int) []byte {
	if n > len(r.b) {
		r.err, r.b = errShort, nil
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() int  { return int(r.take(1)[0]) }
func (r *reader) u16() int { return int(binary.BigEndian.Uint16(r.take(2))) }
func (r *reader) s16() int { return int(int16(binary.BigEndian.Uint16(r.take(2)))) }
func (r *reader) u24() int64 {
	b := r.take(3)
	return int64(b[0])<<16 | int64(b[1])<<8 | int64(b[2])
}
func (r *reader) u32() int64 { return int64(binary.BigEndian.Uint32(r.take(4))) }
func (r *reader) s32() int64 { return int64(int32(binary.BigEndian.Uint32(r.take(4)))) }
