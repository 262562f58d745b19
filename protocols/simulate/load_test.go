package simulate

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/storage"
)

// TestLoad is the load benchmark of docs/benchmarks.md: thousands of
// devices over loopback against an in-process fleetd core whose store
// fsyncs every commit. It reports throughput, latency and memory; it
// asserts only that what was acknowledged is stored.
//
//	FLEETD_LOAD=1 go test -run TestLoad -v -timeout 15m ./protocols/simulate/
//
// FLEETD_LOAD_DEVICES (5000), FLEETD_LOAD_RATE (offered positions/s,
// 25000), FLEETD_LOAD_RAMP (connections spread over, 60s),
// FLEETD_LOAD_DURATION (measured after the ramp, 30s) and
// FLEETD_LOAD_PROTOCOL (gt06) tune it; FLEETD_LOAD_BATCH_DELAY sets the
// store's MaxBatchDelay (default 2ms) and FLEETD_LOAD_NOSYNC=1 skips fsync
// (a diagnostic to tell disk waits from CPU: the results are not durable).
func TestLoad(t *testing.T) {
	if os.Getenv("FLEETD_LOAD") == "" {
		t.Skip("set FLEETD_LOAD=1 to run the load benchmark")
	}
	devices := envInt(t, "FLEETD_LOAD_DEVICES", 5000)
	rate := envInt(t, "FLEETD_LOAD_RATE", 25000)
	ramp := envDuration(t, "FLEETD_LOAD_RAMP", time.Minute)
	duration := envDuration(t, "FLEETD_LOAD_DURATION", 30*time.Second)
	protocol := os.Getenv("FLEETD_LOAD_PROTOCOL")
	if protocol == "" {
		protocol = "gt06"
	}
	// Each device is two descriptors in this process: client and server end.
	raiseFileLimit(t, uint64(2*devices+1024))

	batchDelay := envDuration(t, "FLEETD_LOAD_BATCH_DELAY", 0) // 0: the store's adaptive group commit
	noSync := os.Getenv("FLEETD_LOAD_NOSYNC") == "1"
	srv := startServerWith(t, protocol, DefaultFirstID, devices, storage.Options{MaxBatchDelay: batchDelay, NoSync: noSync})
	interval := time.Duration(float64(devices) / float64(rate) * float64(time.Second))
	t.Logf("%s: %d devices, interval %v (offered %d positions/s), ramp %v then %v, store batch delay %v, no fsync %v, GOMAXPROCS %d",
		protocol, devices, interval, rate, ramp, duration, batchDelay, noSync, runtime.GOMAXPROCS(0))

	s := &sampler{core: srv.core.Stats}
	stop := s.start(time.Second)
	rep, err := Run(context.Background(), Options{Devices: devices, Protocol: protocol, Interval: interval,
		Server: srv.addr, Ramp: ramp, Duration: ramp + duration, Seed: 1, Log: testLog{t}})
	stop()
	if err != nil {
		t.Fatal(err)
	}
	stored, err := srv.stored(CityFor(1))
	if err != nil {
		t.Fatal(err)
	}
	steady, worst := s.rate(ramp, rep.Elapsed)
	t.Logf("RESULT %s devices=%d offered=%d/s sent=%d acked=%d stored=%d unacked=%d errors=%d reconnects=%d "+
		"acked/s(whole run)=%.0f stored/s(after ramp)=%.0f slowest-second=%.0f all-connected-after=%v "+
		"p50=%v p90=%v p99=%v max=%v rss-peak=%dMB vmhwm=%dMB heap-inuse-peak=%dMB goroutines-peak=%d",
		protocol, devices, rate, rep.Sent, rep.Acked, stored, rep.Unacked, rep.Errors, rep.Reconnects,
		rep.PositionsPerSec, steady, worst, s.allConnected(devices), rep.P50, rep.P90, rep.P99, rep.Max,
		s.rssPeak>>20, procStatus("VmHWM")>>20, s.heapPeak>>20, s.goroutinesPeak)
	if rep.NoAck == "" && uint64(stored) < rep.Acked {
		t.Errorf("%d positions acknowledged but only %d stored", rep.Acked, stored)
	}
}

// sampler records, every tick, the process's resident memory, Go heap,
// goroutines and the core's counters (stored positions, live connections).
type sampler struct {
	core func() ingest.Stats

	mu                sync.Mutex
	rssPeak, heapPeak uint64
	goroutinesPeak    int
	times             []time.Time
	stats             []ingest.Stats
}

func (s *sampler) start(every time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

func (s *sampler) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rssPeak = max(s.rssPeak, procStatus("VmRSS"))
	s.heapPeak = max(s.heapPeak, m.HeapInuse)
	s.goroutinesPeak = max(s.goroutinesPeak, runtime.NumGoroutine())
	s.times = append(s.times, time.Now())
	s.stats = append(s.stats, s.core())
}

// rate is the storing rate between from and to (offsets from the first
// sample), and the slowest one-sample step in that window.
func (s *sampler) rate(from, to time.Duration) (rate, slowest float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	first, last := -1, -1
	slowest = -1
	for i, at := range s.times {
		if at.Before(s.times[0].Add(from)) || at.After(s.times[0].Add(to)) {
			continue
		}
		if first >= 0 {
			r := float64(s.stats[i].PositionsStored-s.stats[i-1].PositionsStored) / at.Sub(s.times[i-1]).Seconds()
			if slowest < 0 || r < slowest {
				slowest = r
			}
		} else {
			first = i
		}
		last = i
	}
	if first < 0 || last <= first {
		return 0, 0
	}
	stored := s.stats[last].PositionsStored - s.stats[first].PositionsStored
	return float64(stored) / s.times[last].Sub(s.times[first]).Seconds(), slowest
}

// allConnected is when the server first held n live device connections
// (-1s if never).
func (s *sampler) allConnected(n int) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, st := range s.stats {
		if st.Connections >= n {
			return s.times[i].Sub(s.times[0]).Round(time.Second)
		}
	}
	return -time.Second
}

// procStatus reads a kB field of /proc/self/status, in bytes (0 if absent).
func procStatus(field string) uint64 { return procStatusOf(0, field) }

// procStatusOf reads a kB field of process pid's status (0: this process).
func procStatusOf(pid int, field string) uint64 {
	path := "/proc/self/status"
	if pid != 0 {
		path = "/proc/" + strconv.Itoa(pid) + "/status"
	}
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func raiseFileLimit(t *testing.T, want uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur >= want {
		return
	}
	lim.Cur = min(want, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < want {
		t.Fatalf("need %d file descriptors, the limit is %d (%v)", want, lim.Cur, err)
	}
}

func envInt(t *testing.T, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", key, v)
	}
	return n
}

func envDuration(t *testing.T, key string, def time.Duration) time.Duration {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("%s=%q: want a positive duration", key, v)
	}
	return d
}

// testLog sends Run's progress lines to the test log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
