package watch

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// scan splits everything r yields with p.Split, as the listener does.
func scan(r io.Reader) ([]string, error) {
	s := bufio.NewScanner(r)
	s.Buffer(nil, MaxFrameSize)
	s.Split(New().Split)
	var frames []string
	for s.Scan() {
		frames = append(frames, string(s.Bytes()))
	}
	return frames, s.Err()
}

// Binary content with a raw ']' (declared length 6) and with escapes
// (declared length 0x0e counts unescaped bytes).
const (
	rawBracket = "[SG*8800000015*0006*TK,\x01]\x02]"
	escaped    = "[CS*1234567890*000e*TK,#!AMR}\x01}\x02}\x03}\x04}\x05\xff]"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name   string
		stream string
		want   []string
	}{
		{"merged", frameLK + frameUD + frameZJ, []string{frameLK, frameUD, frameZJ}},
		{"garbage before and between", "\r\n\x00junk" + frameLK + "]]x\n" + frameAL, []string{frameLK, frameAL}},
		{"not a header", "[SG]" + "[S*1*0002*LK]" + "[SG*1*zz*LK]" + frameTKQ, []string{frameTKQ}},
		{"truncated frame before another", "[SG*8800000015*0002*L" + frameLK, []string{frameLK}},
		{"incomplete frame at EOF", frameLK + "[SG*8800000015*0087*UD,22", []string{frameLK}},
		{"raw bracket in binary content", rawBracket + frameLK, []string{rawBracket, frameLK}},
		{"escaped binary content", escaped + frameLK, []string{escaped, frameLK}},
		{"declared length too short", frameUD + frameLK, []string{frameUD, frameLK}},
		{"declared length too long", "[SG*8800000015*0010*LK]" + frameLK, []string{"[SG*8800000015*0010*LK]", frameLK}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.stream), iotest.OneByteReader(strings.NewReader(tc.stream))} {
				got, err := scan(r)
				if err != nil || !slices.Equal(got, tc.want) {
					t.Errorf("%T: got %q, %v\nwant %q", r, got, err, tc.want)
				}
			}
		})
	}
}

// TestSplitWaitsForBinary checks that a binary frame cut after a raw ']'
// is not returned early.
func TestSplitWaitsForBinary(t *testing.T) {
	for i := 1; i < len(rawBracket); i++ {
		adv, tok, err := New().Split([]byte(rawBracket[:i]), false)
		if adv != 0 || tok != nil || err != nil {
			t.Errorf("Split(%q) = %d, %q, %v; want a request for more", rawBracket[:i], adv, tok, err)
		}
	}
}

func TestSplitOversize(t *testing.T) {
	stream := frameLK + "[SG*8800000015*0002*" + strings.Repeat("x", MaxFrameSize)
	got, err := scan(iotest.HalfReader(strings.NewReader(stream)))
	if !errors.Is(err, ErrFrameTooLong) || !slices.Equal(got, []string{frameLK}) {
		t.Errorf("got %q, %v; want one frame and ErrFrameTooLong", got, err)
	}
}

// TestSplitLongestFrame accepts the longest frame the length field allows.
func TestSplitLongestFrame(t *testing.T) {
	frame := "[3G*358839237678820*ffff*TK," + strings.Repeat("}\x03", 0xffff-3) + "]"
	got, err := scan(strings.NewReader(frame + frameLK))
	if err != nil || len(got) != 2 || got[0] != frame {
		t.Errorf("got %d frames, %v", len(got), err)
	}
}
