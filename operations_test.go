package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
)

func TestCheckStoreSize(t *testing.T) {
	for _, tc := range []struct {
		goarch string
		size   int64
		warn   bool
	}{
		{"arm", 100 << 20, false},
		{"arm", arm32StoreWarn - 1, false},
		{"arm", arm32StoreWarn, true},
		{"arm", 2 << 30, true},
		{"386", 1600 << 20, true},
		{"arm64", 10 << 30, false},
		{"amd64", 10 << 30, false},
	} {
		var log bytes.Buffer
		got := checkStoreSize(slog.New(slog.NewTextHandler(&log, nil)), tc.size, tc.goarch)
		if got != tc.warn || (log.Len() > 0) != tc.warn {
			t.Errorf("%s at %d bytes: warned %v (%q), want %v", tc.goarch, tc.size, got, log.String(), tc.warn)
		}
	}
}

func TestHealthURL(t *testing.T) {
	for in, want := range map[string]string{
		":8082":          "http://127.0.0.1:8082/api/health",
		"0.0.0.0:9000":   "http://127.0.0.1:9000/api/health",
		"[::]:9000":      "http://127.0.0.1:9000/api/health",
		"10.0.0.5:8082":  "http://10.0.0.5:8082/api/health",
		"[::1]:8082":     "http://[::1]:8082/api/health",
		"localhost:8082": "http://localhost:8082/api/health",
		"garbage":        "http://127.0.0.1:8082/api/health",
	} {
		if got := healthURL(in); got != want {
			t.Errorf("healthURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSdNotify(t *testing.T) {
	if err := sdNotify("", "READY=1"); err != nil {
		t.Errorf("without NOTIFY_SOCKET: %v", err)
	}
	path := filepath.Join(t.TempDir(), "notify")
	ln, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := sdNotify(path, "READY=1"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	ln.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := ln.Read(buf)
	if err != nil || string(buf[:n]) != "READY=1" {
		t.Errorf("datagram = %q, %v", buf[:n], err)
	}
	if err := sdNotify(filepath.Join(t.TempDir(), "absent"), "READY=1"); err == nil {
		t.Error("no error for a missing socket")
	}
}

// serve announces readiness to systemd, answers the health command and
// serves /metrics to a local client.
func TestServeOperations(t *testing.T) {
	notify := filepath.Join(t.TempDir(), "notify")
	ln, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: notify, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	t.Setenv("NOTIFY_SOCKET", notify)
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\n"+anyPorts)
	s := e.serve(t)
	buf := make([]byte, 64)
	ln.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := ln.Read(buf); err != nil || string(buf[:n]) != "READY=1" {
		t.Errorf("systemd got %q, %v; want READY=1", buf[:n], err)
	}
	base := "http://" + s.WebAddr.String()
	e.run("", "health", "--url", base+"/api/health").expect(t, "health of a running server", 0)
	e.run("", "health", "--url", base+"/nothing-here").expect(t, "health of a wrong URL", 1, "404")

	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %s", resp.Status)
	}
	for _, want := range []string{`fleetd_device_connections_open{protocol="gt06"} 0`, `fleetd_device_connections_total{protocol="osmand"} 0`,
		"fleetd_store_size_bytes ", "fleetd_websocket_clients 0"} {
		if !strings.Contains(body.String(), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// Stopping serve (SIGTERM cancels the same context) while devices report
// loses no position a device got its acknowledgement for.
func TestStopDuringIngestKeepsAckedPositions(t *testing.T) {
	e := newEnv(t, "web: {address: '127.0.0.1:0'}\nlog: {format: json}\ndevices: {autoRegister: true}\n"+anyPorts)
	s := e.serve(t)
	osmand := "http://" + s.Devices["osmand"].String()
	const devices = 8
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	var mu sync.Mutex
	acked := map[string][]time.Time{}
	enough := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 10 * time.Second}
	for d := range devices {
		id := fmt.Sprintf("stop-%d", d)
		wg.Go(func() {
			for i := 0; ; i++ {
				at := base.Add(time.Duration(i) * time.Second)
				resp, err := client.Get(fmt.Sprintf("%s/?id=%s&lat=54.9&lon=24.1&timestamp=%d", osmand, id, at.Unix()))
				if err != nil {
					return // the server is gone
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					continue // not acknowledged: a device would resend
				}
				mu.Lock()
				acked[id] = append(acked[id], at)
				if len(acked[id]) >= 20 {
					once.Do(func() { close(enough) })
				}
				mu.Unlock()
			}
		})
	}
	select {
	case <-enough:
	case <-time.After(60 * time.Second):
		t.Fatal("devices got no acknowledgements")
	}
	s.stop()
	if code := <-s.done; code != 0 {
		t.Fatalf("serve exited with %d:\n%s", code, s.log)
	}
	s.done <- 0 // for the cleanup
	wg.Wait()

	db := openStore(t, filepath.Join(e.dir, "fleetd.db"))
	total := 0
	for id, times := range acked {
		stored := map[int64]bool{}
		err := db.View(func(tx app.Tx) error {
			d, err := tx.DeviceByUniqueID(id)
			if err != nil {
				return err
			}
			return tx.Positions(d.ID, base, base.Add(24*time.Hour), func(p *app.Position) bool {
				stored[p.FixTime.Unix()] = true
				return true
			})
		})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, at := range times {
			if !stored[at.Unix()] {
				t.Errorf("%s: position at %s was acknowledged but is not stored", id, at)
			}
		}
		total += len(times)
	}
	t.Logf("%d acknowledged positions of %d devices all stored after the stop", total, len(acked))
	if !strings.Contains(s.log.String(), `"msg":"stopping"`) {
		t.Errorf("no stopping line in the log:\n%s", s.log)
	}
}
