package protocols_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/protocols"
)

// The HTTP listener speaks HTTP/1.1 over raw connections: requests are
// answered in order on a kept-alive connection, bodies may be chunked, and
// the connection closes when the client asks or the request is not HTTP.
func TestHTTPListenerConnection(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	d := e.device("123456")
	srv, err := protocols.ListenHTTP(osmandEntry(t), "127.0.0.1:0", e.core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	seq := 0
	fix := func(version, headers string) string {
		seq++
		return fmt.Sprintf("GET /?id=123456&timestamp=%d&lat=60&lon=30 HTTP/%s\r\nHost: fleetd\r\n%s\r\n", 1767225600+seq, version, headers)
	}
	form := fmt.Sprintf("id=123456&timestamp=%d&lat=60&lon=30", 1767229999)
	tests := []struct {
		name   string
		send   string
		want   []int // response statuses, in order
		closed bool  // then the server closes the connection
		stored int   // positions stored by then, in all (a kept connection sends one more fix)
	}{
		{"pipelined requests are answered in order", fix("1.1", "") + fix("1.1", ""), []int{200, 200}, false, 3},
		{"a chunked body", "POST / HTTP/1.1\r\nHost: fleetd\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n" +
			fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(form), form), []int{200}, false, 5},
		{"an unknown device is answered 404 and kept", "GET /?id=999&lat=60&lon=30 HTTP/1.1\r\nHost: fleetd\r\n\r\n", []int{404}, false, 6},
		{"Connection: close", fix("1.1", "Connection: close\r\n"), []int{200}, true, 7},
		{"HTTP/1.0", fix("1.0", ""), []int{200}, true, 8},
		{"not HTTP", "HELLO\r\n\r\n", []int{400}, true, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", srv.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			r := bufio.NewReader(c)
			io.WriteString(c, tt.send)
			for _, want := range tt.want {
				resp, err := http.ReadResponse(r, nil)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				if resp.StatusCode != want || resp.Close != tt.closed {
					t.Fatalf("status %d, close %v; want %d, %v", resp.StatusCode, resp.Close, want, tt.closed)
				}
			}
			if tt.closed {
				if _, err := r.ReadByte(); err != io.EOF {
					t.Fatalf("after the response: %v, want the connection closed", err)
				}
			} else {
				io.WriteString(c, fix("1.1", ""))
				if resp, err := http.ReadResponse(r, nil); err != nil || resp.StatusCode != 200 {
					t.Fatalf("next request on the connection: %v", err)
				}
			}
			if got := len(e.positions(d.ID)); got != tt.stored {
				t.Errorf("stored %d positions, want %d", got, tt.stored)
			}
		})
	}
}

// An unfinished request costs what has arrived of it, in the frame budget,
// and must be whole within the frame timeout like any device frame.
func TestHTTPListenerUnfinishedRequests(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	srv, err := protocols.ListenHTTP(osmandEntry(t), "127.0.0.1:0", e.core.Ingest, protocols.Options{FrameTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dial := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", srv.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c, bufio.NewReader(c)
	}

	c, r := dial()
	io.WriteString(c, "GET /?id=1")
	if !trickle(c, closedBy(r), 'a') {
		t.Fatal("a request trickled for 5 s is still being read")
	}
	if got := srv.Stats.TimedOut.Load(); got != 1 {
		t.Errorf("requests timed out = %d, want 1", got)
	}

	// 20,000 of a body's 60,000 bytes: held as they came, then released.
	c, _ = dial()
	io.WriteString(c, "POST / HTTP/1.1\r\nContent-Length: 60000\r\n\r\n"+strings.Repeat("a", 20000))
	waitBuffered(t, srv.Server, 20000)
	if held := srv.Stats.Buffered.Load(); held > 40000 {
		t.Errorf("20,000 bytes of a request held in %d", held)
	}
	c.Close()
	for deadline := time.Now().Add(10 * time.Second); srv.Stats.Buffered.Load() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes still held after the client left", srv.Stats.Buffered.Load())
		}
	}
}

// A client that asks to be told to send its body (Expect: 100-continue,
// as curl does for bodies over 1 KiB) is told at once, not left to its
// own timeout; once the body came it is answered as usual.
func TestHTTPListenerExpectContinue(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	d := e.device("123456")
	srv, err := protocols.ListenHTTP(osmandEntry(t), "127.0.0.1:0", e.core.Ingest, protocols.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	for i, body := range []string{"id=123456&timestamp=1767225600&lat=60&lon=30", "id=123456&timestamp=1767225660&lat=60&lon=30.1"} {
		io.WriteString(c, fmt.Sprintf("POST / HTTP/1.1\r\nHost: fleetd\r\nContent-Type: application/x-www-form-urlencoded\r\n"+
			"Content-Length: %d\r\nexpect: 100-Continue\r\n\r\n", len(body)))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if line, err := r.ReadString('\n'); err != nil || line != "HTTP/1.1 100 Continue\r\n" {
			t.Fatalf("request %d: %q, %v; want 100 Continue first", i, line, err)
		}
		if line, err := r.ReadString('\n'); err != nil || line != "\r\n" {
			t.Fatalf("request %d: after 100 Continue %q, %v", i, line, err)
		}
		io.WriteString(c, body)
		resp, err := http.ReadResponse(r, nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("request %d: %v, %v", i, resp, err)
		}
		io.Copy(io.Discard, resp.Body)
	}
	if got := len(e.positions(d.ID)); got != 2 {
		t.Errorf("stored %d positions, want 2", got)
	}
}
