package teltonika

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// FuzzSplitDecode feeds random bytes through the Split loop the listener
// runs and decodes every frame: nothing may panic, and Split must always
// advance or ask for more.
func FuzzSplitDecode(f *testing.F) {
	prototest.AddHexSeeds(f, append(streamFrames, "FF000F313233343536373839303132333435")...)
	f.Fuzz(func(t *testing.T, data []byte) {
		prototest.SplitDecode(t, New(), data)
		prototest.Recognized(t, New(), data)
	})
}

// FuzzDatagram decodes random UDP packets.
func FuzzDatagram(f *testing.F) {
	prototest.AddHexSeeds(f, udpPacket, "000ecafe01220002414208010000")
	for _, frame := range []string{bleSensorFrame, gh3000Frame, gtslFrame, codec14Frame, cameraFrame} {
		b := prototest.Unhex(f, frame)
		f.Add(udp(b[8 : len(b)-4]))
	}
	f.Fuzz(func(t *testing.T, packet []byte) {
		if res, err := New().DecodeDatagram(&protocols.Conn{}, packet); err == nil {
			prototest.Storable(t, Name, res, packet)
		}
	})
}
