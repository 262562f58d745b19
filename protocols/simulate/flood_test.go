package simulate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestFlood is the hostile-client measurement of docs/devices.md. For each
// protocol it starts a `fleetd serve` process of its own with the default
// settings (only that protocol's listener on), opens thousands of TCP
// connections from ten loopback addresses that each send the start of the
// longest frame the protocol accepts and then hold it, and reports how much
// the server's resident memory grew; for the UDP protocols another server
// is flooded with datagrams of the largest size; last, connections that
// send nothing show what a connection itself costs. The server is another
// process, so its RSS (read from /proc/PID/status) is the listeners' alone.
//
//	FLEETD_FLOOD=1 go test -run TestFlood -v -timeout 60m ./protocols/simulate/
//
// FLEETD_FLOOD_BIN is the fleetd binary to measure (default: built from this
// tree), FLEETD_FLOOD_CONNS the connections (10000), FLEETD_FLOOD_HOLD how
// long they are held and sampled once all are open (20s),
// FLEETD_FLOOD_PROTOCOLS a comma-separated subset (and "idle"),
// FLEETD_FLOOD_UDP how long each UDP flood lasts (10s).
func TestFlood(t *testing.T) {
	if os.Getenv("FLEETD_FLOOD") == "" {
		t.Skip("set FLEETD_FLOOD=1 to run the flood measurement")
	}
	conns := envInt(t, "FLEETD_FLOOD_CONNS", 10000)
	hold := envDuration(t, "FLEETD_FLOOD_HOLD", 20*time.Second)
	udpFor := envDuration(t, "FLEETD_FLOOD_UDP", 10*time.Second)
	raiseFileLimit(t, uint64(conns+1024))
	bin := os.Getenv("FLEETD_FLOOD_BIN")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "fleetd")
		build := exec.Command("go", "build", "-o", bin, "github.com/fleetd/fleetd")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	only := map[string]bool{}
	for _, p := range strings.Split(os.Getenv("FLEETD_FLOOD_PROTOCOLS"), ",") {
		if p != "" {
			only[p] = true
		}
	}
	for _, p := range partialFrames() {
		if len(only) > 0 && !only[p.protocol] {
			continue
		}
		t.Run("tcp-"+p.protocol, func(t *testing.T) {
			srv := startFleetd(t, bin, p.protocol)
			r := floodTCP(t, srv, p.frame, conns, hold)
			t.Logf("RESULT tcp %s conns=%d open=%d partial=%dB sent=%dMB closed-by-server=%d rss-before=%dMB rss-peak=%dMB "+
				"rss-delta=%dMB rss-end=%dMB hwm=%dMB %s",
				p.protocol, conns, r.opened, len(p.frame), r.sent>>20, r.closed, r.before>>20, r.peak>>20,
				(r.peak-r.before)>>20, r.end>>20, procStatusOf(srv.pid, "VmHWM")>>20, r.metrics)
		})
		if !p.udp {
			continue
		}
		t.Run("udp-"+p.protocol, func(t *testing.T) {
			srv := startFleetd(t, bin, p.protocol)
			before := procStatusOf(srv.pid, "VmRSS")
			sent, peak := floodUDP(t, srv, udpFor)
			t.Logf("RESULT udp %s datagrams=%d (%dMB) rss-before=%dMB rss-peak=%dMB rss-delta=%dMB %s",
				p.protocol, sent, sent*udpDatagram>>20, before>>20, peak>>20, (peak-before)>>20, srv.metrics())
		})
	}
	if len(only) == 0 || only["idle"] {
		t.Run("tcp-idle", func(t *testing.T) { // connections that send nothing, for their own cost
			srv := startFleetd(t, bin, "gt06")
			r := floodTCP(t, srv, nil, conns, hold)
			t.Logf("RESULT tcp idle conns=%d open=%d rss-before=%dMB rss-peak=%dMB rss-delta=%dMB %s",
				conns, r.opened, r.before>>20, r.peak>>20, (r.peak-r.before)>>20, r.metrics)
		})
	}
}

// partial is the start of a frame a protocol's listener must wait on.
type partial struct {
	protocol string
	frame    []byte
	udp      bool
}

// partialFrames are, per protocol, the first bytes of a frame of about the
// longest size the protocol accepts, with its end never sent.
func partialFrames() []partial {
	gt06 := append([]byte{0x79, 0x79}, binary.BigEndian.AppendUint16(nil, 4090)...) // 4,096 bytes in all
	teltonika := binary.BigEndian.AppendUint32(make([]byte, 4), 16372)              // 16 KiB AVL packet
	post := fmt.Sprintf("POST / HTTP/1.1\r\nHost: fleetd\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"device_id\":\"", 64000)
	return []partial{
		{"gt06", append(gt06, bytes.Repeat([]byte{0x41}, 4000)...), false},
		{"teltonika", append(teltonika, bytes.Repeat([]byte{0x41}, 16000)...), true},
		{"h02", []byte("*HQ,4210000001,V1," + strings.Repeat("A", 2000)), true},
		// A voice message: escaped binary content, 65,000 of the 65,535 bytes declared.
		{"watch", []byte("[SG*8800000015*ffff*TK," + strings.Repeat("}\x01", 65000)), false},
		{"gps103", []byte("imei:359710040000001,tracker," + strings.Repeat("A", 1990)), false},
		{"tk103", []byte("(" + strings.Repeat("A", 1000)), false},
		{"osmand", []byte(post + strings.Repeat("A", 60000)), false},
	}
}

// fleetd is a `fleetd serve` process.
type fleetd struct {
	pid     int
	devices string // the protocol's address
	web     string
}

