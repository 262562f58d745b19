package tk103

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

func FuzzSplitDecode(f *testing.F) {
	prototest.AddSeeds(f,
		frameHandshake, framePosition, frameResult,
		"(088048003342BP05354188048003342150917A1352.9801N10030.9050E000.0103115265.5600010000L000003F9)",
		"(044027395704BQ81,ALARM,1,164,151101A2238.5237N11349.4571E0.7031241010.0000,00000000)",
		"(864768011069660,ZC17,250517,A,3211.7118N,03452.8086E,0.68,115525,208.19,64.50,9)",
		"(013612345678BO012061830A2934.0133N10627.2544E040.0080331309.6200000000L000770AD)",
		"(088047365460BZ00,250,1,1A2B,C3D4,0)",
		"(864768011069660,ZC20,131117,223706,6,394,65535,255)",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, frame := range prototest.SplitDecode(t, New(), data) {
			if len(frame) < 2 || len(frame) > maxFrame || frame[0] != '(' || frame[len(frame)-1] != ')' {
				t.Fatalf("bad frame %q", frame)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, []byte(framePosition))
}
