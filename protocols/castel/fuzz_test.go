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
		if p.Recognize(data) != protocols.Mine {
			return
		}
		adv, frame, err := p.Split(data, false)
		if err != nil || adv == 0 || frame == nil {
			t.Fatalf("Mine but Split = %d, %x, %v", adv, frame, err)
		}
		if res, err := p.Decode(&protocols.Conn{}, frame); err != nil || res.ChecksumError {
			t.Fatalf("Mine but Decode = %+v, %v", res, err)
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
