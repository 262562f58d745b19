package teltonika

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// BenchmarkDecode decodes a one-record codec 8 packet with 15 IO elements.
func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, prototest.Unhex(b, movingFrame))
}

// BenchmarkDecodeDatagram decodes the UDP sample packet.
func BenchmarkDecodeDatagram(b *testing.B) {
	prototest.BenchDecode(b, New().DecodeDatagram, prototest.Unhex(b, udpPacket))
}
