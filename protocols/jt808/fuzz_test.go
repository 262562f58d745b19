package jt808

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// FuzzSplitDecode feeds random bytes through the Split loop the listener
// runs and decodes every frame: nothing may panic, and Split must always
// advance or ask for more. Recognize runs on the same bytes: it may not
// panic, and Mine means the first frame splits and decodes.
func FuzzSplitDecode(f *testing.F) {
	for _, tc := range sharedFrames {
		prototest.AddHexSeeds(f, tc.wire)
	}
	prototest.AddHexSeeds(f, register2019, wireHeartbeat+wireEscaped)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := New()
		prototest.SplitDecode(t, p, data)
		prototest.Recognized(t, p, data)
	})
}
