package protocols_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// fullDisk is the real store whose group commits fail as bbolt's do on a
// full disk while full is set.
type fullDisk struct {
	*storage.DB
	full atomic.Bool
}

func (d *fullDisk) Batch(fn func(model.Tx) error) error {
	if d.full.Load() {
		return &fs.PathError{Op: "write", Path: "fleetd.db", Err: syscall.ENOSPC}
	}
	return d.DB.Batch(fn)
}

// lockedBuffer collects log lines written from the listeners' goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// lines returns the log lines whose msg is one of msgs.
func (l *lockedBuffer) lines(t *testing.T, msgs ...string) []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		for _, msg := range msgs {
			if m["msg"] == msg {
				out = append(out, m)
			}
		}
	}
	return out
}

// While the disk is full, 200 devices (TCP and HTTP) report every 10 s of
// the server's clock: none is acknowledged, and the log gets one line per
// 30 s with the counts instead of one per message. Once the disk has room,
// acknowledgements resume and one line says so, with the failures not yet
// reported: every failed position is counted exactly once.
func TestDiskFullLogsOneLinePerWindow(t *testing.T) {
	db := storagetest.Open(t)
	store := &fullDisk{DB: db}
	var logs lockedBuffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	var mu sync.Mutex
	now := base.Add(time.Hour)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	core := app.New(store, app.Options{BcryptCost: 4, Now: clock, Logger: log})
	tcp, err := protocols.Listen(lineProto{}, "127.0.0.1:0", core.Ingest, protocols.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tcp.Close() })
	web, err := protocols.ListenHTTP(osmandEntry(t), "127.0.0.1:0", core.Ingest, protocols.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { web.Close() })

	// report sends one position of a device and tells whether it was
	// acknowledged: over TCP, an ACK comes before the reply to the
	// identification frame sent after it; over HTTP, 200.
	type device struct {
		uid  string
		conn net.Conn
		r    *bufio.Reader
	}
	report := func(d *device, seq int) (bool, error) {
		if d.conn == nil {
			resp, err := http.Get(fmt.Sprintf("http://%s/?id=%s&timestamp=%d&lat=54.9&lon=24.1", web.Addr(), d.uid, base.Unix()+int64(seq)))
			if err != nil {
				return false, err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK, nil
		}
		if _, err := fmt.Fprintf(d.conn, "%s,%d\nid,%s\n", d.uid, seq, d.uid); err != nil {
			return false, err
		}
		acked := false
		for {
			line, err := d.r.ReadString('\n')
			switch {
			case err != nil:
				return false, err
			case line == fmt.Sprintf("ok %d\n", seq):
				acked = true
			case line == "hello\n":
				return acked, nil
			}
		}
	}
	const devices = 200
	var all []*device
	for i := range devices {
		uid := fmt.Sprintf("dev-%03d", i)
		if _, err := core.Fleet.Devices.Create(model.System(), func(d *model.Device) error { d.Name, d.UniqueID = uid, uid; return nil }); err != nil {
			t.Fatal(err)
		}
		d := &device{uid: uid}
		if i%2 == 0 {
			if d.conn, err = net.Dial("tcp", tcp.Addr().String()); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d.conn.Close() })
			d.conn.SetDeadline(time.Now().Add(time.Minute))
			d.r = bufio.NewReader(d.conn)
			fmt.Fprintf(d.conn, "id,%s\n", uid)
			if line, err := d.r.ReadString('\n'); line != "hello\n" {
				t.Fatalf("identification: %q, %v", line, err)
			}
		}
		all = append(all, d)
	}
	// round makes every device report once at the server's time at and
	// returns how many were acknowledged.
	round := func(at time.Duration, seq int) int {
		mu.Lock()
		now = base.Add(time.Hour + at)
		mu.Unlock()
		var acked atomic.Int64
		var wg sync.WaitGroup
		for _, d := range all {
			wg.Go(func() {
				ok, err := report(d, seq)
				if err != nil {
					t.Errorf("%s: %v", d.uid, err)
				}
				if ok {
					acked.Add(1)
				}
			})
		}
		wg.Wait()
		return int(acked.Load())
	}

	store.full.Store(true)
	for i, at := range []time.Duration{0, 10 * time.Second, 20 * time.Second, 30 * time.Second, 40 * time.Second} {
		if n := round(at, i+1); n != 0 {
			t.Fatalf("round at %s on a full disk: %d acknowledged", at, n)
		}
	}
	store.full.Store(false)
	if n := round(70*time.Second, 6); n != devices {
		t.Fatalf("after the disk has room: %d of %d acknowledged", n, devices)
	}

	lines := logs.lines(t, "positions not stored", "positions stored again")
	type summary struct {
		msg             string
		positions, devs float64
		over            any
	}
	var got []summary
	total := 0.0
	for _, l := range lines {
		s := summary{msg: l["msg"].(string), devs: num(l["devices"]), over: l["over"]}
		s.positions = num(l["positions"]) + num(l["notStored"])
		total += s.positions
		got = append(got, s)
	}
	want := []summary{
		{"positions not stored", 1, 1, "0s"},            // the first failure, at once
		{"positions not stored", 600, devices, "30s"},   // the next after 30 s: 3 rounds
		{"positions stored again", 399, devices, "40s"}, // the rest of 30 s, and 40 s
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("log lines %v, want %v", got, want)
	}
	if total != 5*devices {
		t.Errorf("the lines count %v failed positions, want %d", total, 5*devices)
	}
	for _, l := range logs.lines(t, "positions not stored") {
		if !strings.Contains(fmt.Sprint(l["err"]), "no space left on device") {
			t.Errorf("line without the error: %v", l)
		}
	}
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
