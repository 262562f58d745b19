package trv

import (
	"strings"
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestSplitStream(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", strings.Join(shared, ""), shared},
		{"separated by line ends", strings.Join(shared, "\r\n") + "\r\n", shared},
		{"garbage before and between", "\x00junk#" + frameLogin + "\r\nab12#$$" + frameAP01 + "##",
			[]string{frameLogin, frameAP01}},
		{"header look-alike skipped", "IWAX00#" + frameTRVLogin, []string{frameTRVLogin}},
		{"unterminated tail dropped", frameLogin + "IWAP01080524", []string{frameLogin}},
		{"only garbage", "no frames here", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { prototest.SplitStream(t, New().Split, MaxFrameSize, tt.stream, tt.want) })
	}
}

func TestSplitCutAnywhere(t *testing.T) {
	for _, frame := range shared {
		prototest.AsksForMore(t, New().Split, []byte(frame))
		prototest.OneFrame(t, New().Split, []byte(frame))
	}
}

func TestSplitOversize(t *testing.T) {
	long := "IWAP02," + strings.Repeat("1", MaxFrameSize)
	prototest.SplitFails(t, New().Split, 2*MaxFrameSize, frameLogin+long, ErrFrameTooLong, []string{frameLogin})
	frame := "IWAP02," + strings.Repeat("1", MaxFrameSize-8) + "#"
	prototest.SplitStream(t, New().Split, MaxFrameSize, frame, []string{frame})
}

func TestRecognize(t *testing.T) {
	p := New()
	for _, frame := range append(shared, frameTRVLogin, frameYP14) {
		if got := p.Recognize([]byte(frame)); got != protocols.Mine {
			t.Errorf("%q: %v, want Mine", frame, got)
		}
		for n := range len(frame) - 1 {
			if got := p.Recognize([]byte(frame[:n])); got != protocols.NeedMore {
				t.Errorf("%q: %v, want NeedMore", frame[:n], got)
			}
		}
	}
	for _, head := range []string{
		"IWAP07,1#",        // a type fleetd does not decode
		"IWAP00#",          // no device id
		"TRVAP01123456A#",  // a position that does not parse
		"IWXP00123#",       // not a type
		"IWAP00123\x00456", // binary
		"(027045009305BP05355227045009305,{413,2,30073,16724})",                              // tk103
		"[SG*8800000015*0002*LK]",                                                            // watch
		"##,imei:359586015829802,A;",                                                         // gps103
		"$GPRMC,125735.000,A,6010.34349,N,02445.72838,E,1.0,101.7,050509,6.9,W,A*1F\r\n",     // t55
		"*HQ,865205030330012,V1,145452,A,2240.55181,N,11358.32389,E,0.00,0,100815,FFFFFBFF#", // h02
		"QZE,868994033976700,35,28062020,113553,22.13673,114.57263,0,22,A,0",                 // t55 QZE
		"IMEI 351467108700000\r\n",
		"STT;1;2#",
		// A frame that decodes but is longer than Split takes.
		strings.Replace(frameAP10, "#", strings.Repeat("&HOME|74-DE-2B-44-88-8C|97", MaxFrameSize/26)+"#", 1),
	} {
		if got := p.Recognize([]byte(head)); got != protocols.NotMine {
			t.Errorf("%q: %v, want NotMine", head, got)
		}
	}
}
