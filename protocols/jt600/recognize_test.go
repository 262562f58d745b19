package jt600

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestRecognize(t *testing.T) {
	p := New()
	for _, f := range wireFrames(t) {
		want := protocols.Mine
		if res, _ := p.Decode(&protocols.Conn{}, []byte(f)); res.Unsupported != "" {
			want = protocols.NotMine // a type not decoded is no sign of JT600
		}
		if got := p.Recognize([]byte(f)); got != want {
			t.Errorf("Recognize(%q) = %v, want %v", f, got, want)
		}
		for n := range len(f) {
			if got := p.Recognize([]byte(f[:n])); got != protocols.NeedMore {
				t.Errorf("Recognize(%q) = %v, want NeedMore", f[:n], got)
			}
		}
	}
	others := []string{
		// TK103, which shares '(' (samples.md)
		"(087073005534BP00HSO)",
		"(088048003342BR00160727A3354.7768N03540.7258E000.0140832068.4700000000L00BEB0D4+017.7)",
		"(864768011069660,ZC17,250517,A,3211.7118N,03452.8086E,0.68,115525,208.19,64.50,9)",
		"(027045015302,BP05,000000000000000,20160630)",
		// Meitrack and Meiligao, which share '$', and NMEA
		"$$A138,862170010187175,AAA,35,-34.577055,-58.505243,150209165420,A,7,22,0,258,1.4,5,0,0,0,0,*3F\r\n",
		string(prototest.Unhex(t, "2424001100134095405fff99530d0a")),
		"$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n",
		// a GT06 login, a Teltonika IMEI
		string(prototest.Unhex(t, "78780D01086471700328358100093F040D0A")),
		string(prototest.Unhex(t, "000f313233343536373839303132333435")),
	}
	for _, f := range others {
		if got := p.Recognize([]byte(f)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", f, got)
		}
	}
}
