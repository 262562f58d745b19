package tk103

import "github.com/fleetd/fleetd/protocols"

// Recognize implements protocols.Recognizer: a `(...)` frame that decodes
// as a TK103 message type; JT600's text frames also open with `(` and are
// told apart by the decoder's id and type checks.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, protocols.StartsWith("("))
}
