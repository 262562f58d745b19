package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"golang.org/x/crypto/bcrypt"
)

const (
	crashAdmin    = "admin@example.com"
	crashPassword = "a long passphrase"
	crashConfig   = "web: {address: '127.0.0.1:0'}\nlog: {format: json}\n" +
		"admin: {email: " + crashAdmin + ", password: " + crashPassword + "}\n"
)

// TestHelperServe is not a test: TestKill9 runs the test binary with it as
// a fleetd serve process of its own, to kill.
func TestHelperServe(t *testing.T) {
	config := os.Getenv("HELPER_SERVE_CONFIG")
	if config == "" {
		t.Skip("runs only as the child process of TestKill9")
	}
	c := &cli{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr, bcryptCost: bcrypt.MinCost}
	os.Exit(c.restartIfAsked(runContext(context.Background(), []string{"serve", "--config", config}, c)))
}

// child is a fleetd serve process of its own (TestHelperServe).
type child struct {
	cmd    *exec.Cmd
	stderr io.ReadCloser
	lines  *bufio.Scanner
}

// startChild starts a child serving config; the test's end kills it.
func startChild(t *testing.T, config string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServe$")
	cmd.Env = append(os.Environ(), "HELPER_SERVE_CONFIG="+config)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, stderr: stderr, lines: bufio.NewScanner(stderr)}
	t.Cleanup(c.kill)
	return c
}

// kill ends the child with SIGKILL, once.
func (c *child) kill() {
	if c.cmd.ProcessState == nil {
		c.cmd.Process.Kill()
		c.cmd.Wait()
	}
}

// childStart is what a child's "fleetd started" line says.
type childStart struct{ Web, Devices string }

// started reads the child's log up to its next "fleetd started" line.
func (c *child) started(t *testing.T) childStart {
	t.Helper()
	var output strings.Builder
	for c.lines.Scan() {
		output.Write(c.lines.Bytes())
		output.WriteByte('\n')
		var l struct{ Msg, Web, Devices string }
		if json.Unmarshal(c.lines.Bytes(), &l) == nil && l.Msg == "fleetd started" {
			return childStart{l.Web, l.Devices}
		}
	}
	t.Fatalf("the server did not start:\n%s", &output)
	return childStart{}
}

// apiCall sends an API request as the administrator and decodes the answer
// into out.
func apiCall(t *testing.T, web, method, path, body string, out any) {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+web+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(crashAdmin, crashPassword)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s %s", method, path, resp.Status, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s %s: %v in %s", method, path, err, data)
	}
}

