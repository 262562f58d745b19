package wialon

import (
	"bytes"
	"errors"
)

// MaxPacket bounds a packet: a black box of a few hundred records fits.
const MaxPacket = 64 << 10

// ErrPacketTooLong is returned by Split when no line end comes within
// MaxPacket bytes: the stream is not Wialon IPS.
var ErrPacketTooLong = errors.New("wialon: packet too long")

// Split returns each packet with its "\r\n" (a lone "\n" ends one too);
// empty lines are skipped with the packet that follows them.
func (p *Protocol) Split(data []byte, atEOF bool) (int, []byte, error) {
	skip := 0
	for {
		rest := data[skip:]
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			switch {
			case len(rest) > MaxPacket:
				return 0, nil, ErrPacketTooLong
			case atEOF && len(bytes.Trim(rest, "\r")) > 0:
				return len(data), rest, nil
			case atEOF:
				return len(data), nil, nil
			}
			return skip, nil, nil
		}
		if i > MaxPacket {
			return 0, nil, ErrPacketTooLong
		}
		if len(bytes.TrimRight(rest[:i], "\r")) > 0 {
			return skip + i + 1, rest[: i+1 : i+1], nil
		}
		skip += i + 1
	}
}
