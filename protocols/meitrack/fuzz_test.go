package meitrack

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func seeds(f *testing.F) {
	prototest.AddSeeds(f, onWire(f)...)
	prototest.AddHexSeeds(f, photoD00)
	prototest.AddSeeds(f, aaaK157+textAAC, "$$A99,864507031219974,D00,pic.jpg,10,7,\xff\xd8*00\r\n")
}

// FuzzSplitDecode runs arbitrary bytes through the listener's Split loop
// and decodes every frame; Recognize must not panic, and a head it calls
// Mine must start a frame Split cuts and Decode takes.
func FuzzSplitDecode(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := New()
		prototest.SplitDecode(t, p, data)
		prototest.Recognized(t, p, data)
	})
}

// FuzzDatagram decodes arbitrary UDP packets.
func FuzzDatagram(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if res, err := New().DecodeDatagram(&protocols.Conn{}, data); err == nil {
			prototest.Storable(t, Name, res, data)
		}
	})
}
