// Command stallload measures what stalled HTTP clients cost a fleetd
// server: it starts `fleetd serve` (the binary given) on a fresh data
// directory, opens clients that begin a request and never finish it (half
// stop inside the headers, half declare a large body and send one byte of
// it), and reports the server's resident memory (VmRSS) before, while and
// after they are connected, and how many of them the server closed.
//
//	go build -o /tmp/fleetd . && go run ./web/internal/stallload -bin /tmp/fleetd
//
// It only talks to 127.0.0.1 and stops after -hold.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fleetd/fleetd/protocols/catalog"
)

func main() {
	bin := flag.String("bin", "", "fleetd binary to measure (required)")
	clients := flag.Int("clients", 1000, "stalled clients; half stop in the headers, half after one byte of body")
	declared := flag.Int("declare", 11_000_000, "Content-Length the body clients declare")
	hold := flag.Duration("hold", 70*time.Second, "how long to keep the clients and watch")
	flag.Parse()
	if *bin == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*bin, *clients, *declared, *hold); err != nil {
		fmt.Fprintln(os.Stderr, "stallload:", err)
		os.Exit(1)
	}
}

func run(bin string, clients, declared int, hold time.Duration) error {
	dir, err := os.MkdirTemp("", "stallload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srv, addr, err := start(bin, dir)
	if err != nil {
		return err
	}
	defer func() {
		srv.Process.Signal(syscall.SIGTERM)
		srv.Wait()
	}()
	pid := srv.Process.Pid

	time.Sleep(2 * time.Second) // let start-up settle
	before, err := rss(pid)
	if err != nil {
		return err
	}
	fmt.Printf("fleetd pid %d on %s: %d clients (%d with unfinished headers, %d declaring %d bytes and sending 1)\n",
		pid, addr, clients, clients/2, clients-clients/2, declared)
	fmt.Printf("RSS before: %.1f MB\n", mb(before))

	began := time.Now()
	var open atomic.Int64
	var closedAt []time.Duration
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range clients {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return fmt.Errorf("client %d: %w", i, err)
		}
		defer c.Close()
		req := "POST /api/devices HTTP/1.1\r\nHost: " + addr + "\r\nContent-Ty"
		if i%2 == 1 {
			req = fmt.Sprintf("POST /api/devices HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", addr, declared)
		}
		if _, err := io.WriteString(c, req); err != nil {
			return fmt.Errorf("client %d: %w", i, err)
		}
		open.Add(1)
		wg.Go(func() {
			c.SetReadDeadline(began.Add(hold))
			_, err := io.Copy(io.Discard, c)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return // still open when we stopped watching
			}
			open.Add(-1)
			mu.Lock()
			closedAt = append(closedAt, time.Since(began))
			mu.Unlock()
		})
	}
	fmt.Printf("all connected after %.1f s\n", time.Since(began).Seconds())

	peak, peakAt := before, time.Duration(0)
	for tick := time.NewTicker(time.Second); time.Since(began) < hold; <-tick.C {
		r, err := rss(pid)
		if err != nil {
			return err
		}
		if r > peak {
			peak, peakAt = r, time.Since(began)
		}
		if s := int(time.Since(began).Seconds()); s%5 == 0 {
			fmt.Printf("  t=%2ds RSS %.1f MB, %d clients open\n", s, mb(r), open.Load())
		}
		if open.Load() == 0 {
			break
		}
	}
	wg.Wait()
	fmt.Printf("RSS peak: %.1f MB at t=%.0fs (+%.1f MB over before)\n", mb(peak), peakAt.Seconds(), mb(peak-before))
	mu.Lock()
	fmt.Printf("closed by the server: %d of %d", len(closedAt), clients)
	if len(closedAt) > 0 {
		fmt.Printf(" (first at %.1f s, last at %.1f s)", slices.Min(closedAt).Seconds(), slices.Max(closedAt).Seconds())
	}
	fmt.Printf("; still open after %s: %d\n", hold, open.Load())
	mu.Unlock()
	time.Sleep(5 * time.Second)
	after, err := rss(pid)
	if err != nil {
		return err
	}
	fmt.Printf("RSS 5 s after the clients were closed: %.1f MB\n", mb(after))
	return nil
}

// start runs `fleetd serve` on dir with every listener on a free port of
// 127.0.0.1 and returns the web address from its start-up log line.
func start(bin, dir string) (*exec.Cmd, string, error) {
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "FLEETD_DATA_DIR="+dir, "FLEETD_WEB_ADDRESS=127.0.0.1:0",
		"FLEETD_ADMIN_PASSWORD=stallload-admin", "FLEETD_LOG_FORMAT=json")
	for _, p := range catalog.ConfigDefaults().Protocols {
		cmd.Env = append(cmd.Env, "FLEETD_PROTOCOLS_"+strings.ToUpper(p.Name)+"_PORT=0")
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		var entry struct{ Msg, Web string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "fleetd started" {
			go io.Copy(io.Discard, stderr)
			return cmd, entry.Web, nil
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	return nil, "", fmt.Errorf("%s serve ended before it started", bin)
}

// rss is the process's resident memory in bytes.
func rss(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
