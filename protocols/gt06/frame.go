package gt06

import (
	"bytes"
	"errors"
)

var errNotFrame = errors.New("gt06: not a 0x7878/0x7979 frame")

// frame is a split frame's parts. The content is taken from the frame's real
// size, not its length field, which some devices get wrong.
type frame struct {
	long    bool   // 0x7979 header with a 2-byte length
	typ     int    // protocol number
	content []byte // between the protocol number and the serial number
	serial  []byte // 2-byte information serial number, echoed in replies
	crcBad  bool
}

func parseFrame(b []byte) (frame, error) {
	var f frame
	switch {
	case bytes.HasPrefix(b, headerShort):
	case bytes.HasPrefix(b, headerLong):
		f.long = true
	default:
		return f, errNotFrame
	}
	start := 3 // header + length
	if f.long {
		start = 4
	}
	n := len(b)
	if n < start+7 || !bytes.HasSuffix(b, trailer) {
		return f, errNotFrame
	}
	f.typ = int(b[start])
	f.content = b[start+1 : n-6]
	f.serial = b[n-6 : n-4]
	f.crcBad = crcX25(b[2:n-4]) != uint16(b[n-4])<<8|uint16(b[n-3])
	return f, nil
}

// Frame builds a short (78 78) frame as a device sends it, for tests and
// tools that play a device.
func Frame(typ int, content []byte, serial uint16) []byte {
	return response(false, typ, content, []byte{byte(serial >> 8), byte(serial)})
}

// response builds a server frame: header, length, type, content, serial,
// CRC-16/X.25 and 0D 0A. It mirrors the header style of the frame answered.
func response(long bool, typ int, content, serial []byte) []byte {
	length := 1 + len(content) + 2 + 2
	out := make([]byte, 0, length+6)
	if long {
		out = append(out, 0x79, 0x79, byte(length>>8), byte(length))
	} else {
		out = append(out, 0x78, 0x78, byte(length))
	}
	out = append(out, byte(typ))
	out = append(out, content...)
	out = append(out, serial...)
	crc := crcX25(out[2:])
	return append(out, byte(crc>>8), byte(crc), 0x0D, 0x0A)
}
