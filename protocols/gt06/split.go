package gt06

import (
	"bytes"
	"errors"
)

// MaxFrame bounds a frame, header to trailer; the listener's buffer must
// hold it. The largest frames real devices send (0x7979 photo and Wi-Fi
// chunks) stay well below it.
const MaxFrame = 4096

// minFrame is the smallest frame: header, length, type, serial, CRC, trailer
// (a 0x7878 frame with length 5).
const minFrame = 10

var errFrameTooLong = errors.New("gt06: frame longer than 4096 bytes")

var (
	headerShort = []byte{0x78, 0x78}
	headerLong  = []byte{0x79, 0x79}
	trailer     = []byte{0x0D, 0x0A}
)

// Split is a bufio.SplitFunc returning one frame at a time. Bytes before a
// header are skipped. The frame end comes from the length field; when the
// bytes there are not 0D 0A (devices send wrong lengths) the first 0D 0A
// after the header ends the frame instead, as Traccar does.
//
// Skipped bytes are folded into the next frame's advance: bufio.Scanner stops
// at EOF after a call that advances without a token.
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skipped := 0
	for {
		advance, token, err := splitOnce(data[skipped:], atEOF)
		if err != nil || token != nil || advance == 0 {
			return skipped + advance, token, err
		}
		skipped += advance
	}
}

func splitOnce(data []byte, atEOF bool) (int, []byte, error) {
	start := headerIndex(data)
	if start < 0 {
		// Keep a trailing 0x78/0x79 that may begin a header.
		keep := 0
		if n := len(data); n > 0 && (data[n-1] == 0x78 || data[n-1] == 0x79) && !atEOF {
			keep = 1
		}
		return len(data) - keep, nil, nil
	}
	if start > 0 {
		return start, nil, nil
	}
	lenSize := 1
	if data[0] == 0x79 {
		lenSize = 2
	}
	if len(data) < 2+lenSize {
		return needMore(data, atEOF)
	}
	length := int(data[2])
	if lenSize == 2 {
		length = int(data[2])<<8 | int(data[3])
	}
	total := 2 + lenSize + length + 2
	if total > MaxFrame {
		return 0, nil, errFrameTooLong
	}
	if endsFrame(data, total) {
		return total, data[:total], nil
	}
	// "78 78 78 len": a stray 0x78 before a real header, when the frame read
	// from the next byte is complete.
	if data[0] == 0x78 && data[2] == 0x78 && len(data) > 3 && endsFrame(data, 1+2+1+int(data[3])+2) {
		return 1, nil, nil
	}
	if len(data) < total && !atEOF {
		return 0, nil, nil
	}
	return fallback(data, 2+lenSize, atEOF)
}

// fallback ends a frame whose length field is wrong at the first 0D 0A after
// the length field. A header seen before any trailer means the first header
// was noise, so it is skipped; so is a header with no trailer in MaxFrame bytes.
func fallback(data []byte, bodyStart int, atEOF bool) (int, []byte, error) {
	end := bytes.Index(data[bodyStart:], trailer)
	if next := headerIndex(data[2:]); next >= 0 && (end < 0 || 2+next < bodyStart+end) {
		return 2 + next, nil, nil
	}
	if end < 0 {
		if len(data) >= MaxFrame {
			return 2, nil, nil
		}
		return needMore(data, atEOF)
	}
	n := bodyStart + end + 2
	if n < minFrame {
		return 2, nil, nil
	}
	return n, data[:n], nil
}

// endsFrame reports whether a frame of size total is complete in data.
func endsFrame(data []byte, total int) bool {
	return total >= minFrame && len(data) >= total && bytes.Equal(data[total-2:total], trailer)
}

// needMore asks for more input, or drops the unfinished tail at EOF.
func needMore(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF {
		return len(data), nil, nil
	}
	return 0, nil, nil
}

// headerIndex is the offset of the first 0x7878 or 0x7979 header, or -1.
// In a run of 0x79 bytes the header is the last pair: a length starting with
// 0x79 would exceed MaxFrame anyway.
func headerIndex(data []byte) int {
	for i := 0; i+1 < len(data); i++ {
		if (data[i] == 0x78 || data[i] == 0x79) && data[i+1] == data[i] {
			for data[i] == 0x79 && i+2 < len(data) && data[i+2] == 0x79 {
				i++
			}
			return i
		}
	}
	return -1
}
