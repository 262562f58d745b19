package jt808

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// Wire frames of the shared samples: a heartbeat, a location whose
// terminal id holds 7D (escaped on the wire), and a text line.
const (
	wireHeartbeat = "7e0002000004304832546500b7ca7e"
	wireEscaped   = "7e090000344f07788ef87d010138f02305151230460102020001ffffffff000100001457000000020006503134353700000c000a029dc63004b99a98230515132726787e"
	textBase      = "(794104004140,1,001,BASE,2,TIME)"
)

func TestSplit(t *testing.T) {
	hb := string(prototest.Unhex(t, wireHeartbeat))
	esc := string(prototest.Unhex(t, wireEscaped))
	loc := string(prototest.Unhex(t, sharedFrames[2].wire))
	cases := []struct {
		name, stream string
		want         []string
	}{
		{"several frames in one read", hb + esc + loc, []string{hb, esc, loc}},
		{"garbage before and between", "\x00\xffjunk" + hb + "noise\r\n" + esc + "\x7d\x01" + loc, []string{hb, esc, loc}},
		{"text line between frames", hb + textBase + loc, []string{hb, textBase, loc}},
		{"end of a lost frame before a frame", "\x01\x02\x7e" + hb, []string{hb}},
		{"a span too short to be a frame opens the next one", "\x7e\x01\x02" + hb, []string{hb}},
		{"incomplete frame at EOF is dropped", hb + hb[:9], []string{hb}},
		{"frame without its end within MaxFrame", "\x7e" + strings.Repeat("\x01", MaxFrame) + hb, []string{hb}},
		{"text without its end within maxText", "(" + strings.Repeat("1", maxText) + hb, []string{hb}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			prototest.SplitStream(t, New().Split, 0, tc.stream, tc.want)
		})
	}
}

// TestSplitEveryCut cuts each shared frame at every byte: a prefix asks for
// more, the whole is one frame.
func TestSplitEveryCut(t *testing.T) {
	for _, tc := range sharedFrames {
		wire := prototest.Unhex(t, tc.wire)
		prototest.AsksForMore(t, New().Split, wire)
		prototest.OneFrame(t, New().Split, wire)
	}
}
