package protocols_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/storage"
)

// lineProto is a minimal text protocol for exercising the listener itself:
// "uid,seq\n" reports a fix at base+seq seconds and is acknowledged with
// "ok seq\n"; "id,uid\n" only identifies; "boom\n" panics the decoder. A
// '\r' between frames is noise, skipped; a NUL byte panics the Split.
type lineProto struct{}

var base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (lineProto) Name() string { return "line" }

func (lineProto) Split(data []byte, atEOF bool) (int, []byte, error) {
	switch {
	case len(data) > 0 && data[0] == 0:
		panic("split bug")
	case len(data) > 0 && data[0] == '\r':
		return 1, nil, nil
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	return 0, nil, nil
}

func (lineProto) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	s := string(frame)
	if s == "boom" {
		panic("decoder bug")
	}
	if uid, ok := strings.CutPrefix(s, "id,"); ok {
		return protocols.Result{UniqueID: uid, Reply: []byte("hello\n")}, nil
	}
	uid, seqText, ok := strings.Cut(s, ",")
	seq, err := strconv.Atoi(seqText)
	if !ok || err != nil {
		return protocols.Result{}, errors.New("bad frame")
	}
	p := &model.Position{FixTime: base.Add(time.Duration(seq) * time.Second), Valid: true,
		Latitude: 54.9 + float64(seq)*1e-4, Longitude: 24, Speed: 10, Attributes: model.Attributes{"seq": seq}}
	return protocols.Result{UniqueID: uid, Positions: []*model.Position{p}, Ack: []byte(fmt.Sprintf("ok %d\n", seq))}, nil
}

func (lineProto) CommandTypes() []string { return []string{"custom"} }

func (lineProto) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	if cmd.Type != "custom" {
		return nil, model.Invalid("unsupported")
	}
	return []byte(fmt.Sprint(cmd.Attributes["data"], "\n")), nil
}

type env struct {
	t     *testing.T
	path  string
	db    *storage.DB
	core  *app.Core
	srv   *protocols.Server
	admin *model.User
}

func newEnv(t *testing.T, ingest ingest.Options, opts protocols.Options) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "fleetd.db")}
	db, err := storage.Open(e.path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.db = db
	types := catalog.CommandTypes()
	types["line"] = lineProto{}.CommandTypes()
	e.core = app.New(db, app.Options{Ingest: ingest, BcryptCost: 4, CommandTypes: types})
	if e.admin, _, err = e.core.Accounts.Bootstrap("admin@example.com", "secret"); err != nil {
		t.Fatal(err)
	}
	e.srv, err = protocols.Listen(lineProto{}, "127.0.0.1:0", e.core.Ingest, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.srv.Close(); e.db.Close() })
	return e
}

func (e *env) device(uid string) *model.Device {
	e.t.Helper()
	d, err := e.core.Fleet.Devices.Create(e.admin, func(d *model.Device) error { d.Name, d.UniqueID = uid, uid; return nil })
	if err != nil {
		e.t.Fatal(err)
	}
	return d
}

func (e *env) dial() (net.Conn, *bufio.Reader) {
	e.t.Helper()
	c, err := net.Dial("tcp", e.srv.Addr().String())
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c, bufio.NewReader(c)
}

func (e *env) positions(deviceID int64) []*model.Position {
	e.t.Helper()
	ps, err := e.core.Fleet.Positions(e.admin, fleet.PositionQuery{DeviceID: deviceID, From: base, To: base.Add(24 * time.Hour)})
	if err != nil {
		e.t.Fatal(err)
	}
	return ps
}

func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading reply: %v", err)
	}
	return strings.TrimSuffix(line, "\n")
}

func TestListenerStoresBeforeAck(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	d := e.device("dev1")
	c, r := e.dial()
	// Two frames in one write, then one frame dribbled byte by byte.
	io.WriteString(c, "dev1,1\ndev1,2\n")
	for _, want := range []string{"ok 1", "ok 2"} {
		if got := readLine(t, r); got != want {
			t.Fatalf("ack = %q, want %q", got, want)
		}
		// Every ACKed position is already readable.
	}
	for _, b := range []byte("dev1,3\n") {
		c.Write([]byte{b})
		time.Sleep(time.Millisecond)
	}
	if got := readLine(t, r); got != "ok 3" {
		t.Fatalf("ack = %q, want ok 3", got)
	}
	ps := e.positions(d.ID)
	if len(ps) != 3 {
		t.Fatalf("stored %d positions, want 3", len(ps))
	}
	last := ps[2]
	if last.Protocol != "line" || last.DeviceID != d.ID || !last.FixTime.Equal(base.Add(3*time.Second)) {
		t.Fatalf("stored position = %+v", last)
	}
	if dist, _ := last.Attributes["distance"].(float64); dist < 11 || dist > 12 {
		t.Fatalf("distance = %v, want ~11.1 m", last.Attributes["distance"])
	}
	dev, _ := e.core.Fleet.Devices.Get(e.admin, d.ID)
	if dev.Status != model.StatusOnline || dev.PositionID != last.ID {
		t.Fatalf("device status %q positionId %d, want online %d", dev.Status, dev.PositionID, last.ID)
	}
}

