package trv

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

var seeds = append(shared, frameTRVLogin, "IWAPXL,080835#", "TRVAP14,1,2#", "IWAP49,68#", "IWAPHP,60,130,85,95,90,36.5,,,,,,,#",
	"IWAP50,36.7,90#", "TRVCP01,07800010010000602001206001120124#",
	"TRVYP03190805A1828.9242N07353.9423E000.0150716029.0010000810020201112,404,27,184,10229#",
	"\r\nIWAP07,1,2#junk", "TRVAP01160211A2544.5118N05553.7586E105.711185941.52010001010010000,424,030,3011,27003#")

func FuzzSplitDecode(f *testing.F) {
	prototest.AddSeeds(f, seeds...)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, frame := range prototest.SplitDecode(t, testProtocol(), data) {
			if len(frame) < 7 || len(frame) > MaxFrameSize || frame[len(frame)-1] != '#' {
				t.Fatalf("bad frame %q", frame)
			}
		}
		prototest.Recognized(t, testProtocol(), data)
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, testProtocol().Decode, []byte(frameAP10))
}
