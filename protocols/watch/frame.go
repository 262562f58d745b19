package watch

import "bytes"

// header is the part of a frame before its content:
// "[" maker "*" id "*" [index "*"] length "*".
type header struct {
	maker, id, index string
	length           int // declared content length, unescaped bytes
	size             int // bytes up to and including the '*' before the content
}

type parseState int

const (
	headerOK parseState = iota
	headerMore
	headerBad
)

// Field limits: makers are two letters in practice ("3G", "SG", "ZJ", "CS"),
// ids are IMEIs or ten-digit serials.
const (
	maxMaker  = 8
	maxID     = 32
	lenDigits = 4
	// maxHeader bounds the header: bracket, maker, id, index and length, each
	// with its '*'.
	maxHeader = 1 + maxMaker + 1 + maxID + 1 + 2*(lenDigits+1)
)

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' || 'a' <= c && c <= 'f'
}

// field reads min..max bytes accepted by ok from b[pos:] up to a '*' and
// returns the position after the '*'.
func field(b []byte, pos, min, max int, ok func(byte) bool) (int, parseState) {
	for i := pos; i < len(b); i++ {
		if b[i] == '*' {
			if i-pos < min {
				return 0, headerBad
			}
			return i + 1, headerOK
		}
		if !ok(b[i]) || i-pos >= max {
			return 0, headerBad
		}
	}
	return 0, headerMore
}

// hexField reports whether b[pos:] starts with four hex digits and a '*';
// headerMore when b ends before that is known.
func hexField(b []byte, pos int) parseState {
	for i := pos; i < pos+lenDigits+1; i++ {
		switch {
		case i >= len(b):
			return headerMore
		case i == pos+lenDigits && b[i] != '*', i < pos+lenDigits && !isHexDigit(b[i]):
			return headerBad
		}
	}
	return headerOK
}

func hexValue(b []byte) int {
	v := 0
	for _, c := range b {
		switch {
		case c <= '9':
			v = v*16 + int(c-'0')
		case c <= 'F':
			v = v*16 + int(c-'A'+10)
		default:
			v = v*16 + int(c-'a'+10)
		}
	}
	return v
}

// parseHeader reads the header at the start of b, which begins with '['.
// An index field is present when the four hex digits after the id are
// followed by another four hex digits and a '*' (the ZJ variant).
func parseHeader(b []byte) (header, parseState) {
	idAt, st := field(b, 1, 2, maxMaker, isAlnum)
	if st != headerOK {
		return header{}, st
	}
	lenAt, st := field(b, idAt, 1, maxID, isAlnum)
	if st != headerOK {
		return header{}, st
	}
	if st := hexField(b, lenAt); st != headerOK {
		return header{}, st
	}
	h := header{maker: string(b[1 : idAt-1]), id: string(b[idAt : lenAt-1])}
	switch hexField(b, lenAt+lenDigits+1) {
	case headerMore:
		return header{}, headerMore
	case headerOK:
		h.index = string(b[lenAt : lenAt+lenDigits])
		lenAt += lenDigits + 1
	}
	h.length = hexValue(b[lenAt : lenAt+lenDigits])
	h.size = lenAt + lenDigits + 1
	return h, headerOK
}

// Escapes in binary content: '}' followed by 1..5 stands for } [ ] , *.
const escape = '}'

var unescaped = [...]byte{1: '}', 2: '[', 3: ']', 4: ',', 5: '*'}

// wireLength is how many bytes of b hold n content bytes (an escape pair
// is one), or -1 if b ends first.
func wireLength(b []byte, n int) int {
	i := 0
	for ; n > 0; n-- {
		if i >= len(b) {
			return -1
		}
		if b[i] == escape {
			i++
		}
		i++
	}
	if i > len(b) {
		return -1
	}
	return i
}

// unescape returns content with escape pairs replaced; an unknown pair is
// kept as is.
func unescape(content []byte) []byte {
	if bytes.IndexByte(content, escape) < 0 {
		return content
	}
	out := make([]byte, 0, len(content))
	for i := 0; i < len(content); i++ {
		c := content[i]
		if c == escape && i+1 < len(content) && content[i+1] >= 1 && content[i+1] <= 5 {
			i++
			c = unescaped[content[i]]
		}
		out = append(out, c)
	}
	return out
}
