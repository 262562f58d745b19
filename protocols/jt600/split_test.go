package jt600

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// wireFrames are the shared frames as devices send them.
func wireFrames(t testing.TB) []string {
	return append(prototest.UnhexStrings(t, peripheralWire, temperatureHex, shortFrame, longFrame, short1Frame, long19Frame),
		lockEvent, u02, u03, u04, u06, heartbeat, w01, u01NoFix, u09)
}

func TestSplitStreams(t *testing.T) {
	frames := wireFrames(t)
	// text, a '$' without a BCD id, a '(' that never closes within maxText
	garbage := "GET / HTTP/1.1\r\n$$\x00\x11" + "\x12\x34"
	unclosed := "(" + strings.Repeat("9", maxText)
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", strings.Join(frames, ""), frames},
		{"garbage before and between", garbage + strings.Join(frames, garbage), frames},
		{"unclosed text skipped", unclosed + frames[2], frames[2:3]},
		{"unfinished frame at eof", frames[3] + frames[2][:20], frames[3:4]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, 0, tt.stream, tt.want) })
	}
}

func TestSplitAsksForMore(t *testing.T) {
	for _, f := range wireFrames(t) {
		prototest.AsksForMore(t, New().Split, []byte(f))
	}
}

// The escaped WLNET frame is cut whole and decodes as its unescaped form.
func TestEscapedFrame(t *testing.T) {
	wire, plain := prototest.Unhex(t, peripheralWire), prototest.Unhex(t, peripheralFrame)
	prototest.OneFrame(t, New().Split, wire)
	a, errA := New().Decode(&protocols.Conn{}, wire)
	b, errB := New().Decode(&protocols.Conn{}, plain)
	if errA != nil || errB != nil || len(a.Positions) != 1 || len(b.Positions) != 1 {
		t.Fatalf("%v %v", errA, errB)
	}
	if a.Positions[0].Attributes["temp1"] != b.Positions[0].Attributes["temp1"] || a.Positions[0].Latitude != b.Positions[0].Latitude {
		t.Errorf("escaped %+v, plain %+v", a.Positions[0], b.Positions[0])
	}
}
