package jt808

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
)

const (
	delim  = 0x7E
	escape = 0x7D
	// MaxFrame bounds a frame on the wire: a body's length field has 10
	// bits, so even a 1,023-byte body with every byte escaped fits.
	MaxFrame = 4096
	// maxText bounds a "(...)" text line.
	maxText = 512
	// minFrame is the smallest unescaped frame: two delimiters, a 2011
	// header (id, attributes, 6-byte terminal, serial) and the check.
	minFrame = 15
)

var (
	errShort  = errors.New("jt808: frame too short")
	errEscape = errors.New("jt808: bad escape")
)

// Split is a bufio.SplitFunc returning one wire frame at a time, still
// escaped, from 7E to 7E, or one "(...)" text line. Bytes before a 7E or
// "(" are skipped. Two 7E in a row are the end of a frame lost in part
// and the start of the next: the first is dropped. A 7E..7E span too
// short to be a frame is dropped up to its second 7E, which may open the
// next frame; one without its end within MaxFrame bytes loses its 7E.
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	start := bytes.IndexAny(data, "~(") // 0x7E is '~'
	if start < 0 {
		return len(data), nil, nil
	}
	if start > 0 {
		return start, nil, nil
	}
	if data[0] == '(' {
		end := bytes.IndexByte(data[:min(len(data), maxText)], ')')
		switch {
		case end >= 0:
			return end + 1, data[:end+1], nil
		case len(data) >= maxText:
			return 1, nil, nil
		}
		return needMore(data, atEOF)
	}
	end := bytes.IndexByte(data[1:min(len(data), MaxFrame)], delim)
	switch {
	case end == 0:
		return 1, nil, nil
	case end > 0 && end+2 < minFrame:
		return end + 1, nil, nil
	case end > 0:
		return end + 2, data[:end+2], nil
	case len(data) >= MaxFrame:
		return 1, nil, nil
	}
	return needMore(data, atEOF)
}

// needMore asks for more input, or drops the unfinished tail at EOF.
func needMore(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF {
		return len(data), nil, nil
	}
	return 0, nil, nil
}

// unescape undoes the 7D escapes of a wire frame, delimiters included.
func unescape(wire []byte) ([]byte, error) {
	if bytes.IndexByte(wire, escape) < 0 {
		return wire, nil
	}
	out := make([]byte, 0, len(wire))
	for i := 0; i < len(wire); i++ {
		c := wire[i]
		if c == escape {
			if i+1 >= len(wire) || (wire[i+1] != 1 && wire[i+1] != 2) {
				return nil, errEscape
			}
			i++
			c = escape + wire[i] - 1
		}
		out = append(out, c)
	}
	return out, nil
}

// header is a parsed frame: the fields the replies echo and the body.
type header struct {
	typ      int
	attr     int
	version  int // -1 for a 2011/2013 frame (no version byte)
	terminal []byte
	serial   int
	body     []byte
	checksum bool // the check byte matched
}

// Attribute bits of the header.
const (
	attrVersioned = 1 << 14 // JT/T 808-2019: a version byte and a 10-byte terminal id
	attrSplit     = 1 << 13 // a packet of a multi-packet message: 4 more header bytes
	attrAnswer    = 1 << 15 // 0x5501/0x5502: the terminal asks for 0x4401
)

// parse reads an unescaped frame, delimiters included.
func parse(u []byte) (*header, error) {
	if len(u) < minFrame || u[0] != delim || u[len(u)-1] != delim {
		return nil, errShort
	}
	h := &header{typ: int(u[1])<<8 | int(u[2]), attr: int(u[3])<<8 | int(u[4]), version: -1}
	at, idLen := 5, 6
	if h.attr&attrVersioned != 0 {
		h.version, at, idLen = int(u[5]), 6, 10
	}
	serialLen := 2
	if h.typ == msgLocation2 || h.typ == msgLocationBlind {
		serialLen = 1
	}
	end := len(u) - 2
	if at+idLen+serialLen > end {
		return nil, errShort
	}
	h.terminal = u[at : at+idLen]
	at += idLen
	for _, c := range u[at : at+serialLen] {
		h.serial = h.serial<<8 | int(c)
	}
	at += serialLen
	if h.attr&attrSplit != 0 && serialLen == 2 {
		at += 4
		if at > end {
			return nil, errShort
		}
	}
	// The body runs to the check byte: a few devices send a length field
	// that does not match, and Traccar reads them by the delimiters too.
	h.body = u[at:end]
	var x byte
	for _, c := range u[1:end] {
		x ^= c
	}
	h.checksum = x == u[end]
	return h, nil
}

// terminalID is the terminal id as text: the BCD digits, or, when the six
// bytes are not BCD, an IMEI sent as a 48-bit number, completed with its
// Luhn digit (Traccar reads such ids the same way).
func terminalID(id []byte) string {
	digits := hex.EncodeToString(id)
	if strings.Trim(digits, "0123456789") == "" {
		return digits
	}
	var n uint64
	for _, c := range id[:6] {
		n = n<<8 | uint64(c)
	}
	s := strconv.FormatUint(n, 10)
	return s + strconv.Itoa(luhn(s))
}

// uniqueID is the device's uniqueId: the terminal id without its leading
// zeros (a 2019 id pads a 15-digit IMEI to 20 digits, a 2011 phone number
// to 12), the form Traccar looks up first.
func uniqueID(id string) string {
	if s := strings.TrimLeft(id, "0"); s != "" {
		return s
	}
	return id
}

// luhn is the check digit the Luhn algorithm appends to digits.
func luhn(digits string) int {
	sum := 0
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if (len(digits)-1-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return (10 - sum%10) % 10
}

// message builds a wire frame from the server: the answer echoes the
// request's version and terminal id; serial is the frame's own (0, as
// Traccar sends), one byte long for the 0x4401 answer.
func message(typ, version int, terminal []byte, short bool, body []byte) []byte {
	attr := len(body)
	if version >= 0 {
		attr |= attrVersioned
	}
	u := make([]byte, 0, 16+len(terminal)+len(body))
	u = append(u, byte(typ>>8), byte(typ), byte(attr>>8), byte(attr))
	if version >= 0 {
		u = append(u, byte(version))
	}
	u = append(u, terminal...)
	if short {
		u = append(u, 1)
	} else {
		u = append(u, 0, 0)
	}
	u = append(u, body...)
	var x byte
	for _, c := range u {
		x ^= c
	}
	u = append(u, x)
	wire := make([]byte, 0, len(u)+8)
	wire = append(wire, delim)
	for _, c := range u {
		if c == delim || c == escape {
			wire = append(wire, escape, c-escape+1)
			continue
		}
		wire = append(wire, c)
	}
	return append(wire, delim)
}
