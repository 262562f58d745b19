package ruptela

import (
	"encoding/binary"

	"github.com/fleetd/fleetd/protocols"
)

const (
	// MaxFrame bounds a frame: Ruptela devices send at most 1 KiB (a
	// file part fills it); extended records are sized below that too.
	MaxFrame = 2048
	// minLength is the smallest length field: the IMEI and the command.
	minLength = 9
	// overhead is the length field and the CRC around the counted bytes.
	overhead = 4
)

// Split is a bufio.SplitFunc for the TCP stream. A frame is as long as its
// length field says when its CRC ends there. Some firmware writes a length
// field shorter than the frame (two of Traccar's captures): when the CRC
// does not match at the declared end, the first end where it does within
// the bytes at hand is taken. A frame whose CRC matches nowhere is cut at
// its declared length and reaches Decode, which flags the checksum.
// Bytes that cannot start a frame are skipped one at a time, folded into
// the next frame's advance (bufio.Scanner stops after an advance without a
// token at EOF).
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skipped := 0
	for {
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
}

// frameSize is the size of the frame at the start of data: 0 when more
// bytes are needed to tell, -1 when data does not start a frame.
func frameSize(data []byte) int {
	n, ok := declaredSize(data)
	switch {
	case !ok:
		return -1
	case n == 0 || len(data) < n:
		return 0
	case crcEndsAt(data, n):
		return n
	}
	if k := crcEnd(data); k > 0 {
		return k
	}
	return n
}

// declaredSize reads the length field and checks the first IMEI bytes: an
// IMEI has 15 digits, below 2^50, so its top byte is 0 and the next under
// 4. It returns 0 when data is too short to tell and false when data does
// not start a frame.
func declaredSize(data []byte) (int, bool) {
	if len(data) < 2 {
		return 0, true
	}
	n := int(binary.BigEndian.Uint16(data)) + overhead
	if n < minLength+overhead || n > MaxFrame {
		return 0, false
	}
	if len(data) >= 4 && (data[2] != 0 || data[3] > 3) {
		return 0, false
	}
	return n, true
}

func crcEndsAt(data []byte, n int) bool {
	return crcKermit(data[2:n-2]) == binary.BigEndian.Uint16(data[n-2:n])
}

// crcEnd is the first frame end within data (and MaxFrame) where the CRC
// of the bytes after the length field matches the two bytes that follow
// them, or 0.
func crcEnd(data []byte) int {
	limit := min(len(data), MaxFrame)
	var crc uint16
	for end := 2; end+2 <= limit; end++ {
		if end >= minLength+2 && crc == binary.BigEndian.Uint16(data[end:end+2]) {
			return end + 2
		}
		crc = crcStep(crc, data[end])
	}
	return 0
}

// Recognize implements protocols.Recognizer: the length field, the IMEI's
// range, a command Ruptela devices send, a CRC that matches and a body
// that decodes. A bare 2-byte length is shared with many binary
// protocols, so nothing short of the CRC says Mine.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	n, ok := declaredSize(head)
	switch {
	case !ok:
		return protocols.NotMine
	case len(head) > 10 && !deviceCommands[head[10]]:
		return protocols.NotMine
	case n == 0 || len(head) < n:
		return protocols.NeedMore
	}
	size := frameSize(head)
	if !crcEndsAt(head, size) {
		return protocols.NotMine
	}
	if res, err := p.Decode(&protocols.Conn{}, head[:size]); err != nil || res.ChecksumError || res.Unsupported != "" {
		return protocols.NotMine
	}
	return protocols.Mine
}
