package h02

import "github.com/fleetd/fleetd/protocols"

// Recognize implements protocols.Recognizer: a text frame `*XX,id,...#`
// or a binary `$`/`X` frame of the right length, that decodes. The `$`
// is shared with other binary and NMEA protocols: the decoder's checks
// of the BCD id, date and coordinates tell them apart.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, func(head []byte) protocols.Recognition {
		if len(head) == 0 {
			return protocols.NeedMore
		}
		if !isMarker(head[0]) {
			return protocols.NotMine
		}
		return protocols.Mine
	})
}
