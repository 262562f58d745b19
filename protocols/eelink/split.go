package eelink

import "encoding/binary"

const (
	// header is 67 67, the type and the length; the length counts the
	// serial and the content.
	header = 5
	// maxPacket is the largest packet the 16-bit length allows.
	maxPacket = header + 0xFFFF
)

// MaxFrameSize implements protocols.FrameLimiter: a packet may use all its
// 16-bit length (camera data does), a little over the listener's default.
func (*Protocol) MaxFrameSize() int { return maxPacket }

// Split implements protocols.Stream: one packet per frame, cut by its
// length field. Bytes before a 67 67 header, and a header whose length
// cannot hold the serial, are skipped; skipped bytes go with the next
// frame's advance, because bufio.Scanner stops at EOF after a call
// without a token.
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skipped := 0
	for skipped < len(data) {
		size := packetSize(data[skipped:])
		switch {
		case size > 0:
			return skipped + size, data[skipped : skipped+size], nil
		case size == 0 && atEOF:
			return len(data), nil, nil // an unfinished packet at EOF is dropped
		case size == 0:
			return skipped, nil, nil
		}
		skipped++
	}
	return skipped, nil, nil
}

// packetSize is the size of the packet at the start of data: 0 when more
// bytes are needed, -1 when data does not start a packet.
func packetSize(data []byte) int {
	if data[0] != 0x67 || len(data) > 1 && data[1] != 0x67 {
		return -1
	}
	if len(data) < header {
		return 0
	}
	length := int(binary.BigEndian.Uint16(data[3:]))
	if length < 2 {
		return -1
	}
	if len(data) < header+length {
		return 0
	}
	return header + length
}
