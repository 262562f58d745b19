package castel

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestRecognize(t *testing.T) {
	p := New()
	for _, f := range sharedFrames {
		b := prototest.Unhex(t, f)
		if got := p.Recognize(b); got != protocols.Mine {
			t.Errorf("%.40s…: %v, want Mine", f, got)
		}
		for n := range len(b) {
			if got := p.Recognize(b[:n]); got != protocols.NeedMore {
				t.Fatalf("%.40s… cut at %d: %v, want NeedMore", f, n, got)
			}
		}
	}
	bad := prototest.Unhex(t, sharedFrames[15])
	bad[len(bad)-3] ^= 1
	notMine := map[string][]byte{
		// $$ starts Meitrack and Meiligao frames too.
		"meitrack":   []byte("$$A135,012896001078259,AAA,35,22.632355,114.052813,100317111919,A,9,31,0,282,1.0,59,14979,3089,460|0|2522|0FC6,0000,0001|0002||02D3|00F5,*CE\r\n"),
		"meiligao":   prototest.Unhex(t, "242400111234567890ffff500085e60d0a"),
		"gt06":       prototest.Unhex(t, "78780d01012345678901234500018cdd0d0a"),
		"bad CRC":    bad,
		"not \\r\\n": append(prototest.Unhex(t, sharedFrames[14])[:29], 'x', 'x'),
	}
	for name, b := range notMine {
		if got := p.Recognize(b); got != protocols.NotMine {
			t.Errorf("%s: %v, want NotMine", name, got)
		}
	}
}
