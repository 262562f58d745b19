package teltonika

import (
	"encoding/binary"

	"github.com/fleetd/fleetd/protocols"
)

// Recognize implements protocols.Recognizer: a connection opens with the
// IMEI handshake, a 2-byte length and that many digits.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, handshakeStart)
}

func handshakeStart(head []byte) protocols.Recognition {
	if len(head) < 2 {
		if len(head) == 1 && head[0] != 0 {
			return protocols.NotMine
		}
		return protocols.NeedMore
	}
	if n := binary.BigEndian.Uint16(head); n < minIMEI || n > maxIMEI {
		return protocols.NotMine
	}
	for _, c := range head[2:min(len(head), 2+maxIMEI)] {
		if c < '0' || c > '9' {
			return protocols.NotMine
		}
	}
	return protocols.Mine
}

// RecognizeDatagram implements protocols.DatagramRecognizer: a UDP packet
// whose length field counts the rest of it and that decodes with its IMEI.
func (p *Protocol) RecognizeDatagram(packet []byte) bool {
	return len(packet) >= 2 && int(binary.BigEndian.Uint16(packet)) == len(packet)-2 && protocols.RecognizePacket(p, packet)
}
