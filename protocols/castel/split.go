package castel

import (
	"encoding/binary"

	"github.com/fleetd/fleetd/protocols"
)

const (
	// MaxFrame bounds a frame. The length field allows 64 KiB; devices
	// send a few hundred bytes (a login with its PID list is about 210).
	MaxFrame = 4096
	// minFrame is the MPIP header, type, CRC and \r\n with no body.
	minFrame = 2 + 2 + 20 + 2 + 2 + 2
)

// Split is a bufio.SplitFunc for the TCP stream: a frame starts with @@ or
// $$ and is as long as its length field, ending in \r\n. A marker whose
// length is out of range or whose frame does not end in \r\n is skipped.
func (*Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	n, token, err := protocols.SplitMarked(data, atEOF, "@$", cut)
	if token == nil && atEOF && err == nil {
		return len(data), nil, nil // an unfinished frame at EOF is dropped
	}
	return n, token, err
}

// cut cuts the frame at the start of data (a marker byte).
func cut(data []byte, _ bool) (int, []byte, error) {
	switch n := frameSize(data); {
	case n > 0:
		return n, data[:n], nil
	case n == 0:
		return 0, nil, nil
	}
	return 1, nil, nil
}

// frameSize is the size of the frame at the start of data: 0 when more
// bytes are needed, -1 when data does not start a frame.
func frameSize(data []byte) int {
	if len(data) < 4 {
		if len(data) >= 2 && data[1] != data[0] {
			return -1
		}
		return 0
	}
	if data[0] != data[1] || data[0] != '@' && data[0] != '$' {
		return -1
	}
	n := int(binary.LittleEndian.Uint16(data[2:]))
	if n < minFrame || n > MaxFrame || data[0] == '@' && n < minFrame+1 {
		return -1
	}
	if len(data) < n {
		return 0
	}
	if data[n-2] != '\r' || data[n-1] != '\n' {
		return -1
	}
	return n
}

// Recognize implements protocols.Recognizer: @@ or $$, a length in range,
// \r\n where the length ends, a CRC that matches and a frame Decode takes.
// $$ also starts Meitrack and Meiligao frames, so the CRC decides.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	n := frameSize(head)
	switch {
	case n < 0:
		return protocols.NotMine
	case n == 0:
		return protocols.NeedMore
	}
	frame := head[:n]
	if crcX25(frame[:n-4]) != binary.LittleEndian.Uint16(frame[n-4:]) {
		return protocols.NotMine
	}
	if res, err := p.Decode(&protocols.Conn{}, frame); err != nil || res.ChecksumError || res.Unsupported != "" {
		return protocols.NotMine
	}
	return protocols.Mine
}
