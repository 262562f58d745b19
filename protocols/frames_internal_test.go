package protocols

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strings"
	"testing"
	"time"
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

// A frame just under the limit that arrives in full reads together with
// the frames after it is cut, not refused as too long: pacing may leave a
// full buffer unsplit only while there is room to read into it.
func TestFrameReaderFrameNearTheLimit(t *testing.T) {
	const limit = 64 << 10
	for size := limit - 8<<10; size < limit; size += 500 {
		stream := []byte(strings.Repeat("a", size) + "\n" + strings.Repeat("b\n", 4000))
		local, remote := net.Pipe()
		fr := NewFrameReader(nil, bufio.ScanLines, limit)
		// A listener's reader (it paces Split), its reads full chunks.
		fr.conn, fr.idle, fr.timeout = local, time.Minute, time.Minute
		fr.read = func(limit int) (*[chunkSize]byte, int, error) {
			if len(stream) == 0 {
				return nil, 0, io.EOF
			}
			chunk := chunks.Get().(*[chunkSize]byte)
			n := copy(chunk[:limit], stream)
			stream = stream[n:]
			return chunk, n, nil
		}
		frame, err := fr.Next()
		if err != nil || len(frame) != size {
			t.Errorf("a %d-byte frame then more: %d bytes, %v", size, len(frame), err)
		}
		if frame, err = fr.Next(); err != nil || string(frame) != "b" {
			t.Errorf("after a %d-byte frame: %q, %v", size, frame, err)
		}
		fr.Close()
		local.Close()
		remote.Close()
	}
}
