package tk103

// cursor reads a frame body left to right.
type cursor struct {
	s string
	i int
}

func (c *cursor) rest() string { return c.s[c.i:] }

// skip consumes b if it is next.
func (c *cursor) skip(b byte) bool {
	if c.i < len(c.s) && c.s[c.i] == b {
		c.i++
		return true
	}
	return false
}

// run consumes the longest prefix (at most max bytes) whose bytes satisfy ok.
func (c *cursor) run(max int, ok func(byte) bool) string {
	j := c.i
	for j < len(c.s) && j-c.i < max && ok(c.s[j]) {
		j++
	}
	v := c.s[c.i:j]
	c.i = j
	return v
}

// oneOf consumes the next byte if it is in set and returns it, else 0.
func (c *cursor) oneOf(set string) byte {
	if c.i < len(c.s) {
		for k := 0; k < len(set); k++ {
			if c.s[c.i] == set[k] {
				c.i++
				return set[k]
			}
		}
	}
	return 0
}

const unlimited = 1 << 30

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isHex(b byte) bool { return isDigit(b) || b >= 'A' && b <= 'F' || b >= 'a' && b <= 'f' }

// isDecimal accepts the bytes of a device decimal; TK103 pads fixed-width
// numbers with spaces.
func isDecimal(b byte) bool { return isDigit(b) || b == '.' || b == ' ' }
