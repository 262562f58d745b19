package gt06

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// BenchmarkDecode decodes the common 0x12 GPS+LBS position frame.
func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, prototest.Unhex(b, gpsLBSFrame))
}

// BenchmarkSplitDecode is the listener's per-frame work: split, then decode.
func BenchmarkSplitDecode(b *testing.B) {
	frame := prototest.Unhex(b, gpsLBSFrame)
	p := New()
	b.ReportAllocs()
	for b.Loop() {
		_, tok, err := p.Split(frame, false)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Decode(nil, tok); err != nil {
			b.Fatal(err)
		}
	}
}
