package meitrack

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

// onWire are the shared frames whose bytes a device sends whole.
func onWire(t testing.TB) []string {
	var out []string
	for _, f := range []string{cceHours, textD82, cce3, cce1, cce3b, aaaK157, textD03, aaaA158, aaaI152, aaaJ138,
		aaaK146, affJ163, ccc18, textAAC} {
		out = append(out, string(wire(t, f)))
	}
	return out
}

func TestSplitEveryFrame(t *testing.T) {
	frames := onWire(t)
	for _, f := range frames {
		prototest.AsksForMore(t, New().Split, []byte(f))
		prototest.OneFrame(t, New().Split, []byte(f))
	}
	stream := ""
	for _, f := range frames {
		stream += f
	}
	prototest.SplitStream(t, New().Split, MaxFrame, stream, frames)
}

func TestSplit(t *testing.T) {
	cce := string(wire(t, cce1))
	for _, tc := range []struct {
		name, stream string
		want         []string
	}{
		{"garbage before and between", "\x00junk$" + aaaK157 + "$$$\r\n" + cce + "noise" + textAAC, []string{aaaK157, cce, textAAC}},
		// D82 counts its length one byte long: the text frame ends at
		// its "\r\n", not at the next frame's first byte.
		{"text length one off", textD82 + textAAC, []string{textD82, textAAC}},
		{"text frame cut short by the next", "$$K157,866771027160687,AAA,3,37.04" + textAAC, []string{textAAC}},
		{"unfinished frame at the end", textAAC + "$$K157,8667710", []string{textAAC}},
		{"header that is not one", "$$Z1x,123" + textAAC + "$$A12,12,AAA,*" + textAAC, []string{textAAC, textAAC}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prototest.SplitStream(t, New().Split, MaxFrame, tc.stream, tc.want)
		})
	}
}

func TestRecognize(t *testing.T) {
	p := New()
	for _, f := range onWire(t) {
		if got := p.Recognize([]byte(f)); got != protocols.Mine {
			t.Errorf("Recognize(%.40q) = %v, want Mine", f, got)
		}
		for _, n := range []int{0, 1, 2, 5, 20, len(f) - 1} {
			if got := p.Recognize([]byte(f)[:n]); got != protocols.NeedMore {
				t.Errorf("Recognize(%q) = %v, want NeedMore", f[:n], got)
			}
		}
	}
	for _, other := range []string{
		// Meiligao login and position: "$$" then a binary length and a BCD id.
		"\x24\x24\x00\x11\x67\x14\x40\x25\x88\x55\x40\x50\x00\xb2\x4d\r\n",
		"\x24\x24\x00\x72\x19\x08\x20\x15\x7f\xff\xff\x99\x55094354.000,A,1907.0619,N",
		"*HQ,4210051415,V1,164549,A#", "(087073005534BP00HSO)", "#L#123;456\r\n", "$GPRMC,123",
		"$$A12,12,AAA,1*00\r\n",       // an IMEI of 2 digits
		"$$A12,12345678,AAA,1*32\r\n", // a report that does not parse, checksum right
	} {
		if got := p.Recognize([]byte(other)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", other, got)
		}
	}
}
