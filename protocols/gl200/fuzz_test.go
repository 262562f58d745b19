package gl200

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// seeds adds every shared frame as it comes over the wire.
func seeds(f *testing.F) {
	for _, s := range shared {
		f.Add(s.wire(f))
	}
}

// FuzzSplitDecode feeds random bytes through the Split loop the listener
// runs and decodes every frame: nothing may panic, Split must always
// advance or ask for more, and a text frame never holds its end byte.
func FuzzSplitDecode(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, frame := range prototest.SplitDecode(t, New(), data) {
			if len(frame) == 0 || frame[0] != '+' || len(frame) > 1<<16 {
				t.Fatalf("bad frame %q", frame)
			}
		}
		prototest.Recognized(t, New(), data)
	})
}

// FuzzDatagram decodes random UDP packets.
func FuzzDatagram(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, packet []byte) {
		if res, err := New().DecodeDatagram(&protocols.Conn{}, packet); err == nil {
			prototest.Storable(t, Name, res, packet)
		}
	})
}

// BenchmarkDecode decodes a GTFRI fixed report.
func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, []byte(shared[21].frame[:len(shared[21].frame)-1]))
}

// BenchmarkDecodeBinary decodes a binary +RSP report.
func BenchmarkDecodeBinary(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, prototest.Unhex(b, binaryRSP))
}
