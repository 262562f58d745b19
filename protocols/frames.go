package protocols

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"time"
)

var (
	// ErrFrameTimeout ends a connection whose frame was not whole within
	// the frame timeout of its first byte.
	ErrFrameTimeout = errors.New("frame not finished in time")
	// ErrOverBudget ends a connection whose unfinished frame was dropped to
	// keep the frame budget.
	ErrOverBudget = errors.New("unfinished frame dropped: frame budget spent")
	// errSplit is a Split that advanced out of its data, or returned a
	// frame without advancing (which would return it forever).
	errSplit = errors.New("split made no progress")
)

// chunkSize is the read buffer: real frames fit in one, most in one read.
const chunkSize = 4 << 10

// quietPerByte paces Split over a long unfinished frame. Split looks at
// all the bytes waiting each time, so a frame trickled a byte per read would
// cost the square of its length: once a frame has grown by less than an
// eighth since Split last asked for more, it is split again only when no
// byte has come for this long per byte waiting (33 ms for a 128 KiB frame,
// a quarter of a millisecond for 1 KiB).
const quietPerByte = 250 * time.Nanosecond

// chunks are the read buffers, shared by all connections: a connection
// holds one only while the bytes of a read are being cut into frames.
var chunks = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// FrameReader cuts a byte stream into frames with a protocol's Split
// (bufio.SplitFunc) and costs about as many bytes as the stream has sent
// and not yet finished. Reads go into a pooled chunk; an unfinished frame
// waits for its remaining bytes in a buffer of its own that grows only with
// the bytes that arrive, up to the frame limit and as the budget allows;
// between frames a listener's connection holds no buffer (where the
// platform lets it wait for bytes without one: see chunkReader).
//
// On a listener's connection the reader also keeps time: a frame must be
// whole within the frame timeout of its first byte, and a connection must
// complete a frame at least every idle timeout. Neither is moved by bytes
// that finish no frame, so trickling bytes keeps no connection open.
type FrameReader struct {
	split bufio.SplitFunc
	max   int
	// read reads at most limit bytes into a chunk from the pool (nil when
	// it read nothing).
	read func(limit int) (*[chunkSize]byte, int, error)

	// Set for a listener's connection (zero: no deadlines, no budget).
	conn          net.Conn
	idle, timeout time.Duration
	share         *budgetShare

	data  []byte           // bytes not cut yet, in chunk or in own
	chunk *[chunkSize]byte // the read buffer, while data may be in it
	own   []byte           // where an unfinished frame waits; its capacity is in the budget
	err   error            // the read error that ends the stream once data is cut
	asked int              // len(data) when Split last asked for more (0: split at once)

	readAt    time.Time // the last read
	started   time.Time // when data's first byte arrived
	lastFrame time.Time // when the last frame was cut (or the reader made)
}

// NewFrameReader cuts r's bytes into frames of at most maxFrame bytes with
// split, as a listener does (without its deadlines and budget).
func NewFrameReader(r io.Reader, split bufio.SplitFunc, maxFrame int) *FrameReader {
	now := time.Now()
	return &FrameReader{split: split, max: maxFrame, read: readerChunks(r), readAt: now, lastFrame: now}
}

// readerChunks reads r into chunks, waiting for bytes with one in hand.
func readerChunks(r io.Reader) func(limit int) (*[chunkSize]byte, int, error) {
	return func(limit int) (*[chunkSize]byte, int, error) {
		chunk := chunks.Get().(*[chunkSize]byte)
		n, err := r.Read(chunk[:limit])
		return chunk, n, err
	}
}

// headFirst reads head in chunks, then goes on with next.
func headFirst(head []byte, next func(limit int) (*[chunkSize]byte, int, error)) func(limit int) (*[chunkSize]byte, int, error) {
	return func(limit int) (*[chunkSize]byte, int, error) {
		if len(head) == 0 {
			return next(limit)
		}
		chunk := chunks.Get().(*[chunkSize]byte)
		n := copy(chunk[:limit], head)
		head = head[n:]
		return chunk, n, nil
	}
}

// connFrameReader is the frame reader of a listener's connection: with the
// listener's deadlines and frame limit, and a share of its budget.
func connFrameReader(nc net.Conn, split bufio.SplitFunc, o *Options, stats *Counters) *FrameReader {
	f := NewFrameReader(nc, split, o.MaxFrame)
	f.read, f.conn, f.idle, f.timeout = chunkReader(nc), nc, o.IdleTimeout, o.FrameTimeout
	if pc, ok := nc.(*prefixConn); ok {
		// The shared port read the first bytes: they come first, then the
		// connection is read as on the protocol's own port.
		f.read = headFirst(pc.head, chunkReader(pc.Conn))
	}
	f.share = o.Budget.join(stats, nc.Close)
	return f
}

