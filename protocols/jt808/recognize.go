package jt808

import (
	"bytes"

	"github.com/fleetd/fleetd/protocols"
)

// Recognize implements protocols.Recognizer. A connection is JT/T 808 when
// it opens with a whole 7E frame whose escapes are valid, whose body
// length field matches the bytes between header and check, and whose XOR
// check matches: a length and a checksum no other protocol's 7E frame
// passes by chance, and which decodes. The "(...)" text lines are left to the protocols that
// open with them (TK103, JT600).
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	if len(head) == 0 {
		return protocols.NeedMore
	}
	if head[0] != delim {
		return protocols.NotMine
	}
	// Split looks for the end within MaxFrame bytes: so must this.
	end := bytes.IndexByte(head[1:min(len(head), MaxFrame)], delim)
	if end < 0 {
		if len(head) >= MaxFrame {
			return protocols.NotMine
		}
		return protocols.NeedMore
	}
	u, err := unescape(head[:end+2])
	if err != nil {
		return protocols.NotMine
	}
	h, err := parse(u)
	if err != nil || !h.checksum || len(h.body) != h.attr&0x3FF {
		return protocols.NotMine
	}
	if res, err := p.Decode(&protocols.Conn{}, head[:end+2]); err != nil || res.Unsupported != "" { // a type not decoded is no sign
		return protocols.NotMine // well framed, but not a message fleetd takes
	}
	return protocols.Mine
}
