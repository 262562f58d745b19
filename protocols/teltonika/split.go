package teltonika

import (
	"encoding/binary"
	"errors"
)

const (
	// MaxFrame bounds an AVL frame; the listener's buffer must hold it.
	// Teltonika devices send at most a few kilobytes per packet.
	MaxFrame = 16 << 10
	// avlOverhead is the zero preamble, the data length and the CRC.
	avlOverhead = 12
	// ping is the one-byte keep-alive devices send between packets.
	ping = 0xFF
	// IMEI length bounds for the handshake; real IMEIs have 15 digits.
	minIMEI, maxIMEI = 8, 20
)

var errFrameTooLong = errors.New("teltonika: AVL data length over 16 KiB")

// Split is a bufio.SplitFunc for the TCP stream. A frame is the 0xFF
// keep-alive, an IMEI handshake (2-byte length, ASCII digits) or an AVL
// packet (4 zero bytes, 4-byte data length, data, 4-byte CRC). Bytes that
// start none of these are skipped one at a time; skipped bytes are folded
// into the next frame's advance, because bufio.Scanner stops at EOF after a
// call that advances without a token.
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skipped := 0
	for {
		size, err := frameSize(data[skipped:])
		switch {
		case err != nil:
			return skipped, nil, err
		case size > 0:
			return skipped + size, data[skipped : skipped+size], nil
		case size == 0 && atEOF:
			return len(data), nil, nil // an unfinished frame at EOF is dropped
		case size == 0:
			return skipped, nil, nil
		}
		skipped++ // size < 0: not a frame start
	}
}

// frameSize is the size of the frame at the start of data: 0 when more data
// is needed to tell, -1 when data does not start a frame.
func frameSize(data []byte) (int, error) {
	if len(data) == 0 {
		return 0, nil
	}
	if data[0] == ping {
		return 1, nil
	}
	if len(data) < 2 {
		return 0, nil
	}
	if n := int(binary.BigEndian.Uint16(data)); n != 0 {
		if n < minIMEI || n > maxIMEI {
			return -1, nil
		}
		if len(data) < 2+n {
			return 0, nil
		}
		if !isIMEI(string(data[2 : 2+n])) {
			return -1, nil
		}
		return 2 + n, nil
	}
	if len(data) < 8 {
		if len(data) >= 4 && (data[2] != 0 || data[3] != 0) {
			return -1, nil
		}
		return 0, nil
	}
	if data[2] != 0 || data[3] != 0 {
		return -1, nil
	}
	length := binary.BigEndian.Uint32(data[4:8])
	if length > MaxFrame-avlOverhead {
		return 0, errFrameTooLong
	}
	if length < minCodec {
		return -1, nil
	}
	size := int(length) + avlOverhead
	if len(data) < size {
		return 0, nil
	}
	return size, nil
}

// parseIMEI reads the handshake frame: 2-byte length, then the IMEI digits.
func parseIMEI(frame []byte) (string, bool) {
	n := int(binary.BigEndian.Uint16(frame))
	if len(frame) != 2+n {
		return "", false
	}
	imei := string(frame[2:])
	return imei, isIMEI(imei)
}

func isIMEI(s string) bool {
	if len(s) < minIMEI || len(s) > maxIMEI {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
