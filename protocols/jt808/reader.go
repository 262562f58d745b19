package jt808

import (
	"encoding/hex"
	"strings"
)

// reader reads big-endian fields from a body. Reading past the end sets a
// sticky failure and yields zeros; decoders check ok (or set values only
// through item, which drops what was not read).
type reader struct {
	b    []byte
	fail bool
}

func (r *reader) next(n int) []byte {
	if r.fail || n < 0 || n > len(r.b) {
		r.fail = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) skip(n int) { r.next(n) }

func (r *reader) u8() int { return int(r.uint(1)) }

func (r *reader) u16() int { return int(r.uint(2)) }

func (r *reader) u24() int { return int(r.uint(3)) }

func (r *reader) u32() int64 { return r.uint(4) }

// i16 reads a two's-complement 16-bit value.
func (r *reader) i16() int { return int(int16(r.uint(2))) }

// i8 reads a two's-complement byte.
func (r *reader) i8() int { return int(int8(r.uint(1))) }

// uint reads an n-byte unsigned big-endian integer (n <= 8).
func (r *reader) uint(n int) int64 {
	var x int64
	for _, c := range r.next(n) {
		x = x<<8 | int64(c)
	}
	return x
}

// text reads n bytes as text; NUL padding is cut, and bytes that are not
// UTF-8 become U+FFFD.
func (r *reader) text(n int) string {
	return strings.ToValidUTF8(strings.TrimRight(string(r.next(n)), "\x00"), "\uFFFD")
}

// cstring reads n bytes of NUL-terminated text.
func (r *reader) cstring(n int) string {
	s, _, _ := strings.Cut(r.text(n), "\x00")
	return s
}

// trim cuts control characters and spaces at both ends, as Java's
// String.trim does: vendors pad text with either.
func trim(s string) string {
	return strings.TrimFunc(s, func(c rune) bool { return c <= ' ' })
}

// hex reads n bytes as lower-case hex.
func (r *reader) hex(n int) string { return hex.EncodeToString(r.next(n)) }

func (r *reader) left() int { return len(r.b) }

// printable reports whether b is all printable ASCII.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7E {
			return false
		}
	}
	return true
}
