package protocols

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

// stepReader hands out data step bytes per read and, at every read (when
// the frame reader waits for bytes), checks what the reader holds.
type stepReader struct {
	t     *testing.T
	data  []byte
	step  int
	fr    *FrameReader
	reads int
}

func (r *stepReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	r.reads++
	pending, held := len(r.fr.data), r.fr.share.held
	switch {
	case pending == 0 && held != 0:
		r.t.Fatalf("read %d: waiting between frames with a buffer of %d bytes", r.reads, held)
	case held > 2*pending:
		r.t.Fatalf("read %d: %d bytes of a frame held in a buffer of %d", r.reads, pending, held)
	}
	n := copy(p[:min(len(p), r.step)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// An unfinished frame is held in a buffer that grows with the bytes that
// arrive (never to the frame limit at once), and nothing is held between
// frames, however the bytes come.
func TestFrameReaderHoldsWhatArrived(t *testing.T) {
	frames := []string{strings.Repeat("a", 20000), "short", strings.Repeat("b", 9000)}
	stream := []byte(strings.Join(frames, "\n") + "\n")
	for _, step := range []int{1, 7, 1000, chunkSize, 15000} {
		b := NewFrameBudget(1 << 20)
		var stats Counters
		r := &stepReader{t: t, data: stream, step: step}
		fr := NewFrameReader(r, bufio.ScanLines, 64<<10)
		fr.share = b.join(&stats, nil)
		r.fr = fr
		var got []string
		for {
			frame, err := fr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			got = append(got, string(bytes.Clone(frame)))
		}
		if strings.Join(got, "\n") != strings.Join(frames, "\n") {
			t.Errorf("step %d: frames differ", step)
		}
		if b.Used() != 0 || stats.Buffered.Load() != 0 {
			t.Errorf("step %d: %d bytes held after the stream ended", step, b.Used())
		}
	}
}
