package gps103

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

const (
	frameLogon   = "##,imei:359586015829802,A;"
	frameBeat    = "359586015829802;"
	frameTracker = "imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;"
)

func TestSplitStream(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", frameLogon + frameBeat + frameTracker, []string{frameLogon, frameBeat, frameTracker}},
		{"garbage and line ends between frames",
			"\x00\xff junk " + frameLogon + "\r\n;;" + frameBeat + "\n\n" + frameTracker + "\r\n",
			[]string{frameLogon, frameBeat, frameTracker}},
		{"garbage letters before imei", "xximxx" + frameTracker, []string{frameTracker}},
		{"newline and star delimiters", "359586015829802\nimei:1,a,b*", []string{"359586015829802\n", "imei:1,a,b*"}},
		{"unterminated tail dropped", frameBeat + "imei:3597100455", []string{frameBeat}},
		{"partial imei tag at end dropped", frameBeat + "ime", []string{frameBeat}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, 0, tt.stream, tt.want) })
	}
}

func TestSplitOversize(t *testing.T) {
	for _, stream := range []string{
		"imei:" + strings.Repeat("1", maxFrame),
		"imei:" + strings.Repeat("1", maxFrame) + ";",
	} {
		prototest.SplitFails(t, New().Split, 0, frameBeat+stream, ErrFrameTooLong, []string{frameBeat})
	}
	// A frame of exactly maxFrame bytes is still accepted.
	frame := "imei:" + strings.Repeat("1", maxFrame-6) + ";"
	prototest.SplitStream(t, New().Split, 0, frame, []string{frame})
}