// A GT06 tracker logs in and reports; then the server is killed (SIGKILL,
// as by the OOM killer or a power cut). The positions the tracker got its
// ACK for are stored, but the device record is as the login left it. The
// next start derives it from the store.
func TestKill9(t *testing.T) {
	e := newEnv(t, crashConfig+anyPorts)
	child := startChild(t, e.config)
	started := child.started(t)
	go io.Copy(io.Discard, child.stderr)
	var gt06 string
	for _, listener := range strings.Fields(started.Devices) {
		if addr, ok := strings.CutPrefix(listener, "gt06="); ok {
			_, port, _ := net.SplitHostPort(addr)
			gt06 = net.JoinHostPort("127.0.0.1", port)
		}
	}

	var device model.Device
	apiCall(t, started.Web, "POST", "/api/devices", `{"name":"Truck","uniqueId":"864717003283581"}`, &device)
	conn, err := net.Dial("tcp", gt06)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	exchange := func(frame, ack string) {
		t.Helper()
		f, _ := hex.DecodeString(frame)
		conn.Write(f)
		want, _ := hex.DecodeString(ack)
		got := make([]byte, len(want))
		if _, err := io.ReadFull(conn, got); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("reply to %s = %x (%v), want %x", frame, got, err, want)
		}
	}
	exchange("78780D01086471700328358100093F040D0A", "78780501000955940d0a") // login
	// The login's "online" is stored off the connection's path; wait for it.
	for deadline := time.Now().Add(30 * time.Second); device.Status != model.StatusOnline; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the device did not go online")
		}
		var list []*model.Device
		apiCall(t, started.Web, "GET", fmt.Sprintf("/api/devices?id=%d", device.ID), "", &list)
		device = *list[0]
	}
	// The same fix three times, as a device resends it when ACKs are lost:
	// each is acknowledged, one is stored.
	for range 3 {
		exchange("78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a", "787805120003903f0d0a")
	}
	child.kill()

	// What the kill left: every acknowledged position, and the record as
	// the login wrote it (the ingest writes it at most once a minute).
	db, err := storage.Open(filepath.Join(e.dir, "fleetd.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var left *model.Device
	var stored []*model.Position
	err = db.View(func(tx model.Tx) (err error) {
		if left, err = tx.Devices().Get(device.ID); err != nil {
			return err
		}
		return tx.Positions(device.ID, time.Time{}, time.Now().Add(time.Hour), func(p *model.Position) bool {
			stored = append(stored, p)
			return true
		})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 || left.Status != model.StatusOnline || left.PositionID != 0 || left.LastUpdate != nil {
		t.Fatalf("after the kill: %d positions stored (want %d), device %s, positionId %d, lastUpdate %v; "+
			"want online, 0, null (the crash this test is about)", len(stored), 1, left.Status, left.PositionID, left.LastUpdate)
	}
	latest := stored[0]

	s := e.serve(t)
	s.waitLog(t, "start-up repair of device records done")
	var devices []*model.Device
	apiCall(t, s.WebAddr.String(), "GET", "/api/devices", "", &devices)
	var positions []*model.Position
	apiCall(t, s.WebAddr.String(), "GET", "/api/positions", "", &positions)
	if len(devices) != 1 || len(positions) != 1 {
		t.Fatalf("devices %v, positions %v", devices, positions)
	}
	d := devices[0]
	// Still online: it reported moments ago (devices.statusTimeout).
	if d.PositionID != latest.ID || positions[0].ID != latest.ID || d.LastUpdate == nil ||
		!d.LastUpdate.Equal(latest.ServerTime) || d.Status != model.StatusOnline {
		t.Errorf("after the restart: status %s, positionId %d, lastUpdate %v, latest position %d; want online, %d, %s",
			d.Status, d.PositionID, d.LastUpdate, positions[0].ID, latest.ID, latest.ServerTime)
	}
}

// waitLog waits until serve logged a line with msg.
func (s *serving) waitLog(t *testing.T, msg string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, l := range s.logLines(t) {
			if l["msg"] == msg {
				return l
			}
		}
	}
	t.Fatalf("no log line %q in:\n%s", msg, s.log)
	return nil
}

// A store as crashes leave it: device records behind their positions, an
// "online" nothing holds up, temporary files of dead runs and the content
// of a deleted record. serve answers at once and repairs it all in the
// background.
func TestStartupRepairsInTheBackground(t *testing.T) {
	e := newEnv(t, crashConfig+anyPorts)
	now := time.Now().UTC()
	ago := func(m int) time.Time { return now.Add(-time.Duration(m) * time.Minute) }
	type left struct {
		status     string
		positionID int // index+1 into arrivals
		lastUpdate int // minutes ago; 0: null
		arrivals   []int
	}
	type want struct {
		status     string
		positionID int
		lastUpdate int
	}
	devices := []struct {
		name string
		left left
		want want
	}{
		{"reported, then the crash, two hours ago", left{model.StatusOnline, 0, 0, []int{121, 120}}, want{model.StatusUnknown, 2, 120}},
		{"reported a minute before a quick restart", left{model.StatusOnline, 0, 0, []int{2, 1}}, want{model.StatusOnline, 2, 1}},
		{"record a minute behind its positions", left{model.StatusOffline, 1, 31, []int{31, 30}}, want{model.StatusOffline, 2, 30}},
		{"connected, never reported", left{model.StatusOnline, 0, 0, nil}, want{model.StatusUnknown, 0, 0}},
	}
	db, err := storage.Open(filepath.Join(e.dir, "fleetd.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	core := app.New(db, app.Options{BcryptCost: bcrypt.MinCost})
	ids := map[string]int64{}
	positions := map[string][]int64{}
	for _, dev := range devices {
		d, err := core.Fleet.Devices.Create(model.System(), func(d *model.Device) error { d.Name, d.UniqueID = dev.name, dev.name; return nil })
		if err != nil {
			t.Fatal(err)
		}
		ids[dev.name] = d.ID
		err = db.Update(func(tx model.Tx) error {
			for _, m := range dev.left.arrivals {
				p := &model.Position{DeviceID: d.ID, FixTime: ago(m + 1), ServerTime: ago(m), Valid: true}
				if err := tx.AddPosition(p); err != nil {
					return err
				}
				positions[dev.name] = append(positions[dev.name], p.ID)
			}
			d.Status, d.PositionID = dev.left.status, 0
			if dev.left.positionID > 0 {
				d.PositionID = positions[dev.name][dev.left.positionID-1]
			}
			if dev.left.lastUpdate > 0 {
				at := ago(dev.left.lastUpdate)
				d.LastUpdate = &at
			}
			return tx.Devices().Put(d)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	files := filepath.Join(e.dir, "files")
	leftovers := map[string]bool{ // path in the files directory -> swept
		".upload-3920417":                 true, // an upload a kill interrupted
		".tmp-0123456789ab/multipart-551": true, // a large upload the HTTP server was spilling
		"57":                              true, // the content of a record deleted just before a crash
		"notes.txt":                       false,
	}
	for name := range leftovers {
		os.MkdirAll(filepath.Dir(filepath.Join(files, name)), 0o700)
		if err := os.WriteFile(filepath.Join(files, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	outside := os.Getenv("TMPDIR")
	hold := make(chan struct{})
	s := e.serve(t, func(c *cli) { c.repairing = func() { <-hold } })
	web := s.WebAddr.String()
	var before []*model.Device
	apiCall(t, web, "GET", "/api/devices", "", &before) // answered while the repair waits
	if d := before[0]; d.Status != model.StatusOnline || d.PositionID != 0 {
		t.Fatalf("before the repair: %s, positionId %d: the repair ran first", d.Status, d.PositionID)
	}
	close(hold)
	s.waitLog(t, "start-up repair of device records done")
	var after []*model.Device
	apiCall(t, web, "GET", "/api/devices", "", &after)
	for _, dev := range devices {
		var d *model.Device
		for _, a := range after {
			if a.ID == ids[dev.name] {
				d = a
			}
		}
		wantID, wantUpdate := int64(0), "<nil>"
		if dev.want.positionID > 0 {
			wantID = positions[dev.name][dev.want.positionID-1]
		}
		if dev.want.lastUpdate > 0 {
			wantUpdate = ago(dev.want.lastUpdate).String()
		}
		gotUpdate := "<nil>"
		if d.LastUpdate != nil {
			gotUpdate = d.LastUpdate.UTC().String()
		}
		if d.Status != dev.want.status || d.PositionID != wantID || gotUpdate != wantUpdate {
			t.Errorf("%s: %s, positionId %d, lastUpdate %s; want %s, %d, %s", dev.name,
				d.Status, d.PositionID, gotUpdate, dev.want.status, wantID, wantUpdate)
		}
	}

	if got := s.waitLog(t, "removed files left by a crash or a failed removal")["count"]; got != 3.0 {
		t.Errorf("swept %v files, want 3", got)
	}
	for name, swept := range leftovers {
		if _, err := os.Stat(filepath.Join(files, name)); os.IsNotExist(err) != swept {
			t.Errorf("%s: swept %v, want %v", name, os.IsNotExist(err), swept)
		}
	}
	// Temporary files of this run go where the next start finds them.
	tmp := os.Getenv("TMPDIR")
	if filepath.Dir(tmp) != files || !strings.HasPrefix(filepath.Base(tmp), ".tmp-") {
		t.Errorf("TMPDIR %q while serving, want a directory in %s", tmp, files)
	}
	s.stop()
	if code := <-s.done; code != 0 {
		t.Fatalf("serve exited with %d:\n%s", code, s.log)
	}
	s.done <- 0 // for the cleanup
	if _, err := os.Stat(tmp); !os.IsNotExist(err) || os.Getenv("TMPDIR") != outside {
		t.Errorf("after the stop: %s left (%v), TMPDIR %q", tmp, err, os.Getenv("TMPDIR"))
	}
}

// POST /api/server/reboot: the server stops as on SIGTERM and the same
// process starts it again, with what it stored.
func TestRebootRestartsInPlace(t *testing.T) {
	e := newEnv(t, crashConfig+anyPorts)
	child := startChild(t, e.config)
	first := child.started(t)
	var device model.Device
	apiCall(t, first.Web, "POST", "/api/devices", `{"name":"Truck","uniqueId":"864717003283581"}`, &device)

	req, _ := http.NewRequest("POST", "http://"+first.Web+"/api/server/reboot", nil)
	req.SetBasicAuth(crashAdmin, crashPassword)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("reboot: %v %v", resp, err)
	}
	resp.Body.Close()
	// Only the exec'd run logs a second start; web.address has port 0, so
	// it listens on another port.
	second := child.started(t)
	go io.Copy(io.Discard, child.stderr)
	var devices []*model.Device
	apiCall(t, second.Web, "GET", "/api/devices", "", &devices)
	if len(devices) != 1 || devices[0].ID != device.ID {
		t.Errorf("after the restart: %v", devices)
	}
}
