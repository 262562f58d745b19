package teltonika

import (
	"encoding/binary"
	"errors"
)

var errTruncated = errors.New("teltonika: truncated data")

// cursor walks a big-endian buffer. Once a read runs past the end, failed is
// set and every later read returns zero, so callers check it once.
type cursor struct {
	buf    []byte
	failed bool
}

func (c *cursor) take(n int) []byte {
	if c.failed || n < 0 || n > len(c.buf) {
		c.failed = true
		return nil
	}
	out := c.buf[:n:n]
	c.buf = c.buf[n:]
	return out
}

// value reads an unsigned integer of 1, 2, 4 or 8 bytes.
func (c *cursor) value(width int) uint64 {
	b := c.take(width)
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.BigEndian.Uint16(b))
	case 4:
		return uint64(binary.BigEndian.Uint32(b))
	case 8:
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

func (c *cursor) byte() int { return int(c.value(1)) }

func (c *cursor) short() int { return int(c.value(2)) }

func (c *cursor) err() error {
	if c.failed {
		return errTruncated
	}
	return nil
}
