package gps103

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

func FuzzSplitDecode(f *testing.F) {
	prototest.AddSeeds(f,
		frameLogon, frameBeat, frameTracker,
		"imei:865456055519122,sensor alarm,2208011920,,L,;",
		"imei:359710049075097,help me,,,L,,,113b,,558f,,,,,0,0,,,",
		"imei:868683026321020,tracker,181217080106,,F,080102.000,A,3227.3057,N,11649.4754,W,0.00,0,,0,0,0.00%,0,+11;",
		"imei:353451044508750,001,0809231929,13554900601,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,30.1,65.43,1,0,10.5%,0.0%,28;",
		"imei:1,T:,1,,F,,A,,,,,;oil x;",
		frameOBD, frameStar, frameCell, frameAnswer, framePhoto,
		"imei:862106025092216,OBD,170612165656,196043,,145803.9,,000,0.0%,+,0.0%,00000,12.6,,,,;",
		"imei:863070010423167,tracker,1211051840,,F,104000.000,A,2220.6483,N,11407.6377,,0,0,\n",
		"imei:353552045403597,tracker,150420050648,53.0,F,0.0,A,N,5306.64155,E,00700.77848,0.0,,1.0,;",
		"imei:865328023776874,acc off,150619152221,,F,072218.000,A,5439.8489,N,02518.5945,E,0.00,,,1,1,0.0,0.0,23.0,;",
		"imei:359710041100000,tracker,000000000,,L,,,fa8,,c9af,,,,,0,0,0.00%,,\n",
		"imei:123451234512345,L,*",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, frame := range prototest.SplitDecode(t, New(), data) {
			if len(frame) == 0 || len(frame) > maxFrame {
				t.Fatalf("bad frame length %d", len(frame))
			}
		}
		prototest.Recognized(t, New(), data)
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, []byte(frameTracker))
}
