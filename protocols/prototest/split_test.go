package prototest

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestUnhex(t *testing.T) {
	if got := failures(t, func(tb testing.TB) {
		if b := Unhex(tb, "78780D0a"); string(b) != "\x78\x78\x0d\x0a" {
			tb.Errorf("Unhex = %x", b)
		}
		if s := UnhexStrings(tb, "41", "4243"); !slices.Equal(s, []string{"A", "BC"}) {
			tb.Errorf("UnhexStrings = %q", s)
		}
	}); len(got) != 0 {
		t.Fatal(got)
	}
	expectFailures(t, true, func(tb testing.TB) { Unhex(tb, "7g") })
	expectFailures(t, true, func(tb testing.TB) { UnhexStrings(tb, "41", "4") })
}

func TestReadersDeliverEverything(t *testing.T) {
	data := []byte(strings.Repeat("0123456789", 30))
	readers := Readers(data)
	if len(readers) != 5 {
		t.Fatalf("%d readers", len(readers))
	}
	for name, r := range readers {
		got, err := io.ReadAll(r)
		if err != nil || string(got) != string(data) {
			t.Errorf("%s: read %d bytes, %v", name, len(got), err)
		}
	}
	// Small reads are what makes frames arrive in pieces.
	for name, most := range map[string]int{"byte": 1, "chunks": 7} {
		buf := make([]byte, 100)
		if n, err := Readers(data)[name].Read(buf); n < 1 || n > most || err != nil {
			t.Errorf("%s: first read %d bytes, %v; want 1..%d", name, n, err, most)
		}
	}
}

func TestScanFrames(t *testing.T) {
	frames, err := ScanFrames(bufio.ScanLines, strings.NewReader("a\nbc\n\nd"), 0)
	if err != nil || !slices.Equal(Strings(frames), []string{"a", "bc", "", "d"}) {
		t.Fatalf("got %q, %v", Strings(frames), err)
	}
	// maxFrame bounds the scanner as it bounds the listener.
	frames, err = ScanFrames(bufio.ScanLines, strings.NewReader("a\n"+strings.Repeat("x", 100)), 64)
	if !errors.Is(err, bufio.ErrTooLong) || !slices.Equal(Strings(frames), []string{"a"}) {
		t.Fatalf("got %q, %v; want a then ErrTooLong", Strings(frames), err)
	}
}

// bangLines splits lines and fails on a line with a '!'.
var errBang = errors.New("bang")

func bangLines(data []byte, atEOF bool) (int, []byte, error) {
	adv, tok, err := bufio.ScanLines(data, atEOF)
	if strings.Contains(string(tok), "!") {
		return 0, nil, errBang
	}
	return adv, tok, err
}

func TestSplitStream(t *testing.T) {
	tests := []struct {
		name   string
		split  bufio.SplitFunc
		stream string
		want   []string
		fail   bool
	}{
		{"right frames", bufio.ScanLines, "a\nb\n", []string{"a", "b"}, false},
		{"no frames", bufio.ScanLines, "", nil, false},
		{"wrong frames", bufio.ScanLines, "a\nb\n", []string{"a"}, true},
		{"split error", bangLines, "a\n!\n", []string{"a"}, true},
		// ScanWords cuts the same words however the bytes arrive; a split
		// that takes whatever has arrived as a frame does not.
		{"words", bufio.ScanWords, "ab cd", []string{"ab", "cd"}, false},
		{"frame per read", whole, "abcd", []string{"abcd"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectFailures(t, tt.fail, func(tb testing.TB) { SplitStream(tb, tt.split, 0, tt.stream, tt.want) })
		})
	}
}

func TestSplitFails(t *testing.T) {
	expectFailures(t, false, func(tb testing.TB) { SplitFails(tb, bangLines, 0, "a\n!\nb\n", errBang, []string{"a"}) })
	expectFailures(t, true, func(tb testing.TB) { SplitFails(tb, bangLines, 0, "a\nb\n", errBang, []string{"a", "b"}) })
	expectFailures(t, true, func(tb testing.TB) { SplitFails(tb, bangLines, 0, "a\n!\n", errBang, nil) })
	expectFailures(t, true, func(tb testing.TB) { SplitFails(tb, bangLines, 0, "a\n!\n", io.EOF, []string{"a"}) })
}

func TestAsksForMore(t *testing.T) {
	expectFailures(t, false, func(tb testing.TB) { AsksForMore(tb, bufio.ScanLines, []byte("abc\n")) })
	expectFailures(t, true, func(tb testing.TB) { AsksForMore(tb, bufio.ScanBytes, []byte("abc\n")) })
}

// whole takes whatever has arrived as one frame.
func whole(data []byte, atEOF bool) (int, []byte, error) {
	if len(data) == 0 {
		return 0, nil, nil
	}
	return len(data), data, nil
}

func TestOneFrame(t *testing.T) {
	expectFailures(t, false, func(tb testing.TB) { OneFrame(tb, whole, []byte("abc\n")) })
	expectFailures(t, true, func(tb testing.TB) { OneFrame(tb, bufio.ScanLines, []byte("abc\n")) })
	expectFailures(t, true, func(tb testing.TB) { OneFrame(tb, bufio.ScanLines, []byte("abc")) })
}
