package eelink

import (
	"github.com/fleetd/fleetd/protocols"
)

// Recognize implements protocols.Recognizer: a TCP stream starts with a
// 67 67 packet whose length matches and which decodes (the login's BCD
// IMEI, a location's layout). An "EL" datagram is not a stream frame
// (Split would skip its header, or take a 67 67 in its IMEI for a
// packet): RecognizeDatagram tells those.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	if len(head) == 0 {
		return protocols.NeedMore
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

// RecognizeDatagram implements protocols.DatagramRecognizer: "EL", a
// length that matches the datagram, a BCD IMEI, a right checksum and
// packets that decode.
func (p *Protocol) RecognizeDatagram(packet []byte) bool {
	res, err := p.DecodeDatagram(&protocols.Conn{}, packet)
	return err == nil && !res.ChecksumError && res.UniqueID != "" && res.Unsupported == ""
}
