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

// binaryLength is the length of the '$' frame at the start of data, or false
// when more bytes are needed to tell. Without a configured length it takes
// 45 when byte 32 does not start a frame and byte 45 does (or the buffer
// ends there), else 32. Exactly 32 buffered bytes are taken as a short frame
// at once rather than waiting for a next frame that may be minutes away; a
// long frame cut at that point still decodes, since every decoded field is
// in its first 29 bytes.
func (p *Protocol) binaryLength(data []byte, atEOF bool) (int, bool) {
	switch {
	case p.MessageLength > 0:
		return p.MessageLength, true
	case len(data) <= shortBinary:
		return shortBinary, true
	case isMarker(data[shortBinary]):
		return shortBinary, true
	case len(data) < longBinary:
		return shortBinary, atEOF
	case len(data) == longBinary || isMarker(data[longBinary]):
		return longBinary, true
	default:
		return shortBinary, true
	}
}
