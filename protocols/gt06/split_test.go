package gt06

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"testing"
	"testing/iotest"
)

// scanFrames runs Split over r the way the listener does and returns the
// frames as hex, with the scanner's final error.
func scanFrames(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64), MaxFrame)
	sc.Split(New().Split)
	var frames []string
	for sc.Scan() {
		frames = append(frames, hex.EncodeToString(sc.Bytes()))
	}
	return frames, sc.Err()
}

var streamFrames = []string{loginFrame, gpsLBSFrame, gpsLBS2Frame, statusFrame, alarmFrame,
	echoFrame, accelFrame, brakeFrame, extGPSFrame}

func joinHex(t *testing.T, parts ...string) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, unhex(t, p)...)
	}
	return b
}

func lower(frames []string) []string {
	out := make([]string, len(frames))
	for i, f := range frames {
		out[i] = hex.EncodeToString(unhexNoT(f))
	}
	return out
}

func unhexNoT(s string) []byte {
	b, _ := hex.DecodeString(s)
	return b
}

func TestSplitStreams(t *testing.T) {
	all := joinHex(t, streamFrames...)
	garbage := []byte("\x00\x01GET / HTTP/1.1\r\n\x78\x0d\x0a\x79")
	var withGarbage []byte
	for _, f := range streamFrames {
		withGarbage = append(withGarbage, garbage...)
		withGarbage = append(withGarbage, unhex(t, f)...)
	}
	tests := []struct {
		name string
		r    io.Reader
		want []string
	}{
		{"merged in one read", bytes.NewReader(all), streamFrames},
		{"byte by byte", iotest.OneByteReader(bytes.NewReader(all)), streamFrames},
		{"half reads", iotest.HalfReader(bytes.NewReader(all)), streamFrames},
		{"garbage before and between", iotest.OneByteReader(bytes.NewReader(withGarbage)), streamFrames},
		{"garbage in one read", bytes.NewReader(withGarbage), streamFrames},
		// Length 0 instead of 0x0a: the frame ends at the first 0D 0A.
		{"wrong length byte", bytes.NewReader(joinHex(t, "78780013440604000201baaf540d0a", loginFrame)),
			[]string{"78780013440604000201baaf540d0a", loginFrame}},
		// Length claims more bytes than arrive before EOF.
		{"short frame at eof", iotest.OneByteReader(bytes.NewReader(unhex(t, login2Frame))), []string{login2Frame}},
		{"stray 0x78 before a header", iotest.OneByteReader(bytes.NewReader(joinHex(t, "78", loginFrame))),
			[]string{loginFrame}},
		// A stray header with no trailer in front of a real frame is skipped.
		{"stray header", bytes.NewReader(joinHex(t, "7878ff01", loginFrame)), []string{loginFrame}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := scanFrames(tt.r)
			if err != nil {
				t.Fatal(err)
			}
			if want := lower(tt.want); !slices.Equal(got, want) {
				t.Fatalf("frames:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestSplitOversize(t *testing.T) {
	for name, data := range map[string][]byte{
		"length field": joinHex(t, loginFrame, "7979ffff01020304"),
		"no trailer":   append(unhex(t, "787801"), bytes.Repeat([]byte{0x55}, 2*MaxFrame)...),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := scanFrames(iotest.HalfReader(bytes.NewReader(data)))
			if name == "length field" {
				if !errors.Is(err, errFrameTooLong) || !slices.Equal(got, lower([]string{loginFrame})) {
					t.Fatalf("frames %q, err %v; want the login frame then errFrameTooLong", got, err)
				}
				return
			}
			// A header without a trailer is dropped once MaxFrame bytes show none.
			if err != nil || len(got) != 0 {
				t.Fatalf("frames %q, err %v; want none", got, err)
			}
		})
	}
}

func TestSplitAsksForMore(t *testing.T) {
	frame := unhex(t, gpsLBSFrame)
	for n := range len(frame) {
		adv, tok, err := New().Split(frame[:n], false)
		if adv != 0 || tok != nil || err != nil {
			t.Fatalf("prefix %d: Split = %d, %x, %v; want 0, nil, nil", n, adv, tok, err)
		}
	}
}
