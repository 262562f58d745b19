package gl200

import (
	"github.com/fleetd/fleetd/protocols"
)

// Decode implements protocols.Stream: a frame Split cut (text without its
// '$', or a whole binary frame).
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	if len(frame) >= minFrame && isBinary(frame) {
		return p.decodeBinary(frame)
	}
	return p.decodeText(c, frame)
}

// DecodeDatagram implements protocols.Datagram: a UDP packet holds one
// message, text with its '$' or a binary frame.
func (p *Protocol) DecodeDatagram(c *protocols.Conn, packet []byte) (protocols.Result, error) {
	return p.Decode(c, packet)
}

// Recognize implements protocols.Recognizer: Mine once head holds a whole
// text message whose head, IMEI and count number parse (`+RESP:GTxxx,`,
// `+BUFF:GTxxx,`, `+ACK:GTxxx,`), or a whole binary frame that decodes.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	if len(head) == 0 {
		return protocols.NeedMore
	}
	if head[0] != '+' {
		return protocols.NotMine
	}
	if len(head) < minFrame {
		if textPrefix(head) || binaryPrefix(head) {
			return protocols.NeedMore
		}
		return protocols.NotMine
	}
	if !isBinary(head) && !textPrefix(head) {
		return protocols.NotMine
	}
	adv, frame, _ := p.Split(head, false)
	if adv == 0 {
		return protocols.NeedMore
	}
	if frame == nil {
		return protocols.NotMine
	}
	// A report type not decoded is no sign of the protocol.
	if res, err := p.Decode(&protocols.Conn{}, frame); err != nil || res.Unsupported != "" {
		return protocols.NotMine
	}
	return protocols.Mine
}

// textPrefix reports whether b starts (or is the start of) the head of a
// text message.
func textPrefix(b []byte) bool {
	for _, h := range []string{"+RESP:GT", "+BUFF:GT", "+ACK:GT"} {
		n := min(len(b), len(h))
		if string(b[:n]) == h[:n] {
			return true
		}
	}
	return false
}

// binaryPrefix reports whether b (shorter than minFrame) may start a
// binary frame.
func binaryPrefix(b []byte) bool {
	if len(b) < 2 || b[1] == 0 {
		return true
	}
	for h := range binaryHeaders {
		if n := min(len(b), len(h)); string(b[:n]) == h[:n] {
			return true
		}
	}
	return len(b) < 5 && string(b) == "+ACK"[:len(b)] || len(b) >= 5 && string(b[:4]) == "+ACK" && b[4] != ':'
}
