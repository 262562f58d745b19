package castel

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// FuzzSplitDecode feeds random bytes through the listener's Split loop
// and decodes every frame; Recognize must not panic, and Mine must mean a
// frame Split cuts whole and Decode takes.
func FuzzSplitDecode(f *testing.F) {
	prototest.AddHexSeeds(f, append(sharedFrames, alarmWithFix, sleepTwice, dtcCommercial, loginReplyCap)...)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := New()
		prototest.SplitDecode(t, p, data)
		if res, mine := prototest.Recognized(t, p, data); mine && res.ChecksumError {
			t.Fatalf("Recognize(%x) = Mine, but its checksum is wrong", data)
		}
	})
}

// FuzzDatagram decodes random UDP packets.
func FuzzDatagram(f *testing.F) {
	prototest.AddHexSeeds(f, append(sharedFrames, alarmWithFix, sleepTwice, dtcCommercial)...)
	f.Fuzz(func(t *testing.T, packet []byte) {
		if res, err := New().DecodeDatagram(&protocols.Conn{}, packet); err == nil {
			prototest.Storable(t, Name, res, packet)
		}
	})
}
