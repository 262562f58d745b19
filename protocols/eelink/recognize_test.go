package eelink

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestRecognize(t *testing.T) {
	p := New()
	for _, f := range append([]string{udpLogin, udpNormal}, streamFrames...) {
		b := prototest.Unhex(t, f)
		if got := p.Recognize(b); got != protocols.Mine {
			t.Errorf("Recognize(%s) = %v, want Mine", f, got)
		}
		for n := range len(b) {
			if got := p.Recognize(b[:n]); got != protocols.NeedMore {
				t.Errorf("Recognize(%x) = %v, want NeedMore", b[:n], got)
			}
		}
	}
	bad := prototest.Unhex(t, udpLogin)
	bad[5] ^= 1
	others := []string{
		string(bad), // an EL datagram whose checksum does not match
		string(prototest.Unhex(t, "676781000400010102")),                   // a type fleetd does not decode
		string(prototest.Unhex(t, "78780D01086471700328358100093F040D0A")), // GT06
		string(prototest.Unhex(t, "000f313233343536373839303132333435")),   // Teltonika
		"(087073005534BP00HSO)", "$$A138,862170010187175,AAA,35*3F\r\n", "ELECTRIC",
	}
	for _, f := range others {
		if got := p.Recognize([]byte(f)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", f, got)
		}
	}
}
