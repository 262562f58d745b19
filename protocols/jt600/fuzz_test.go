package jt600

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

func seeds(f *testing.F) {
	for _, s := range wireFrames(f) {
		f.Add([]byte(s))
	}
	prototest.AddHexSeeds(f, peripheralFrame, short3Frame, "2440811188882400A209060908045322564025113242329F0598000001003F0000002D0009060908050322564025113242329F0598000001003F0000002D0009060908051322564025113242329F0598000001003F0000002D0009060908052322564025113242329F0598000001003F0000002D0009060908053322564025113242329F0598000001003F0000002D0009060908054322564025113242329F0598000001003F0000002D001F")
	prototest.AddSeeds(f, lockWithCard, "(3460311327,U06,10,220916,140619,T,9.552495,N,13.658227,W,0.43,0,7,0%,00101001000000,11012,10,0,0,0,126,0,30)")
}

func FuzzSplitDecode(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, frame := range prototest.SplitDecode(t, New(), data) {
			if len(frame) > maxBinary || frame[0] != '$' && frame[0] != '(' {
				t.Fatalf("bad frame %q", frame)
			}
		}
		prototest.Recognized(t, New(), data)
	})
}
