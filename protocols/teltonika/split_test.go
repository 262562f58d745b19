package teltonika

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// scanFrames runs Split the way the listener does and returns the frames as
// lower-case hex with the scanner's final error.
func scanFrames(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 32), MaxFrame)
	sc.Split(New().Split)
	var out []string
	for sc.Scan() {
		out = append(out, hex.EncodeToString(sc.Bytes()))
	}
	return out, sc.Err()
}

var streamFrames = []string{imeiFrame, codec8Frame, pingFrame, noFixFrame, movingFrame,
	strings.ToLower(answerFrame), codec8EFrame}

func TestSplitStreams(t *testing.T) {
	all := unhex(t, strings.Join(streamFrames, ""))
	garbage := "474554202f0d0a" + "0000" + "000a4142" + "00000001" // text, zeros, a bad IMEI, a bad preamble
	withGarbage := unhex(t, garbage+strings.Join(streamFrames, garbage))
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
		// Traccar's frame-decoder sample: a ping glued to the handshake.
		{"ping then imei", bytes.NewReader(unhex(t, "FF000F313233343536373839303132333435")),
			[]string{"ff", imeiFrame}},
		{"unfinished frame at eof", bytes.NewReader(unhex(t, imeiFrame+codec8Frame[:40])), []string{imeiFrame}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := scanFrames(tt.r)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]string, len(tt.want))
			for i, w := range tt.want {
				want[i] = strings.ToLower(w)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("frames:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestSplitOversize(t *testing.T) {
	data := unhex(t, imeiFrame+"0000000000004000"+"08")
	got, err := scanFrames(iotest.OneByteReader(bytes.NewReader(data)))
	if !errors.Is(err, errFrameTooLong) || !slices.Equal(got, []string{strings.ToLower(imeiFrame)}) {
		t.Fatalf("frames %q err %v; want the IMEI then errFrameTooLong", got, err)
	}
}

func TestSplitAsksForMore(t *testing.T) {
	frame := unhex(t, codec8Frame)
	for n := range len(frame) {
		adv, tok, err := New().Split(frame[:n], false)
		if adv != 0 || tok != nil || err != nil {
			t.Fatalf("prefix %d: Split = %d, %x, %v; want 0, nil, nil", n, adv, tok, err)
		}
	}
}
