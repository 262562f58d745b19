package gt06

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// FuzzSplitDecode feeds random bytes through the Split loop the listener
// runs and decodes every frame: nothing may panic, and Split must always
// advance or ask for more.
func FuzzSplitDecode(f *testing.F) {
	prototest.AddHexSeeds(f, append(streamFrames, login2Frame)...)
	f.Fuzz(func(t *testing.T, data []byte) {
		prototest.SplitDecode(t, New(), data)
		prototest.Recognized(t, New(), data)
	})
}
