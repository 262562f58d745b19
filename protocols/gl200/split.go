package gl200

import (
	"bytes"
	"encoding/binary"
)

const (
	// maxText bounds a text message: the longest reports (GTERI with
	// several sensors, GTCAN) stay well under it.
	maxText = 8 << 10
	// minFrame is the shortest frame worth looking at: a binary header up
	// to its length field (as Traccar's frame decoder waits for).
	minFrame = 11
)

// binaryHeaders are the four-byte heads of the binary reports; "+ACK" is
// binary too when no ':' follows it.
var binaryHeaders = map[string]bool{
	"+RSP": true, "+BSP": true, "+EVT": true, "+BVT": true, "+INF": true,
	"+BNF": true, "+HBD": true, "+CRD": true, "+BRD": true, "+LGN": true,
}

// isBinary reports whether b (at least 5 bytes) starts a binary frame.
func isBinary(b []byte) bool {
	if b[1] == 0 {
		return true
	}
	head := string(b[:4])
	if head == "+ACK" {
		return b[4] != ':'
	}
	return binaryHeaders[head]
}

// binaryLength reads the length field of a binary frame (b holds at least
// minFrame bytes); its place depends on the header.
func binaryLength(b []byte) int {
	if b[1] == 0 {
		return int(binary.BigEndian.Uint16(b[2:]))
	}
	switch string(b[:4]) {
	case "+ACK":
		return int(b[6])
	case "+INF", "+BNF":
		return int(binary.BigEndian.Uint16(b[7:]))
	case "+HBD":
		return int(b[5])
	case "+CRD", "+BRD", "+LGN":
		return int(binary.BigEndian.Uint16(b[6:]))
	}
	return int(binary.BigEndian.Uint16(b[9:]))
}

// binaryMin is the shortest binary frame with a meaningful length: its
// length field, the send time, count number, checksum and tail fit in it.
const binaryMin = 16

// Split implements protocols.Stream. A frame starts with '+'; a binary one
// is as long as its length field says, a text one ends at the first '$' or
// NUL byte (kept in the frame; Decode takes messages with or without it). Bytes before
// '+' are skipped; so is one '+' that starts no frame (a binary length out
// of bounds, a text message that runs past maxText), and an unterminated
// message when the stream ends.
func (p *Protocol) Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	start := bytes.IndexByte(data, '+')
	if start < 0 {
		return len(data), nil, nil
	}
	if start > 0 {
		return start, nil, nil
	}
	if len(data) < minFrame {
		if atEOF {
			return len(data), nil, nil
		}
		return 0, nil, nil
	}
	if isBinary(data) {
		n := binaryLength(data)
		switch {
		case n < binaryMin:
			return 1, nil, nil
		case len(data) >= n:
			return n, data[:n], nil
		case atEOF:
			return len(data), nil, nil
		}
		return 0, nil, nil
	}
	window := data[:min(len(data), maxText+1)]
	end := bytes.IndexAny(window, "$\x00")
	switch {
	case end > 0:
		return end + 1, data[:end+1], nil
	case len(window) > maxText:
		return 1, nil, nil
	case atEOF:
		return len(data), nil, nil // an unterminated message
	}
	return 0, nil, nil
}