// Next returns the next frame, valid until the next call. The stream ends
// with the read error (io.EOF when the peer closed it), bufio.ErrTooLong
// for a frame longer than the limit, ErrFrameTimeout, ErrOverBudget, or
// Split's error; everything is released then.
func (f *FrameReader) Next() ([]byte, error) {
	for {
		if len(f.data) > 0 && f.err == nil && !f.grownLittle() || f.err == io.EOF {
			atEOF := f.err == io.EOF
			advance, frame, err := f.cut(atEOF)
			switch {
			case err != nil:
				return nil, f.end(err)
			case advance < 0 || advance > len(f.data) || frame != nil && advance == 0:
				return nil, f.end(errSplit)
			}
			f.data, f.asked = f.data[advance:], 0
			if frame != nil {
				// Bytes after the frame came in its last read: the next
				// frame starts then.
				f.lastFrame, f.started = f.readAt, f.readAt
				return frame, nil
			}
			if advance > 0 {
				continue // skipped bytes that start no frame
			}
			if atEOF {
				return nil, f.end(io.EOF)
			}
			f.asked = len(f.data)
		}
		if f.err != nil {
			return nil, f.end(f.err)
		}
		f.fill()
	}
}

// SplitPanic is the error of a Split that panicked: a bug that closes one
// connection, never the listener.
type SplitPanic struct {
	Value any
	Stack []byte
}

func (p *SplitPanic) Error() string { return fmt.Sprintf("split panicked: %v", p.Value) }

// cut runs split over data.
func (f *FrameReader) cut(atEOF bool) (advance int, frame []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			advance, frame, err = 0, nil, &SplitPanic{Value: r, Stack: debug.Stack()}
		}
	}()
	return f.split(f.data, atEOF)
}

// Close releases the reader's buffers and budget share, when its
// connection ends before the stream does.
func (f *FrameReader) Close() { f.end(nil) }

// fill reads once more, or sets f.err.
func (f *FrameReader) fill() {
	if len(f.data) >= f.max {
		f.err = bufio.ErrTooLong
		return
	}
	// Wait with the unfinished frame in a buffer of its own size, not in
	// a chunk; with nothing unfinished, wait holding no buffer at all.
	if !f.hold(len(f.data)) {
		f.err = ErrOverBudget
		return
	}
	var quiet time.Time // when an unfinished frame that grew little is split anyway
	if f.conn != nil {
		deadline := f.lastFrame.Add(f.idle)
		if len(f.data) > 0 {
			deadline = f.started.Add(f.timeout)
		}
		if f.grownLittle() {
			quiet = time.Now().Add(time.Duration(len(f.data)) * quietPerByte)
		}
		if !quiet.IsZero() && quiet.Before(deadline) {
			f.conn.SetReadDeadline(quiet)
		} else {
			f.conn.SetReadDeadline(deadline)
			quiet = time.Time{}
		}
	}
	chunk, n, err := f.read(min(chunkSize, f.max-len(f.data)))
	f.readAt = time.Now()
	switch {
	case n == 0:
		if chunk != nil {
			chunks.Put(chunk)
		}
	case len(f.data) == 0:
		f.data, f.chunk, f.started = chunk[:n], chunk, f.readAt
	default:
		need := len(f.data) + n
		if need <= cap(f.own) {
			f.data = append(f.own[:len(f.data)], chunk[:n]...)
			chunks.Put(chunk)
			break
		}
		// The chunk goes back before the budget is asked, which may wait:
		// a connection waits holding only what it asks to hold.
		size := min(f.max, max(need, cap(f.own)*3/2))
		f.own = append(append(make([]byte, 0, size), f.data...), chunk[:n]...)
		f.data = f.own
		chunks.Put(chunk)
		if !f.share.resize(size) {
			f.err = ErrOverBudget
			return
		}
	}
	switch {
	case err == nil:
	case n == 0 && !quiet.IsZero() && errors.Is(err, os.ErrDeadlineExceeded):
		f.asked = 0 // quiet long enough: split what there is
	default:
		f.err = f.why(err)
	}
}

// grownLittle reports whether the unfinished frame has grown, but by less
// than an eighth, since Split last asked for more. Only a listener's
// connection, which has read deadlines to end the wait, paces Split; and
// never once the bytes waiting reach the frame limit, where the reader
// reads no more: they may hold a whole frame and the start of the next,
// which Split must see before the frame is called too long.
func (f *FrameReader) grownLittle() bool {
	return f.conn != nil && f.asked > 0 && len(f.data) > f.asked && len(f.data) < f.asked+f.asked/8 &&
		len(f.data) < f.max
}

// hold makes own the home of data, for a wait for more bytes: data moves
// to its front, into a buffer of its size when own is too small or more
// than twice too big (a buffer grown for a long frame is not kept for
// short ones), and the chunk goes back. Size 0 frees own. False when the
// budget refuses.
func (f *FrameReader) hold(size int) bool {
	switch c := cap(f.own); {
	case size == 0:
		f.own = nil
	case c < size || c > 2*size:
		f.own = append(make([]byte, 0, size), f.data...)
		f.data = f.own
	default:
		if own := f.own[:len(f.data)]; &own[0] != &f.data[0] {
			copy(own, f.data)
			f.data = own
		}
		return true // its size is counted already
	}
	if f.chunk != nil {
		chunks.Put(f.chunk)
		f.chunk = nil
	}
	return f.share.resize(size)
}

// why names the reason a read failed.
func (f *FrameReader) why(err error) error {
	switch {
	case f.share.dropped():
		return ErrOverBudget
	case len(f.data) > 0 && errors.Is(err, os.ErrDeadlineExceeded):
		return ErrFrameTimeout
	}
	return err
}

// end releases everything and returns err.
func (f *FrameReader) end(err error) error {
	f.data, f.err = nil, err
	f.hold(0)
	return err
}
