package gps103

import (
	"bytes"
	"fmt"
)

// maxFrame bounds a frame; Coban frames are well under 200 bytes, so a
// longer run without a delimiter is not this protocol.
const maxFrame = 2048

// ErrFrameTooLong ends the stream when no delimiter comes within maxFrame bytes.
var ErrFrameTooLong = fmt.Errorf("gps103: no frame delimiter within %d bytes", maxFrame)

const imeiTag = "imei:"

// Split implements protocols.Stream. Frames end with ';', '*' or a newline
// (the delimiter is kept, as the alternative format is told apart by it).
// Bytes that cannot start a frame (anything but a digit, '#' or "imei:")
// are skipped, and so is an unterminated frame when the stream ends.
func (p *Protocol) Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	// Garbage is dropped in the same call that returns the next frame:
	// bufio.Scanner stops at EOF on the first call without a token.
	start, more := frameStart(data)
	if more {
		if atEOF {
			return len(data), nil, nil
		}
		return start, nil, nil
	}
	n := bytes.IndexAny(data[start:], ";*\n") + 1
	switch {
	case n > maxFrame || (n == 0 && len(data)-start > maxFrame):
		return 0, nil, ErrFrameTooLong
	case n > 0:
		return start + n, data[start : start+n], nil
	case atEOF:
		return len(data), nil, nil
	}
	return start, nil, nil
}

// frameStart returns the index of the first byte that can begin a frame.
// more is true when data holds no frame start yet (start then counts the
// bytes that can be dropped), including a trailing partial "imei:".
func frameStart(data []byte) (start int, more bool) {
	for i, b := range data {
		switch {
		case b >= '0' && b <= '9', b == '#':
			return i, false
		case b == 'i':
			rest := data[i:]
			if bytes.HasPrefix(rest, []byte(imeiTag)) {
				return i, false
			}
			if len(rest) < len(imeiTag) && bytes.HasPrefix([]byte(imeiTag), rest) {
				return i, true
			}
		}
	}
	return len(data), true
}
