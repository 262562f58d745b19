package watch

import (
	"bytes"
	"errors"

	"github.com/fleetd/fleetd/protocols"
)

// MaxFrameSize bounds a frame: the header plus 0xFFFF content bytes, each
// possibly escaped as two, plus the closing bracket. A listener's scanner
// buffer must hold this much.
const MaxFrameSize = maxHeader + 2*0xFFFF + 1

// ErrFrameTooLong is returned by Split when a frame does not end within
// MaxFrameSize bytes: the connection should be closed.
var ErrFrameTooLong = errors.New("watch: frame too long")

// Split returns whole "[...]" frames. The declared content length finds the
// end, so binary content may hold a raw ']' (or, escaped, none); devices that misstate the
// length (real captures do) are framed by the first ']' instead. Bytes that
// do not start a frame are skipped together with the frame that follows:
// bufio.Scanner stops at EOF on an advance without a token.
func (p *Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	return protocols.SplitMarked(data, atEOF, "[", frameAt)
}

// frameAt cuts the frame at the start of data (which is '['): (length,
// frame), (n, nil) to drop n bytes that are not a frame, or (0, nil) for
// more bytes.
func frameAt(data []byte, atEOF bool) (int, []byte, error) {
	h, st := parseHeader(data)
	switch {
	case st == headerBad:
		return 1, nil, nil
	case st == headerMore && atEOF:
		return len(data), nil, nil
	case st == headerMore:
		return 0, nil, nil
	}
	body := data[h.size:]
	// The declared length counts the content's bytes: unescaped by the
	// makers' documents, as sent (an escape pair as two) by real ZJ
	// watches' voice chunks. Escaped content holds no raw ']', so a ']' at
	// either place ends the frame.
	end := wireLength(body, h.length)
	for _, n := range []int{h.length, end} {
		if n >= 0 && n < len(body) && body[n] == ']' {
			return cut(data, h.size+n+1)
		}
	}
	closing := bytes.IndexByte(body, ']')
	// Not there yet: a text frame that already closed has a wrong length;
	// binary content may still be coming.
	lengthWrong := end >= 0 && end < len(body) || closing >= 0 && printable(body[:closing])
	switch {
	case lengthWrong && closing >= 0:
		if j := bytes.IndexByte(body[:closing], '['); j >= 0 {
			return h.size + j, nil, nil // a truncated frame before another
		}
		return cut(data, h.size+closing+1)
	case len(data) >= MaxFrameSize:
		return 0, nil, ErrFrameTooLong
	case atEOF:
		return len(data), nil, nil
	}
	return 0, nil, nil
}

func cut(data []byte, n int) (int, []byte, error) {
	return n, data[:n:n], nil
}

// printable reports whether b is plain ASCII text.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}
