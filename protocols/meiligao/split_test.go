package meiligao

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/prototest"
)

func TestSplitEveryFrame(t *testing.T) {
	frames := prototest.UnhexStrings(t, shared...)
	for _, f := range frames {
		prototest.AsksForMore(t, New().Split, []byte(f))
	}
	stream := ""
	for _, f := range frames {
		stream += f
	}
	prototest.SplitStream(t, New().Split, MaxFrame, stream, frames)
}

func TestSplit(t *testing.T) {
	f := prototest.UnhexStrings(t, login, alarm, pos7, photoData, pos11)
	for _, tc := range []struct {
		name, stream string
		want         []string
	}{
		{"garbage before and between", "\x00\xffjunk" + f[0] + "$$x\r\n" + f[2] + "@@@", []string{f[0], f[2]}},
		// The alarm's length field counts one byte too many: it ends at
		// its "\r\n", not in the next frame.
		{"length one off", f[1] + f[0], []string{f[1], f[0]}},
		{"zero lengths", f[4] + f[4] + f[0], []string{f[4], f[4], f[0]}},
		// Photo data holds "\r\n" pairs: only its length ends it.
		{"binary data", f[3] + f[2], []string{f[3], f[2]}},
		{"unfinished frame at the end", f[0] + f[2][:40], []string{f[0]}},
		{"id that is not BCD", "$$\x00\x11\xab\xcd\xef\x00\x00\x00\x00\x50\x00\x00\x00\r\n" + f[0], []string{f[0]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prototest.SplitStream(t, New().Split, MaxFrame, tc.stream, tc.want)
		})
	}
}

func TestRecognize(t *testing.T) {
	p := New()
	for i, h := range shared {
		f := prototest.Unhex(t, h)
		want := protocols.Mine
		if res, _ := p.Decode(&protocols.Conn{}, f); f[0] == '@' || res.Unsupported != "" {
			// The OBD capture's server-side marker; a frame not decoded
			// is no sign of the protocol.
			want = protocols.NotMine
		}
		if got := p.Recognize(f); got != want {
			t.Errorf("frame %d: Recognize = %v, want %v", i+1, got, want)
		}
		if want == protocols.Mine {
			for _, n := range []int{0, 1, 2, 6, 13, len(f) - 1} {
				if got := p.Recognize(f[:n]); got != protocols.NeedMore {
					t.Errorf("frame %d cut at %d: Recognize = %v, want NeedMore", i+1, n, got)
				}
			}
		}
	}
	for _, other := range []string{
		"$$z27,861451040910625,AAC,1*D3\r\n", // Meitrack
		"$$K157,866771027160687,AAA,3,37.040231,10.042391,160412151656,A,10,11,0,48,0.8,21",
		"*HQ,4210051415,V1,164549,A#", "(087073005534BP00HSO)", "$GPRMC,1",
	} {
		if got := p.Recognize([]byte(other)); got != protocols.NotMine {
			t.Errorf("Recognize(%q) = %v, want NotMine", other, got)
		}
	}
}
