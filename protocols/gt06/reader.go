package gt06

import "errors"

var errShort = errors.New("gt06: frame body too short")

// reader reads big-endian fields from a frame body. Reading past the end sets
// a sticky error and yields zeros, so decoders check err once at the end.
type reader struct {
	b   []byte
	err error
}

func (r *reader) next(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errShort
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() int {
	if v := r.next(1); v != nil {
		return int(v[0])
	}
	return 0
}

func (r *reader) u16() int {
	if v := r.next(2); v != nil {
		return int(v[0])<<8 | int(v[1])
	}
	return 0
}

// uint reads an n-byte unsigned big-endian integer (n <= 8).
func (r *reader) uint(n int) int64 {
	var x int64
	for _, c := range r.next(n) {
		x = x<<8 | int64(c)
	}
	return x
}

func (r *reader) left() int { return len(r.b) }
