package h02

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/fleetd/fleetd/protocols/prototest"
)

const (
	textV1   = "*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#"
	textHTBT = "*HQ,135790246811220,HTBT,100#"
	bin32    = "2441060116601245431311165035313006004318210e000000fffffbffff0024"
	bin45    = "24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f"
)

// scan splits everything r yields with p.Split, as the listener does.
func scan(p *Protocol, r io.Reader) ([]string, error) {
	frames, err := prototest.ScanFrames(p.Split, r, 0)
	return prototest.Strings(frames), err
}

func TestSplit(t *testing.T) {
	b32, b45 := string(prototest.Unhex(t, bin32)), string(prototest.Unhex(t, bin45))
	cases := []struct {
		name   string
		stream string
		length int // Protocol.MessageLength
		want   []string
	}{
		{"merged text", textV1 + "\r\n" + textHTBT + "\r\n", 0, []string{textV1, textHTBT}},
		{"garbage before and between", "\x00\xffjunk\n" + textHTBT + "noise" + textV1, 0, []string{textHTBT, textV1}},
		{"truncated text frame is dropped", "*HQ,4210051415,V1,1645" + textHTBT, 0, []string{textHTBT}},
		{"incomplete frame at EOF is dropped", textHTBT + "*HQ,123,V1", 0, []string{textHTBT}},
		{"short binaries", b32 + b32 + textHTBT, 0, []string{b32, b32, textHTBT}},
		{"long binary then short", b45 + b32, 0, []string{b45, b32}},
		{"long binary then text", b45 + textHTBT, 0, []string{b45, textHTBT}},
		{"lone long binary", b45, 0, []string{b45}},
		{"configured length", b45 + b45, 45, []string{b45, b45}},
		{"X frame", "X" + strings.Repeat("\x01", 31) + textHTBT, 0, []string{"X" + strings.Repeat("\x01", 31), textHTBT}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &Protocol{MessageLength: tc.length}
			got, err := scan(p, strings.NewReader(tc.stream))
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("whole buffer: got %q, %v\nwant %q", got, err, tc.want)
			}
		})
	}
}

// TestSplitByteByByte feeds the stream one byte per read, so every frame
// arrives in pieces.
func TestSplitByteByByte(t *testing.T) {
	b32, b45 := string(prototest.Unhex(t, bin32)), string(prototest.Unhex(t, bin45))
	for _, tc := range []struct {
		name   string
		stream string
		length int
		want   []string
	}{
		{"text and short binary", "xx" + textV1 + "\r\n" + b32 + textHTBT, 0, []string{textV1, b32, textHTBT}},
		{"configured long binary", b45 + b45 + textHTBT, 45, []string{b45, b45, textHTBT}},
		// Without a configured length a long frame read in pieces is cut at
		// 32 bytes; its tail is skipped and the decoded fields are intact.
		{"detected long binary", b45 + textHTBT, 0, []string{b45[:32], textHTBT}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Protocol{MessageLength: tc.length}
			got, err := scan(p, iotest.OneByteReader(strings.NewReader(tc.stream)))
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %q, %v\nwant %q", got, err, tc.want)
			}
		})
	}
}

func TestSplitLongFrameCutStillDecodes(t *testing.T) {
	p := testProtocol()
	whole, err1 := p.Decode(nil, prototest.Unhex(t, bin45))
	cut, err2 := p.Decode(nil, prototest.Unhex(t, bin45)[:32])
	if err1 != nil || err2 != nil || len(cut.Positions) != 1 {
		t.Fatalf("Decode: %v, %v", err1, err2)
	}
	if w, c := whole.Positions[0], cut.Positions[0]; w.Latitude != c.Latitude ||
		w.Longitude != c.Longitude || !w.FixTime.Equal(c.FixTime) || w.Attributes["status"] != c.Attributes["status"] {
		t.Errorf("cut frame decodes to %+v, whole to %+v", c, w)
	}
}

func TestSplitOversize(t *testing.T) {
	stream := textHTBT + "*HQ," + strings.Repeat("1", MaxTextFrame)
	prototest.SplitFails(t, New().Split, 0, stream, ErrFrameTooLong, []string{textHTBT})
}

func TestSplitNeedsMore(t *testing.T) {
	p := New()
	for _, prefix := range []string{"*HQ,1", string(prototest.Unhex(t, bin32))[:31], string(prototest.Unhex(t, bin45))[:40]} {
		adv, tok, err := p.Split([]byte(prefix), false)
		if adv != 0 || tok != nil || err != nil {
			t.Errorf("Split(%q) = %d, %q, %v; want a request for more", prefix, adv, tok, err)
		}
	}
	if adv, tok, err := p.Split(nil, true); adv != 0 || tok != nil || err != nil {
		t.Errorf("Split(nil, EOF) = %d, %q, %v", adv, tok, err)
	}
	if adv, _, _ := p.Split(bytes.Repeat([]byte{'a'}, 10), false); adv != 10 {
		t.Errorf("garbage advance = %d, want 10", adv)
	}
}

// TestSplitStreams checks the frames of every message type however TCP
// delivers them (whole, byte by byte, in chunks).
func TestSplitStreams(t *testing.T) {
	b32, b42 := string(prototest.Unhex(t, bin32)), string(prototest.Unhex(t, bin42))
	b46, b48 := string(prototest.Unhex(t, bin46)), string(prototest.Unhex(t, bin48))
	for _, tc := range []struct {
		name   string
		length int
		stream string
		want   []string
	}{
		{"text types", 0, textV8 + "\r\n" + textSMS + "\r\n" + textV5 + textV6 + "\r\n",
			[]string{textV8, textSMS, textV5, textV6}},
		// The 8-byte id frame is told by its layout, not by what follows.
		{"8-byte id binaries", 0, b42 + b42 + textHTBT + b42, []string{b42, b42, textHTBT, b42}},
		{"8-byte id binary then short", 0, b42 + b32 + textV8, []string{b42, b32, textV8}},
		{"configured 46 bytes", 46, b46 + b46 + textSMS, []string{b46, b46, textSMS}},
		{"configured 48 bytes", 48, b48 + textV5 + b48, []string{b48, textV5, b48}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prototest.SplitStream(t, (&Protocol{MessageLength: tc.length}).Split, 0, tc.stream, tc.want)
		})
	}
}

// TestSplitDetectsLongBinaries: without a configured length, frames that
// arrive together are cut where the next frame starts.
func TestSplitDetectsLongBinaries(t *testing.T) {
	b32, b45 := string(prototest.Unhex(t, bin32)), string(prototest.Unhex(t, bin45b))
	b46, b48 := string(prototest.Unhex(t, bin46)), string(prototest.Unhex(t, bin48))
	for _, tc := range []struct {
		name   string
		stream string
		want   []string
	}{
		{"45 46 48 32", b45 + b46 + b48 + b32, []string{b45, b46, b48, b32}},
		{"48 then text", b48 + textV8, []string{b48, textV8}},
		{"46 alone", b46, []string{b46}},
		{"48 alone", b48, []string{b48}},
		// A '$' inside a frame that is not followed by BCD id digits does
		// not end it.
		{"marker byte without an id after it", b32[:31] + "\xff" + "$\xff" + textHTBT, []string{b32[:31] + "\xff", textHTBT}},
		{"stray marker before a frame", "$\xff" + b32 + "*\x00\x00\x00" + textHTBT, []string{b32, textHTBT}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := scan(New(), strings.NewReader(tc.stream))
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %q, %v\nwant %q", got, err, tc.want)
			}
		})
	}
}
