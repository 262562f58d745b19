package eelink

import (
	"encoding/binary"

	"github.com/fleetd/fleetd/protocols"
)

// Recognize implements protocols.Recognizer. A TCP stream starts with a
// 67 67 packet whose length matches and which decodes (the login's BCD
// IMEI, a location's layout); a datagram with "EL", a length that
// matches the datagram, a BCD IMEI and a right checksum.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	switch {
	case len(head) == 0:
		return protocols.NeedMore
	case head[0] == 'E':
		if len(head) < 2 || head[1] == 'L' && len(head) < 4 {
			return protocols.NeedMore
		}
		if head[1] != 'L' {
			return protocols.NotMine
		}
		if imei := head[min(len(head), 6):min(len(head), udpHeader)]; len(imei) > 0 && (!bcd(imei) || imei[0]>>4 != 0) {
			return protocols.NotMine
		}
		if n := int(binary.BigEndian.Uint16(head[2:])) + 4; len(head) < n && n <= maxPacket && n >= udpHeader+header+2 {
			return protocols.NeedMore
		}
		// A packet type not decoded is no sign of Eelink.
		res, err := p.DecodeDatagram(&protocols.Conn{}, head)
		if err != nil || res.ChecksumError || res.Unsupported != "" {
			return protocols.NotMine
		}
		return protocols.Mine
	}
	switch size := packetSize(head); {
	case size < 0:
		return protocols.NotMine
	case size == 0:
		return protocols.NeedMore
	default:
		pk, _, err := readPacket(head[:size])
		if err != nil {
			return protocols.NotMine
		}
		if d, err := p.decodePacket(pk); err != nil || d.unsupported != "" {
			return protocols.NotMine
		}
		return protocols.Mine
	}
}
