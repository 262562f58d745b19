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
	frameCellLogin = "(027045009305BP05355227045009305,{413,2,30073,16724}\n{413,2,30073,16730}\n{413,2,30073,49860}\n,01000000)"
	frameShortID   = "(01602009983BR00160830V1855.7022S4817.8731W000.0002729000.0010000000L00000000)"
	frameWifi      = "(864555555555555,DW51,200,1,3215,43370,2,58:F3:BB:3B:AA:82*-65*1,1C:6A:BB:AA:81:95*-78*1,151117,154419)"
	frameBMS       = "(007030201454BS5190:02150000753001DC,91:0EE8060EDC0A01DC,92:42014201DC0A01DC,93:00010127000037C8," +
		"94:0E01000002000000,95:020EE10EE20EE800030EE40EE00EE700040EDD0EE40EE400050EDC0EDF0EE400," +
		"96:0142000000000000,97:0000000000000000,98:0000000000000000)"
	frameLongID  = "(357593060760397BP02,G,2,170304A6015.7466N01101.8460E001.609445591.048,7)"
	frameVersion = "(013632782450BP01GPS518,DEC,22,2008)"
)

// frames are the real frames of every layout, for the stream tests.
var frames = []string{frameHandshake, framePosition, frameResult, frameCellLogin, frameShortID, frameWifi, frameBMS,
	frameLongID, frameVersion}

func TestSplitStream(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", strings.Join(frames, ""), frames},
		{"separated by line ends", strings.Join(frames, "\r\n"), frames},
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