// startFleetd runs bin serve with a fresh data directory and only protocol's
// listener on (port 0), and stops it when the test ends.
func startFleetd(t *testing.T, bin, protocol string) *fleetd {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLEETD_") { // fleetd refuses variables it does not know, like FLEETD_FLOOD
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "FLEETD_DATA_DIR="+t.TempDir(), "FLEETD_WEB_ADDRESS=127.0.0.1:0",
		"FLEETD_LOG_FORMAT=json", "FLEETD_ADMIN_PASSWORD=flood-measurement")
	for _, p := range Protocols() {
		key := "FLEETD_PROTOCOLS_" + strings.ToUpper(p)
		cmd.Env = append(cmd.Env, key+"_ENABLED="+fmt.Sprint(p == protocol), key+"_PORT=0")
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	lines := bufio.NewScanner(stderr)
	var log []string
	for lines.Scan() {
		var line struct{ Msg, Web, Devices string }
		if json.Unmarshal(lines.Bytes(), &line) != nil || line.Msg != "fleetd started" {
			log = append(log, lines.Text())
			continue
		}
		go io.Copy(io.Discard, stderr) // a full pipe would block the server's logging
		_, port, _ := net.SplitHostPort(strings.TrimPrefix(line.Devices, protocol+"="))
		return &fleetd{pid: cmd.Process.Pid, devices: net.JoinHostPort("127.0.0.1", port), web: line.Web}
	}
	t.Fatalf("fleetd did not start: %v\n%s", lines.Err(), strings.Join(log, "\n"))
	return nil
}

// metrics are the server's non-zero frame counters (received, failed by
// reason), and where its memory is, from GET /metrics.
func (f *fleetd) metrics() string {
	c := &net.Dialer{Timeout: 5 * time.Second}
	conn, err := c.Dial("tcp", f.web)
	if err != nil {
		return "metrics: " + err.Error()
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "GET /metrics HTTP/1.0\r\nHost: fleetd\r\n\r\n")
	body, _ := io.ReadAll(conn)
	var parts []string
	for _, line := range strings.Split(string(body), "\n") {
		switch {
		case strings.HasPrefix(line, "fleetd_frames_") && !strings.HasSuffix(line, " 0"):
			parts = append(parts, strings.TrimPrefix(line, "fleetd_"))
		case strings.HasPrefix(line, "go_memstats_heap_inuse_bytes "), strings.HasPrefix(line, "go_memstats_stack_inuse_bytes "),
			strings.HasPrefix(line, "go_goroutines "):
			name, value, _ := strings.Cut(line, " ")
			var v float64
			fmt.Sscan(value, &v)
			if strings.HasSuffix(name, "_bytes") {
				value = fmt.Sprintf("%.0fMB", v/(1<<20))
			}
			parts = append(parts, strings.TrimSuffix(strings.TrimPrefix(name, "go_memstats_"), "_bytes")+"="+value)
		}
	}
	return strings.Join(parts, " ")
}

type tcpFlood struct {
	opened, closed    int // closed: by the server while held
	sent              int64
	before, peak, end uint64
	metrics           string // at the end of the hold
}

// floodTCP opens n connections from 127.0.0.1..127.0.0.10 (the per-IP cap
// stays at its default), writes frame on each and holds them for hold once
// all are open, sampling the server's RSS throughout.
func floodTCP(t *testing.T, srv *fleetd, frame []byte, n int, hold time.Duration) *tcpFlood {
	r := &tcpFlood{before: procStatusOf(srv.pid, "VmRSS")}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sampled := sampleRSS(srv.pid, &r.peak)
	var (
		mu     sync.Mutex
		conns  []net.Conn
		sent   atomic.Int64
		closed atomic.Int64
		wg     sync.WaitGroup
		sem    = make(chan struct{}, 200)
	)
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			d := net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i%10))}}
			c, err := d.DialContext(ctx, "tcp", srv.devices)
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			if len(frame) > 0 {
				c.SetWriteDeadline(time.Now().Add(hold))
				m, _ := c.Write(frame)
				sent.Add(int64(m))
			}
			go func() { // the server closing the connection ends this read
				c.Read(make([]byte, 1))
				closed.Add(1)
			}()
		})
	}
	wg.Wait()
	r.opened = len(conns)
	time.Sleep(hold)
	r.end, r.metrics = procStatusOf(srv.pid, "VmRSS"), srv.metrics()
	r.sent, r.closed = sent.Load(), int(closed.Load())
	sampled()
	mu.Lock()
	for _, c := range conns {
		c.Close()
	}
	mu.Unlock()
	return r
}

// udpDatagram is the largest UDP payload over IPv4.
const udpDatagram = 65507

// floodUDP sends datagrams of udpDatagram bytes from four sockets for d and
// returns how many were sent and the server's peak RSS meanwhile.
func floodUDP(t *testing.T, srv *fleetd, d time.Duration) (sent int64, peak uint64) {
	sampled := sampleRSS(srv.pid, &peak)
	var n atomic.Int64
	var wg sync.WaitGroup
	payload := bytes.Repeat([]byte("*HQ,4210000001,V1,"), udpDatagram/18+1)[:udpDatagram]
	until := time.Now().Add(d)
	for range 4 {
		wg.Go(func() {
			c, err := net.Dial("udp", srv.devices)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			for time.Now().Before(until) {
				if _, err := c.Write(payload); err == nil {
					n.Add(1)
				}
			}
		})
	}
	wg.Wait()
	time.Sleep(time.Second)
	sampled()
	return n.Load(), peak
}

// sampleRSS records pid's highest VmRSS into peak every 100 ms until the
// returned function is called.
func sampleRSS(pid int, peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			*peak = max(*peak, procStatusOf(pid, "VmRSS"))
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}
