package gps103

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
	frameLogon   = "##,imei:359586015829802,A;"
	frameBeat    = "359586015829802;"
	frameTracker = "imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;"
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
		{"merged", frameLogon + frameBeat + frameTracker, []string{frameLogon, frameBeat, frameTracker}},
		{"garbage and line ends between frames",
			"\x00\xff junk " + frameLogon + "\r\n;;" + frameBeat + "\n\n" + frameTracker + "\r\n",
			[]string{frameLogon, frameBeat, frameTracker}},
		{"garbage letters before imei", "xximxx" + frameTracker, []string{frameTracker}},
		{"newline and star delimiters", "359586015829802\nimei:1,a,b*", []string{"359586015829802\n", "imei:1,a,b*"}},
		{"unterminated tail dropped", frameBeat + "imei:3597100455", []string{frameBeat}},
		{"partial imei tag at end dropped", frameBeat + "ime", []string{frameBeat}},
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
		"imei:" + strings.Repeat("1", maxFrame),
		"imei:" + strings.Repeat("1", maxFrame) + ";",
	} {
		got, err := scan(iotest.HalfReader(strings.NewReader(frameBeat + stream)))
		if !errors.Is(err, ErrFrameTooLong) {
			t.Fatalf("err %v, want ErrFrameTooLong", err)
		}
		if !slices.Equal(got, []string{frameBeat}) {
			t.Fatalf("frames before the error: %q", got)
		}
	}
	// A frame of exactly maxFrame bytes is still accepted.
	frame := "imei:" + strings.Repeat("1", maxFrame-6) + ";"
	got, err := scan(strings.NewReader(frame))
	if err != nil || !slices.Equal(got, []string{frame}) {
		t.Fatalf("max-size frame: %v %d frames", err, len(got))
	}
}
