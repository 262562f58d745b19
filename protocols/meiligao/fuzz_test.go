package meiligao

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func seeds(f *testing.F) {
	prototest.AddHexSeeds(f, shared...)
	prototest.AddHexSeeds(f, login+pos7+alarm+rfid, "242400126578902354329300010102030d0a")
}

// FuzzSplitDecode runs arbitrary bytes through the listener's Split loop
// and decodes every frame; a head Recognize calls Mine must start a frame
// Split cuts and Decode takes.
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
