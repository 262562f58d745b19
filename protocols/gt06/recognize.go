package gt06

import "github.com/fleetd/fleetd/protocols"

// Recognize implements protocols.Recognizer: a 0x7878 or 0x7979 frame
// whose length and CRC hold and that decodes.
func (p *Protocol) Recognize(head []byte) protocols.Recognition {
	return protocols.RecognizeFrame(p, head, start)
}

func start(head []byte) protocols.Recognition {
	switch {
	case len(head) == 0:
		return protocols.NeedMore
	case head[0] != 0x78 && head[0] != 0x79:
		return protocols.NotMine
	case len(head) == 1:
		return protocols.NeedMore
	case head[1] != head[0]:
		return protocols.NotMine
	}
	return protocols.Mine
}
