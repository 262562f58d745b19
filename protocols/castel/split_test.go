package castel

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestSplit(t *testing.T) {
	p := New()
	frames := prototest.UnhexStrings(t, sharedFrames...)
	prototest.SplitStream(t, p.Split, MaxFrame, strings.Join(frames, ""), frames)
	// Garbage: a lone marker, a marker pair with a length out of range,
	// a length that does not end in \r\n, text.
	garbage := "@x$$\x01\x00" + frames[14] + "@@\x20\x00" + strings.Repeat("z", 40) + frames[15] + "hello"
	prototest.SplitStream(t, p.Split, MaxFrame, garbage, []string{frames[14], frames[15]})
	for _, f := range frames {
		prototest.AsksForMore(t, p.Split, []byte(f))
	}
	// Two GPS-sleep frames in one read, as Traccar's capture has them.
	two := string(prototest.Unhex(t, sleepTwice))
	prototest.SplitStream(t, p.Split, MaxFrame, two, []string{two[:len(two)/2], two[len(two)/2:]})
}
