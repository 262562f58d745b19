package gps103

import "github.com/fleetd/fleetd/protocols"

// Recognize implements protocols.Recognizer: a connection opens with the
// login `##,imei:...;` or a report `imei:...`, that decodes.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, func(head []byte) protocols.Recognition {
		login := protocols.StartsWith("##,imei:")(head)
		if login != protocols.NotMine {
			return login
		}
		return protocols.StartsWith(imeiTag)(head)
	})
}
