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
	frameOBD     = "imei:868683027758113,OBD,180905200218,,,,0,0,0.39%,70,9.41%,494,0.00,P0137,P0430,,;"
	frameStar    = "imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*"
	frameCell    = "imei:864895030279986,ac alarm,180404174252,,L,,,296a,,51f7,,,\n"
	frameAnswer  = "imei:868166054696190,jt,231226105556,,F,105556.000,A,3518.59664,N,04658.22381,E,0.00,13.26;"
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
		{"every layout, photo packet included",
			frameLogon + frameOBD + frameStar + "\r\n" + frameCell + framePhoto + frameAnswer + frameBeat,
			[]string{frameLogon, frameOBD, frameStar, frameCell, framePhoto, frameAnswer, frameBeat}},
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