func TestListenerUnknownDevice(t *testing.T) {
	tests := []struct {
		name         string
		autoRegister bool
		wantAck      bool
	}{
		{"rejected and listed", false, false},
		{"auto-registered", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, ingest.Options{AutoRegister: tt.autoRegister}, protocols.Options{})
			c, r := e.dial()
			io.WriteString(c, "stranger,1\n")
			c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
			line, err := r.ReadString('\n')
			if tt.wantAck != (err == nil) {
				t.Fatalf("ack %q err %v, want ack %v", line, err, tt.wantAck)
			}
			unknown, _ := e.core.Ingest.UnknownDevices(e.admin)
			listed := len(unknown) == 1 && unknown[0].UniqueID == "stranger" && unknown[0].Protocol == "line"
			if listed == tt.autoRegister {
				t.Fatalf("unknown list = %+v", unknown)
			}
			devices, _ := e.core.Fleet.Devices.List(e.admin, model.Query{})
			if (len(devices) == 1) != tt.autoRegister {
				t.Fatalf("devices = %d", len(devices))
			}
		})
	}
}

func TestListenerSurvivesBadConnections(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{MaxFrame: 256, MaxConnsPerIP: 3})
	e.device("dev1")
	tests := []struct {
		name string
		send string
	}{
		{"decoder panic closes only that connection", "boom\n"},
		{"oversized frame drops the connection", strings.Repeat("x", 1024)},
		{"split panic closes only that connection", "\x00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, r := e.dial()
			io.WriteString(c, tt.send)
			if _, err := r.ReadString('\n'); err == nil {
				t.Fatal("connection still open")
			}
			c2, r2 := e.dial()
			io.WriteString(c2, "dev1,5\n")
			if got := readLine(t, r2); got != "ok 5" {
				t.Fatalf("listener not serving after bad connection: %q", got)
			}
			c2.Close()
		})
	}
	if e.srv.Stats.Panics.Load() != 2 || e.srv.Stats.Oversized.Load() != 1 {
		t.Fatalf("panics %d oversized %d, want 2 and 1", e.srv.Stats.Panics.Load(), e.srv.Stats.Oversized.Load())
	}
}

func TestListenerPerIPCap(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{MaxConnsPerIP: 2})
	e.device("dev1")
	e.dial()
	e.dial()
	c, r := e.dial()
	io.WriteString(c, "dev1,1\n")
	if _, err := r.ReadString('\n'); err == nil {
		t.Fatal("third connection from one IP was served")
	}
}

func TestListenerIdleTimeout(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{IdleTimeout: 100 * time.Millisecond})
	_, r := e.dial()
	if _, err := r.ReadString('\n'); !errors.Is(err, io.EOF) {
		t.Fatalf("idle connection: err %v, want EOF from the server closing it", err)
	}
}

func TestListenerCommands(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	d := e.device("dev1")
	c, r := e.dial()
	io.WriteString(c, "id,dev1\n")
	if got := readLine(t, r); got != "hello" {
		t.Fatalf("reply %q", got)
	}
	// The connection is registered once identified: a command goes out on it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, queued, err := e.core.Ingest.SendCommand(e.admin, &model.Command{DeviceID: d.ID, Type: "custom", Attributes: model.Attributes{"data": "reboot"}})
		if err != nil {
			t.Fatal(err)
		}
		if !queued {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("command queued although the device is connected")
		}
	}
	if got := readLine(t, r); got != "reboot" {
		t.Fatalf("device received %q, want reboot", got)
	}
}

// TestAckedPositionsSurviveStoreCrash closes the store under load and
// checks, after reopening the file, that every position a device got an
// ACK for is there.
func TestAckedPositionsSurviveStoreCrash(t *testing.T) {
	e := newEnv(t, ingest.Options{}, protocols.Options{})
	const devices = 20
	var mu sync.Mutex
	acked := map[string][]int{}
	var wg sync.WaitGroup
	for i := 0; i < devices; i++ {
		uid := fmt.Sprintf("dev%d", i)
		e.device(uid)
		c, r := e.dial()
		wg.Add(2)
		go func() { // writer: frames as fast as the socket takes them
			defer wg.Done()
			for seq := 1; seq < 20000; seq++ {
				if _, err := fmt.Fprintf(c, "%s,%d\n", uid, seq); err != nil {
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				seq, _ := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(line), "ok "))
				mu.Lock()
				acked[uid] = append(acked[uid], seq)
				mu.Unlock()
			}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	e.db.Close() // the crash: in-flight batches fail, nothing more is acknowledged
	time.Sleep(200 * time.Millisecond)
	e.srv.Close()
	wg.Wait()

	db, err := storage.Open(e.path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	total := 0
	for uid, seqs := range acked {
		total += len(seqs)
		var d *model.Device
		db.View(func(tx model.Tx) (err error) { d, err = tx.DeviceByUniqueID(uid); return err })
		stored := map[float64]bool{}
		db.View(func(tx model.Tx) error {
			return tx.Positions(d.ID, base, base.Add(48*time.Hour), func(p *model.Position) bool {
				stored[p.Attributes["seq"].(float64)] = true
				return true
			})
		})
		for _, seq := range seqs {
			if !stored[float64(seq)] {
				t.Fatalf("%s: position %d was acknowledged but is not stored", uid, seq)
			}
		}
	}
	if total == 0 {
		t.Fatal("no position was acknowledged before the crash; the test proved nothing")
	}
	t.Logf("%d acknowledged positions all present after reopening", total)
}
