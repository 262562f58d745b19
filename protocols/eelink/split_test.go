package eelink

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestSplitStreams(t *testing.T) {
	frames := prototest.UnhexStrings(t, streamFrames...)
	// text, a lone 67, a header whose length cannot hold the serial
	garbage := "GET / HTTP/1.1\r\n\x67\x00" + string(prototest.Unhex(t, "6767030001"))
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", strings.Join(frames, ""), frames},
		{"garbage before and between", garbage + strings.Join(frames, garbage), frames},
		{"unfinished packet at eof", frames[0] + frames[2][:20], frames[:1]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, maxPacket, tt.stream, tt.want) })
	}
}

func TestSplitAsksForMore(t *testing.T) {
	for _, f := range streamFrames {
		prototest.AsksForMore(t, New().Split, prototest.Unhex(t, f))
	}
}

// A packet may use its whole 16-bit length.
func TestSplitLongestPacket(t *testing.T) {
	big := append(prototest.Unhex(t, "67671fffff0001"), make([]byte, 0xFFFF-2)...)
	prototest.SplitStream(t, New().Split, New().MaxFrameSize(), string(big)+string(prototest.Unhex(t, login)),
		[]string{string(big), string(prototest.Unhex(t, login))})
}
