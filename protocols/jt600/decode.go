package jt600

import (
	"errors"

	"github.com/fleetd/fleetd/protocols"
)

// Decode implements protocols.Stream for frames returned by Split.
// Records are acknowledged once stored with the answer the device asks
// for (see decodeBinary and decodeText); a frame carries no checksum.
func (*Protocol) Decode(_ *protocols.Conn, frame []byte) (protocols.Result, error) {
	if len(frame) == 0 {
		return protocols.Result{}, errors.New("jt600: empty frame")
	}
	switch frame[0] {
	case '$':
		if frameSize(frame) != len(frame) {
			return protocols.Result{}, errors.New("jt600: binary frame length does not match")
		}
		return decodeBinary(frame)
	case '(':
		return decodeText(frame)
	}
	return protocols.Result{}, errNotText
}

// Recognize implements protocols.Recognizer. '$' is also Meitrack's and
// Meiligao's "$$" and NMEA's first byte, '(' TK103's: Mine needs a whole
// frame that decodes: a BCD id, a length that matches and BCD dates for
// binary frames; a decimal id, a JT600 message type and its field layout
// for text ones.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	if len(head) == 0 {
		return protocols.NeedMore
	}
	switch size := frameSize(head); {
	case size < 0:
		return protocols.NotMine
	case size == 0:
		if head[0] == '(' && !textPrefix(head) {
			return protocols.NotMine
		}
		return protocols.NeedMore
	default:
		// A type not decoded is no sign of the protocol.
		if res, err := p.Decode(&protocols.Conn{}, head[:size]); err != nil || res.Unsupported != "" {
			return protocols.NotMine
		}
		return protocols.Mine
	}
}

// textPrefix tells whether an unfinished text frame may still be JT600's:
// a decimal id (up to 20 digits) then a comma, as far as head goes.
func textPrefix(head []byte) bool {
	for i, c := range head[1:] {
		switch {
		case c == ',':
			return i > 0
		case c < '0' || c > '9' || i >= 20:
			return false
		}
	}
	return true
}
