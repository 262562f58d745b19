package ruptela

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// FuzzSplitDecode feeds random bytes through the listener's Split loop
// and decodes every frame; Recognize must not panic, and Mine must mean a
// frame Split cuts whole and Decode takes.
func FuzzSplitDecode(f *testing.F) {
	prototest.AddHexSeeds(f, append(streamFrames, shortLengthAnswer, shortLengthDTCs)...)
	f.Add(deviceFrame(testIMEI, 68, "0001"+"5565cbb9"+"00"+"21"+"00"+"20fd21300f113f4600005f000600090d"+"0102"+"00000000"))
	f.Add(deviceFrame(testIMEI, 37, "02003544444131464144000a0009ffd9"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := New()
		prototest.SplitDecode(t, p, data)
		if res, mine := prototest.Recognized(t, p, data); mine && res.ChecksumError {
			t.Fatalf("Recognize(%x) = Mine, but its checksum is wrong", data)
		}
	})
}
