package control

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// switchboard is a maintenance switch in memory.
type switchboard struct {
	mu sync.Mutex
	on bool
}

func (s *switchboard) Maintenance() (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.on, nil
}

func (s *switchboard) SetMaintenance(on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = on
	return nil
}

// listen serves the socket in a fresh directory with backup as the store's
// backup.
func listen(t *testing.T, backup func(io.Writer) (int64, error)) (Client, *switchboard) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fleetd.sock")
	m := &switchboard{}
	s, err := Listen(path, backup, m, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return Client{Socket: path}, m
}

func TestBackup(t *testing.T) {
	store := bytes.Repeat([]byte("page"), 1<<12)
	c, _ := listen(t, func(w io.Writer) (int64, error) {
		n, err := w.Write(store)
		return int64(n), err
	})
	var got bytes.Buffer
	if n, err := c.Backup(context.Background(), &got); err != nil || n != int64(len(store)) || !bytes.Equal(got.Bytes(), store) {
		t.Fatalf("Backup = %d bytes, %v; want the %d bytes of the store", n, err, len(store))
	}
}

// A backup that fails on the server's side breaks the stream off: the
// client does not take the part it got for a whole copy.
func TestBackupBrokenOff(t *testing.T) {
	c, _ := listen(t, func(w io.Writer) (int64, error) {
		n, _ := w.Write(bytes.Repeat([]byte("page"), 1<<12))
		return int64(n), errors.New("disk read failed")
	})
	if _, err := c.Backup(context.Background(), io.Discard); err == nil || !strings.Contains(err.Error(), "broke off") {
		t.Fatalf("Backup = %v, want the stream broken off", err)
	}
}

func TestMaintenance(t *testing.T) {
	c, m := listen(t, nil)
	ctx := context.Background()
	for _, step := range []struct {
		action string
		want   bool
	}{{"status", false}, {"on", true}, {"status", true}, {"off", false}} {
		if on, err := c.Maintenance(ctx, step.action); err != nil || on != step.want {
			t.Fatalf("%s: %v, %v; want %v", step.action, on, err, step.want)
		}
		if on, _ := m.Maintenance(); on != step.want {
			t.Fatalf("%s left the switch %v", step.action, on)
		}
	}
	if _, err := c.Maintenance(ctx, "sideways"); err == nil || !strings.Contains(err.Error(), "400") {
		t.Errorf("a bad action: %v, want a 400 answer", err)
	}
}

// The socket is its owner's only; a crashed server's socket file is
// replaced, any other file is not; Close removes the socket.
func TestSocketFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fleetd.sock")
	log := slog.New(slog.DiscardHandler)
	s, err := Listen(path, nil, &switchboard{}, log)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket file %v, %v; want mode 0600", fi, err)
	}
	s.Close()
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the socket file after Close: %v", err)
	}

	crashed, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	crashed.SetUnlinkOnClose(false) // a crash leaves the file
	crashed.Close()
	s, err = Listen(path, nil, &switchboard{}, log)
	if err != nil {
		t.Fatalf("a crashed server's socket file is not replaced: %v", err)
	}
	if on, err := (Client{Socket: path}).Maintenance(context.Background(), "status"); err != nil || on {
		t.Errorf("the new socket answers %v, %v", on, err)
	}
	s.Close()

	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := Listen(file, nil, &switchboard{}, log); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("a plain file at the path: %v", err)
	}
	long := filepath.Join(dir, strings.Repeat("d", maxSocketPath), "fleetd.sock")
	if _, err := Listen(long, nil, &switchboard{}, log); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("a path past %d bytes: %v", maxSocketPath, err)
	}
	if _, err := (Client{Socket: file}).Maintenance(context.Background(), "status"); err == nil ||
		!strings.Contains(err.Error(), "does not answer") {
		t.Errorf("a client of no server: %v", err)
	}
}
