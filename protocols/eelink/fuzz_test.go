package eelink

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func FuzzSplitDecode(f *testing.F) {
	prototest.AddHexSeeds(f, streamFrames...)
	prototest.AddHexSeeds(f, udpNormal,
		"676705002102b459ae7388fcd360d7034332b1000000028f000a4f64002eb101010159ae7388",
		"676702002509f65868507603a1e92e03cf90fe000000019f000117ee00111e0120631145003101510000",
		"6767120048000559c1829213059a7400008e277d000c000000000800cc00080d2a000034df3cf0b429dd82cad3048910320000000000007b7320d005ba0000000019a000000000000000000000")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, frame := range prototest.SplitDecode(t, New(), data) {
			if len(frame) < header+2 || len(frame) > maxPacket || frame[0] != 0x67 || frame[1] != 0x67 {
				t.Fatalf("bad frame %x", frame)
			}
		}
		prototest.Recognized(t, New(), data)
	})
}

// FuzzDatagram decodes random UDP packets.
func FuzzDatagram(f *testing.F) {
	prototest.AddHexSeeds(f, udpNormal, udpLogin,
		"454C0050EAE2035254407167747167671200410021590BD93803026B940D0C3952AD0021000000000501CC0001A53F0170F0AB1305890F11000000000000C2D0001C001600000000000000000000000000000000")
	f.Fuzz(func(t *testing.T, packet []byte) {
		res, err := New().DecodeDatagram(&protocols.Conn{}, packet)
		if err == nil {
			prototest.Storable(t, Name, res, packet)
		}
	})
}
