package teltonika

import (
	"encoding/hex"
	"testing"
)

// BenchmarkDecode decodes a one-record codec 8 packet with 15 IO elements.
func BenchmarkDecode(b *testing.B) {
	frame, _ := hex.DecodeString(movingFrame)
	p := New()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Decode(nil, frame); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeDatagram decodes the UDP sample packet.
func BenchmarkDecodeDatagram(b *testing.B) {
	packet, _ := hex.DecodeString(udpPacket)
	p := New()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.DecodeDatagram(nil, packet); err != nil {
			b.Fatal(err)
		}
	}
}
