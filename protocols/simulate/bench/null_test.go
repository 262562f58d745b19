package bench

import (
	"bytes"
	"context"
	"encoding/hex"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// The null server answers as fleetd does (the frames of TestKill9): the
// login with 0x01 and a position with its type, echoing the serial.
func TestNullGT06(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- NullGT06(ctx, ln) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	for _, x := range []struct{ frame, reply string }{
		{"78780D01086471700328358100093F040D0A", "78780501000955940d0a"},
		{"78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a", "787805120003903f0d0a"},
	} {
		f, _ := hex.DecodeString(x.frame)
		want, _ := hex.DecodeString(x.reply)
		// Split in two writes: frames are cut from the stream.
		conn.Write(f[:5])
		time.Sleep(10 * time.Millisecond)
		conn.Write(f[5:])
		got := make([]byte, len(want))
		if _, err := io.ReadFull(conn, got); err != nil || !bytes.Equal(got, want) {
			t.Errorf("reply to %s = %x (%v), want %x", x.frame, got, err, want)
		}
	}
	cancel() // closes the listener and the connection
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("the connection is still open")
	}
}

func TestReadMemory(t *testing.T) {
	m, err := readMemory(os.Getpid())
	if err != nil || m.rss <= 1<<20 || m.hwm < m.rss || m.anon <= 0 || m.anon+m.file > m.rss {
		t.Errorf("readMemory = %+v, %v", m, err)
	}
	var used time.Duration
	for deadline := time.Now().Add(5 * time.Second); err == nil && used == 0 && time.Now().Before(deadline); {
		used, err = cpuTime("self") // 0 until a tick of CPU is used: the loop uses it
	}
	if err != nil || used <= 0 {
		t.Errorf("cpuTime(self) = %v, %v", used, err)
	}
}
