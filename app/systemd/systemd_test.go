package systemd

import (
	"net"
	"path/filepath"
	"testing"
	"time"
)

func TestSend(t *testing.T) {
	if err := send("", "READY=1"); err != nil {
		t.Errorf("without NOTIFY_SOCKET: %v", err)
	}
	path := filepath.Join(t.TempDir(), "notify")
	ln, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := send(path, "READY=1"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	ln.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := ln.Read(buf)
	if err != nil || string(buf[:n]) != "READY=1" {
		t.Errorf("datagram = %q, %v", buf[:n], err)
	}
	if err := send(filepath.Join(t.TempDir(), "absent"), "READY=1"); err == nil {
		t.Error("no error for a missing socket")
	}
}
