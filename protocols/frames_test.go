package protocols_test

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/protocols"
)

// closedBy reports, once r's connection ends, on the returned channel.
func closedBy(r *bufio.Reader) <-chan struct{} {
	closed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, r)
		close(closed)
	}()
	return closed
}

// trickle writes b every 20 ms until the server closes c or 250 bytes (5 s)
// are written, and reports whether the server closed it.
func trickle(c net.Conn, closed <-chan struct{}, b byte) bool {
	for range 250 {
		c.SetWriteDeadline(time.Now().Add(time.Second))
		c.Write([]byte{b})
		select {
		case <-closed:
			return true
		case <-time.After(20 * time.Millisecond):
		}
	}
	return false
}

// A connection is kept open by frames, not by bytes: one that dribbles a
// frame that never ends, or noise that is no frame, is closed although
// every byte arrives long before the idle timeout.
func TestListenerBytesKeepNoConnection(t *testing.T) {
	tests := []struct {
		name        string
		opts        protocols.Options
		start       string // sent at once
		dribble     byte   // then this, every 20 ms
		wantTimeout uint64 // frames counted as not finished in time
	}{
		{"a frame must be whole within the frame timeout", protocols.Options{IdleTimeout: time.Minute, FrameTimeout: 200 * time.Millisecond},
			"dev1,1", '1', 1},
		{"the idle timeout runs from the last frame", protocols.Options{IdleTimeout: 300 * time.Millisecond, FrameTimeout: time.Minute},
			"dev1,1\n", '\r', 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, ingest.Options{}, tt.opts)
			e.device("dev1")
			c, r := e.dial()
			c.SetReadDeadline(time.Time{})
			io.WriteString(c, tt.start)
			if !trickle(c, closedBy(r), tt.dribble) {
				t.Fatal("the connection is still open after 5 s of bytes that finish no frame")
			}
			if got := e.srv.Stats.TimedOut.Load(); got != tt.wantTimeout {
				t.Errorf("frames timed out = %d, want %d", got, tt.wantTimeout)
			}
		})
	}
}

// Listeners sharing a frame budget: when a frame's growth would exceed it,
// the largest unfinished frame (on whichever listener) is dropped and its
// connection closed; the others go on.
func TestListenerFrameBudget(t *testing.T) {
	tests := []struct {
		name          string
		first, second int    // bytes of unfinished frame sent on each connection
		more          int    // then sent on the second
		dropped       string // "first" or "second"
	}{
		{"the largest other frame is dropped", 6000, 3000, 3000, "first"},
		{"the growing frame, when the largest, is dropped", 3000, 3000, 5000, "second"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			budget := protocols.NewFrameBudget(10 << 10)
			e := newEnv(t, ingest.Options{}, protocols.Options{Budget: budget})
			e.device("dev1")
			other, err := protocols.Listen(lineProto{}, "127.0.0.1:0", e.core.Ingest, protocols.Options{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })

			c1, r1 := e.dial()
			io.WriteString(c1, strings.Repeat("x", tt.first))
			waitBuffered(t, e.srv, tt.first)
			c2, err := net.Dial("tcp", other.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c2.Close()
			c2.SetDeadline(time.Now().Add(10 * time.Second))
			r2 := bufio.NewReader(c2)
			io.WriteString(c2, strings.Repeat("x", tt.second))
			waitBuffered(t, other, tt.second)
			io.WriteString(c2, strings.Repeat("x", tt.more))

			gone, kept, goneSrv, keptSrv, keptConn := r1, r2, e.srv, other, c2
			if tt.dropped == "second" {
				gone, kept, goneSrv, keptSrv, keptConn = r2, r1, other, e.srv, c1
			}
			if _, err := gone.ReadString('\n'); err == nil {
				t.Fatalf("the %s connection is still open", tt.dropped)
			}
			if goneSrv.Stats.Evicted.Load() != 1 || keptSrv.Stats.Evicted.Load() != 0 {
				t.Errorf("evicted %d and %d, want 1 on the dropped frame's listener only",
					goneSrv.Stats.Evicted.Load(), keptSrv.Stats.Evicted.Load())
			}
			// The other connection ends its long (undecodable) frame and
			// is served.
			io.WriteString(keptConn, "\ndev1,7\n")
			if got := readLine(t, kept); got != "ok 7" {
				t.Fatalf("the kept connection answered %q, want ok 7", got)
			}
			// Its buffer goes back once the frame after the ACK is awaited.
			for deadline := time.Now().Add(10 * time.Second); budget.Used() != 0; time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("budget holds %d bytes with no frame unfinished, want 0", budget.Used())
				}
			}
		})
	}
}

// waitBuffered waits until srv holds at least n bytes of unfinished frames.
func waitBuffered(t *testing.T, srv *protocols.Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); srv.Stats.Buffered.Load() < int64(n); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("listener holds %d bytes, want %d", srv.Stats.Buffered.Load(), n)
		}
	}
}

// countingProto is lineProto counting its Split calls.
type countingProto struct {
	lineProto
	splits *atomic.Int64
}

func (p countingProto) Split(data []byte, atEOF bool) (int, []byte, error) {
	p.splits.Add(1)
	return p.lineProto.Split(data, atEOF)
}

// A long frame sent in many small pieces is not split again on every
// piece: Split looks at every byte waiting, so that would cost the square
// of the frame's length. The frame still arrives whole and is answered.
func TestListenerPacesSplit(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	e.device("dev1")
	var splits atomic.Int64
	srv, err := protocols.Listen(countingProto{splits: &splits}, "127.0.0.1:0", e.core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	// 60,000 bytes in 1,000 writes of 60 (undecodable), apart so that
	// each is a read of its own, then a fix.
	piece := []byte(strings.Repeat("x", 60))
	for range 1000 {
		if _, err := c.Write(piece); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Microsecond)
	}
	io.WriteString(c, "\ndev1,9\n")
	if got := readLine(t, bufio.NewReader(c)); got != "ok 9" {
		t.Fatalf("reply %q, want ok 9", got)
	}
	if n := splits.Load(); n > 500 {
		t.Errorf("Split ran %d times for 2 frames sent in 1,001 writes, want at most 500", n)
	}
}

// A device's frame just under the frame limit, sent with more frames
// right behind it, is answered like any other frame.
func TestListenerFrameNearTheLimit(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{MaxFrame: 64 << 10})
	e.device("dev1")
	for _, size := range []int{60 << 10, 63 << 10, 64<<10 - 1} {
		c, r := e.dial()
		// "dev1,00…01": a fix (seq 1) of size bytes, then 1,000 more.
		io.WriteString(c, "dev1,"+strings.Repeat("0", size-6)+"1\n"+strings.Repeat("dev1,2\n", 1000))
		if got := readLine(t, r); got != "ok 1" {
			t.Fatalf("a %d-byte frame: reply %q, want ok 1", size, got)
		}
		c.Close()
	}
	if n := e.srv.Stats.Oversized.Load(); n != 0 {
		t.Errorf("%d frames under the limit refused as too long", n)
	}
}
