package tk103

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

const (
	frameHandshake = "(087073005534BP00HSO)"
	framePosition  = "(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)"
	frameResult    = "(864768011069660,ZC03,131117,223706,$Notice: (ok) done$)"
)

// scan runs Split over r the way the listener does and returns the frames.
func scan(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Split(New().Split)
	var frames []string
	for sc.Scan() {
		frames = append(frames, sc.Text())
	}
	return frames, sc.Err()
}

func TestSplitStream(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"merged", frameHandshake + framePosition + frameResult, []string{frameHandshake, framePosition, frameResult}},
		{"garbage between frames", "\x00junk)" + frameHandshake + "\r\n$$" + framePosition + "))",
			[]string{frameHandshake, framePosition}},
		{"parenthesis inside free text", frameResult + frameHandshake, []string{frameResult, frameHandshake}},
		{"unterminated tail dropped", frameHandshake + "(0880473654", []string{frameHandshake}},
		{"only garbage", "no frames here", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		for name, r := range map[string]func(string) io.Reader{
			"whole":   func(s string) io.Reader { return strings.NewReader(s) },
			"byte":    func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
			"halves":  func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
			"dataerr": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
		} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				got, err := scan(r(tt.stream))
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, tt.want) {
					t.Fatalf("got %q, want %q", got, tt.want)
				}
			})
		}
	}
}

func TestSplitOversize(t *testing.T) {
	for _, stream := range []string{
		"(" + strings.Repeat("1", maxFrame),
		"(" + strings.Repeat("1", maxFrame) + ")",
		"($" + strings.Repeat(")", maxFrame),
	} {
		got, err := scan(iotest.HalfReader(strings.NewReader(frameHandshake + stream)))
		if !errors.Is(err, ErrFrameTooLong) {
			t.Fatalf("err %v, want ErrFrameTooLong", err)
		}
		if !slices.Equal(got, []string{frameHandshake}) {
			t.Fatalf("frames before the error: %q", got)
		}
	}
	// A frame of exactly maxFrame bytes is still accepted.
	frame := "(" + strings.Repeat("1", maxFrame-2) + ")"
	got, err := scan(strings.NewReader(frame))
	if err != nil || !slices.Equal(got, []string{frame}) {
		t.Fatalf("max-size frame: %v %d frames", err, len(got))
	}
}
