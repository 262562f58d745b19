package tk103

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

const (
	frameHandshake = "(087073005534BP00HSO)"
	framePosition  = "(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)"
	frameResult    = "(864768011069660,ZC03,131117,223706,$Notice: (ok) done$)"
)

func TestSplitStream(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", frameHandshake + framePosition + frameResult, []string{frameHandshake, framePosition, frameResult}},
		{"garbage between frames", "\x00junk)" + frameHandshake + "\r\n$$" + framePosition + "))",
			[]string{frameHandshake, framePosition}},
		{"parenthesis inside free text", frameResult + frameHandshake, []string{frameResult, frameHandshake}},
		{"unterminated tail dropped", frameHandshake + "(0880473654", []string{frameHandshake}},
		{"only garbage", "no frames here", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, 0, tt.stream, tt.want) })
	}
}

func TestSplitOversize(t *testing.T) {
	for _, stream := range []string{
		"(" + strings.Repeat("1", maxFrame),
		"(" + strings.Repeat("1", maxFrame) + ")",
		"($" + strings.Repeat(")", maxFrame),
	} {
		prototest.SplitFails(t, New().Split, 0, frameHandshake+stream, ErrFrameTooLong, []string{frameHandshake})
	}
	// A frame of exactly maxFrame bytes is still accepted.
	frame := "(" + strings.Repeat("1", maxFrame-2) + ")"
	prototest.SplitStream(t, New().Split, 0, frame, []string{frame})
}
