package h02

import (
	"errors"
	"strings"

	"github.com/fleetd/fleetd/protocols"
)

const (
	// Binary '$' frames come in a short and a long variant; 'X' frames are
	// always short.
	shortBinary = 32
	longBinary  = 45
	// MaxTextFrame bounds a text frame: the longest real ones (NBR/V3 with
	// several cells) are a few hundred bytes.
	MaxTextFrame = 2048
)

// ErrFrameTooLong is returned by Split when a text frame has no end within
// MaxTextFrame bytes: the stream is not H02 and the connection should close.
var ErrFrameTooLong = errors.New("h02: frame too long")

// markers start a frame: text '*', binary '$' and 'X'.
const markers = "*$X"

func isMarker(b byte) bool { return strings.IndexByte(markers, b) >= 0 }

// Split returns whole frames: text up to '#', binary frames by length.
// Bytes before a frame marker (such as the "\r\n" after text frames) are
// skipped together with the frame that follows them: bufio.Scanner stops at
// EOF on an advance without a token, which would lose the frames after it.
func (p *Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	return protocols.SplitMarked(data, atEOF, markers, p.frameAt)
}

// frameAt cuts the frame at the start of data: (length, frame), or
// (n, nil) to drop n bytes of a broken frame, or (0, nil) for more bytes.
func (p *Protocol) frameAt(data []byte, atEOF bool) (int, []byte, error) {
	if data[0] == '*' {
		return splitText(data, atEOF)
	}
	if !startsFrame(data) {
		return 1, nil, nil // a stray marker byte, not a frame
	}
	n := shortBinary
	if data[0] == '$' {
		var ok bool
		if n, ok = p.binaryLength(data, atEOF); !ok {
			return 0, nil, nil
		}
	}
	if len(data) < n {
		if atEOF {
			return len(data), nil, nil
		}
		return 0, nil, nil
	}
	return n, data[:n:n], nil
}

// splitText cuts data (starting with '*') after the first '#'. A second '*'
// before the '#' means the first frame was truncated: it is dropped.
func splitText(data []byte, atEOF bool) (int, []byte, error) {
	for i := 1; i < len(data); i++ {
		switch {
		case data[i] == '#':
			return i + 1, data[: i+1 : i+1], nil
		case data[i] == '*':
			return i, nil, nil
		case i >= MaxTextFrame:
			return 0, nil, ErrFrameTooLong
		}
	}
	if atEOF {
		return len(data), nil, nil
	}
	return 0, nil, nil
}

// binaryLengths are the lengths of '$' frames with a 5-byte id seen from
// real devices: the short form and the long forms with more values after
// the status word.
var binaryLengths = [...]int{shortBinary, longBinary, 46, 48}

// binaryLength is the length of the '$' frame at the start of data, or false
// when more bytes are needed to tell. Without a configured length, the
// layout tells a frame with an 8-byte id (42 bytes: its time is where a
// 5-byte id frame has id digits) from the others; those end where the next
// frame starts or where the buffer ends, trying 32, 45, 46, then 48 bytes.
// Exactly 32 buffered bytes are taken as a short frame at once rather than
// waiting for a next frame that may be minutes away; a long frame cut at
// that point still decodes, since every decoded field is in its first 29
// bytes.
func (p *Protocol) binaryLength(data []byte, atEOF bool) (int, bool) {
	if p.MessageLength > 0 {
		return p.MessageLength, true
	}
	const layout = 1 + 8 + 6 // what tells the two id lengths apart
	if len(data) < layout {
		return shortBinary, atEOF
	}
	if !bcdDateTime(data[6:12]) && bcdDateTime(data[9:15]) {
		return longIDFrame, true
	}
	for _, n := range binaryLengths {
		switch {
		case len(data) == n:
			return n, true
		case len(data) < n:
			return shortBinary, atEOF
		case startsFrame(data[n:]):
			return n, true
		}
	}
	return shortBinary, true
}

// bcdDateTime reports whether b (6 bytes) holds a BCD time and date.
func bcdDateTime(b []byte) bool {
	t, ok1 := nibbles(b).number(0, 6)
	d, ok2 := nibbles(b).number(6, 6)
	if !ok1 || !ok2 {
		return false
	}
	_, ok := dateTime(d, t)
	return ok
}

// startsFrame reports whether data (non-empty) may start a frame: a marker,
// and for a binary frame BCD id digits, for a text frame a two-letter maker
// code, as far as data goes.
func startsFrame(data []byte) bool {
	switch data[0] {
	case '$':
		for _, b := range data[1:min(len(data), 6)] {
			if b>>4 > 9 || b&0x0f > 9 {
				return false
			}
		}
		return true
	case '*':
		return len(data) < 4 || data[3] == ','
	case 'X':
		return true
	}
	return false
}
