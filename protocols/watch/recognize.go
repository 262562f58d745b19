package watch

import "github.com/fleetd/fleetd/protocols"

// Recognize implements protocols.Recognizer: a `[maker*id*len*...]` frame
// whose header parses and that decodes.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, protocols.StartsWith("["))
}
