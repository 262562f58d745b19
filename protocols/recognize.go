package protocols

import "bytes"

// RecognizeFrame is the usual body of a Recognize: the first bytes must
// fit the protocol's frame start (start says NotMine as soon as a byte
// rules it out, NeedMore while head is too short to tell, Mine when it
// fits), and then the protocol's own Split must cut a whole first frame
// from head and its Decode take it (not as Unsupported). Bytes that fit the start but make no
// frame within the shared port's read limit are not the protocol's.
func RecognizeFrame(p Stream, head []byte, start func(head []byte) Recognition) Recognition {
	if r := start(head); r != Mine {
		return r
	}
	adv, token, err := p.Split(head, false)
	switch {
	case err != nil || (adv > 0 && token == nil) || token != nil && (len(token) == 0 || &token[0] != &head[0]):
		// not a frame, or bytes skipped before one (some Splits skip
		// garbage and cut the next frame in one call: its token then
		// starts further into head)
		return NotMine
	case token == nil && len(head) >= maxHead:
		return NotMine
	case token == nil:
		return NeedMore
	}
	if res, err := p.Decode(&Conn{}, token); err != nil || res.Unsupported != "" {
		return NotMine // a frame the protocol does not take is no sign of it
	}
	// What follows the frame must not be garbage to the protocol: a frame
	// cut at a length that only happens to fit (an H02 long-id frame in
	// the first 42 bytes of a 45-byte JT600 one) leaves bytes that start
	// no frame.
	if rest := bytes.TrimLeft(head[adv:], "\r\n"); len(rest) > 0 {
		if n, next, err := p.Split(rest, false); err != nil || n > 0 && next == nil {
			return NotMine
		}
	}
	return Mine
}

// RecognizePacket is the usual body of a RecognizeDatagram: the protocol
// decodes the packet, and it names its device.
func RecognizePacket(dg Datagram, packet []byte) bool {
	res, err := dg.DecodeDatagram(&Conn{}, packet)
	return err == nil && res.UniqueID != "" && res.Unsupported == ""
}

// StartsWith is a frame start that is a fixed prefix.
func StartsWith(prefix string) func(head []byte) Recognition {
	return func(head []byte) Recognition {
		n := min(len(head), len(prefix))
		switch {
		case !bytes.Equal(head[:n], []byte(prefix[:n])):
			return NotMine
		case n < len(prefix):
			return NeedMore
		}
		return Mine
	}
}

// DatagramRecognizer is implemented by a Datagram protocol whose packets
// are not its stream frames (Teltonika's UDP packets carry their own
// header): the shared port asks it about each datagram instead of
// Recognize.
type DatagramRecognizer interface {
	RecognizeDatagram(packet []byte) bool
}
