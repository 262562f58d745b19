package jt808

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestRecognize(t *testing.T) {
	p := New()
	for _, tc := range sharedFrames {
		wire := prototest.Unhex(t, tc.wire)
		if wire[0] == '(' {
			// Text lines are TK103's and JT600's opening too: not claimed.
			if got := p.Recognize(wire); got != protocols.NotMine {
				t.Errorf("%s: %v, want NotMine", tc.name, got)
			}
			continue
		}
		if got := p.Recognize(wire); got != protocols.Mine {
			t.Errorf("%s: %v, want Mine", tc.name, got)
		}
		for n := range len(wire) - 1 {
			if got := p.Recognize(wire[:n]); got != protocols.NeedMore {
				t.Fatalf("%s: prefix of %d bytes: %v, want NeedMore", tc.name, n, got)
			}
		}
	}
	hb := prototest.Unhex(t, wireHeartbeat)
	badCheck := append([]byte(nil), hb...)
	badCheck[len(badCheck)-2] ^= 1
	badLength := append([]byte(nil), hb...)
	badLength[4] = 1
	for name, head := range map[string][]byte{
		"GT06 login":           prototest.Unhex(t, "78780d010123456789012345000139470d0a"),
		"TK103 text":           []byte("(027028258309BP05000027028258309240312A2232.7330N11356.6590E000.0170538000.0000000000L00000000)"),
		"H02 text":             []byte("*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#"),
		"Meitrack":             []byte("$$A35,864507032323403,AAA,35,24.819116,121.026091,181029065600,A,6,18,0,108,1,15,1058,1,466|97|527B|01035DB4,0000,0001|0000|0000|02D8|0000,00000001,,3,,,36,23*3E\r\n"),
		"bad check":            badCheck,
		"length field differs": badLength,
		"bad escape":           prototest.Unhex(t, "7e0002000004304832546500b77d03ca7e"),
		"two delimiters":       {0x7e, 0x7e},
	} {
		if got := p.Recognize(head); got != protocols.NotMine {
			t.Errorf("%s: %v, want NotMine", name, got)
		}
	}
}
