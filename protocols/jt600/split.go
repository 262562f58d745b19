package jt600

import (
	"bytes"
	"encoding/binary"
)

const (
	// maxBinary bounds a binary frame; the longest Jointech batches hold
	// a few dozen 27-byte records.
	maxBinary = 8 << 10
	// maxText bounds a text frame, as Traccar's frame decoder does for
	// the TK103 text it resembles.
	maxText = 1024
	// binaryHeader is '$', the 5-byte BCD id, the type byte and the
	// 2-byte length of the short layout; the long one adds a protocol
	// version byte.
	binaryHeader = 9
)

// Split implements protocols.Stream. Binary frames start with '$' and are
// cut by their length field (frame size = length + 10); text frames run
// from '(' to ')', the bytes '(' ')' ',' '=' of embedded binary data being
// escaped with '=' (0x3D). Bytes that start neither, a '$' not followed by
// a BCD device id or an oversized length, and a '(' with no ')' within
// maxText bytes are skipped; skipped bytes go with the next frame's
// advance, because bufio.Scanner stops at EOF after a call without a token.
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skipped := 0
	for skipped < len(data) {
		size := frameSize(data[skipped:])
		switch {
		case size > 0:
			return skipped + size, data[skipped : skipped+size], nil
		case size == 0 && atEOF:
			return len(data), nil, nil // an unfinished frame at EOF is dropped
		case size == 0:
			return skipped, nil, nil
		}
		skipped++
	}
	return skipped, nil, nil
}

// frameSize is the size of the frame at the start of data: 0 when more
// bytes are needed to tell, -1 when data does not start a frame.
func frameSize(data []byte) int {
	switch data[0] {
	case '$':
		return binarySize(data)
	case '(':
		end := bytes.IndexByte(data[:min(len(data), maxText)], ')')
		switch {
		case end > 0:
			return end + 1
		case len(data) >= maxText:
			return -1
		}
		return 0
	}
	return -1
}

// binarySize reads the length of a binary frame. The long layout is told
// by a zero at byte 8, the high byte of its length, as Traccar does: in
// the short layout that byte is the low byte of the length, never zero
// for a frame holding a record. The header is checked as far as it goes
// (BCD id; a short frame's record type 1-3 and a length of whole 27-byte
// records; a BCD date and time in the first record), so that garbage
// starting with '$' is skipped instead of waited on.
func binarySize(data []byte) int {
	if !bcd(data[1:min(len(data), 6)]) {
		return -1
	}
	if len(data) < binaryHeader+1 {
		return 0
	}
	long := isLong(data)
	length := int(binary.BigEndian.Uint16(data[lengthAt(data):]))
	size := length + 10
	switch {
	case size > maxBinary,
		long && length < locationSize+longTail+1,
		!long && (data[6]>>4 < 1 || data[6]>>4 > 3 || length == 0 || length%(locationSize+shortTail) != 0):
		return -1
	}
	first := data[binaryHeader:]
	if long {
		first = data[binaryHeader+1:]
	}
	if !bcd(first[:min(len(first), 6)]) {
		return -1
	}
	if len(data) < size {
		return 0
	}
	return size
}

// minBinary is a header, one location and the serial byte.
const minBinary = binaryHeader + locationSize + 1

func isLong(frame []byte) bool { return frame[8] == 0 }

func lengthAt(frame []byte) int {
	if isLong(frame) {
		return 8
	}
	return 7
}

// bcd reports whether every nibble of b is a decimal digit.
func bcd(b []byte) bool {
	for _, c := range b {
		if c>>4 > 9 || c&0x0F > 9 {
			return false
		}
	}
	return true
}
