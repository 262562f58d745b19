package prototest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"slices"
	"testing"
	"testing/iotest"

	"github.com/fleetd/fleetd/protocols"
)

// defaultMaxFrame is the listener's frame bound when none is configured.
const defaultMaxFrame = 64 << 10

// ScanFrames runs split over r as the listener does (its frame reader,
// frames up to maxFrame bytes; 0 means the listener's 64 KiB) and returns
// copies of the frames with the reader's final error (nil at the end of r).
func ScanFrames(split bufio.SplitFunc, r io.Reader, maxFrame int) ([][]byte, error) {
	if maxFrame <= 0 {
		maxFrame = defaultMaxFrame
	}
	fr := protocols.NewFrameReader(r, split, maxFrame)
	var frames [][]byte
	for {
		frame, err := fr.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return frames, err
		}
		frames = append(frames, bytes.Clone(frame))
	}
}

// Readers returns fresh readers of data that deliver it the ways TCP may:
// all at once, one byte per read, half of each read, seven bytes per read,
// and with io.EOF returned together with the last bytes.
func Readers(data []byte) map[string]io.Reader {
	return map[string]io.Reader{
		"whole":   bytes.NewReader(data),
		"byte":    iotest.OneByteReader(bytes.NewReader(data)),
		"halves":  iotest.HalfReader(bytes.NewReader(data)),
		"chunks":  &chunkReader{data: data, size: 7},
		"dataerr": iotest.DataErrReader(bytes.NewReader(data)),
	}
}

// chunkReader returns at most size bytes per read.
type chunkReader struct {
	data []byte
	size int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.size)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// SplitStream checks that split cuts exactly want from stream however the
// stream is read (see Readers), and that the scan ends without an error.
func SplitStream(t testing.TB, split bufio.SplitFunc, maxFrame int, stream string, want []string) {
	t.Helper()
	for name, r := range Readers([]byte(stream)) {
		frames, err := ScanFrames(split, r, maxFrame)
		if err != nil {
			t.Errorf("%s reads: %v", name, err)
			continue
		}
		if got := Strings(frames); !slices.Equal(got, want) {
			t.Errorf("%s reads: frames\n got %q\nwant %q", name, got, want)
		}
	}
}

// SplitFails checks that scanning stream ends with an error matching target
// (errors.Is) after exactly the frames before, however the stream is read.
func SplitFails(t testing.TB, split bufio.SplitFunc, maxFrame int, stream string, target error, before []string) {
	t.Helper()
	for name, r := range Readers([]byte(stream)) {
		frames, err := ScanFrames(split, r, maxFrame)
		if got := Strings(frames); !errors.Is(err, target) || !slices.Equal(got, before) {
			t.Errorf("%s reads: frames %q, err %v; want %q then %v", name, got, err, before, target)
		}
	}
}

// AsksForMore checks that split, given any proper prefix of frame before
// EOF, asks for more bytes: (0, nil, nil).
func AsksForMore(t testing.TB, split bufio.SplitFunc, frame []byte) {
	t.Helper()
	for n := range len(frame) {
		if adv, tok, err := split(frame[:n], false); adv != 0 || tok != nil || err != nil {
			t.Errorf("prefix of %d bytes: Split = %d, %q, %v; want 0, nil, nil", n, adv, tok, err)
		}
	}
}

// Strings converts frames to strings for comparison and printing.
func Strings(frames [][]byte) []string {
	var out []string
	for _, f := range frames {
		out = append(out, string(f))
	}
	return out
}

// OneFrame checks that split, given exactly frame, cuts it as one whole
// frame: what a device reads back from a command we encoded.
func OneFrame(t testing.TB, split bufio.SplitFunc, frame []byte) {
	t.Helper()
	adv, tok, err := split(frame, false)
	if err != nil || adv != len(frame) || !bytes.Equal(tok, frame) {
		t.Errorf("Split(own frame %x) = %d, %x, %v; want the whole frame", frame, adv, tok, err)
	}
}
