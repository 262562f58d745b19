// Package bench is `fleetd bench ingest`, the device-load benchmark of
// issue 14: in one run on one machine, fleetd's durable positions/s with
// GT06 trackers in a closed loop, the same load against a null GT06 server
// (the ceiling of the network path), the raw store append rate, latency in
// an open loop at a quarter of that ceiling, the server's memory and the
// store's bytes per position. The servers are processes of their own
// (fleetd serve, fleetd bench null-gt06); the load generator and the store
// benchmark run in the calling process.
package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/protocols/simulate"
	"github.com/fleetd/fleetd/storage"
)

// Options configure Ingest.
type Options struct {
	// Exe runs fleetd: Exe ExeArgs... serve --config FILE, and
	// Exe ExeArgs... bench null-gt06; Env is added to its environment.
	Exe     string
	ExeArgs []string
	Env     []string

	Devices int           // simulated GT06 trackers (5,000)
	Runs    int           // rounds of fleetd, null server and store runs, interleaved
	Ramp    time.Duration // the connections are spread over this long
	Settle  time.Duration // then this long passes before the measured window
	Measure time.Duration // the measured window of each run
	Dir     string        // where the runs' stores go (removed after each run); "" is the system's
	Out     io.Writer     // progress and results
}

// Load is one load run against one server.
type Load struct {
	Target    string // "fleetd" or "null"
	Loop      string // "closed" or "open 1234/s"
	PerSec    float64
	P50, P99  time.Duration
	Connected int // trackers logged in when the window began
	Mem       memory
	// CPU used in the measured window (to its 90% point), in cores: the
	// server's and this process's (the load generator's).
	ServerCores, LoadCores float64
	Stored                 int64 // positions in the store after the run (fleetd)
	FileBytes              int64 // the store file's size after the run (fleetd)
	Report                 simulate.Report
}

// Store is one run of the raw store append.
type Store struct {
	PerSec    float64
	Positions int64
	FileBytes int64
	Record    int // bytes of one position's JSON
}

// Result is everything Ingest measured.
type Result struct {
	Fleetd, Null []Load
	Store        []Store
	Open         []Load // open loop at a quarter of the null server's median
}

// Ingest runs the benchmark and writes its progress and results to o.Out.
func Ingest(ctx context.Context, o Options) (*Result, error) {
	if o.Devices <= 0 || o.Runs <= 0 || o.Measure <= 0 || o.Exe == "" {
		return nil, errors.New("bench: devices, runs, a measured window and the fleetd executable are needed")
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if d := o.Ramp + o.Settle + o.Measure; d > 50*time.Second {
		fmt.Fprintf(o.Out, "warning: a run of %s: fleetd serve writes its first scheduled backup a minute after start, in the measured window\n", d)
	}
	fmt.Fprintf(o.Out, "fleetd bench ingest: %d GT06 trackers, %d interleaved rounds, ramp %s + settle %s, measured %s; GOMAXPROCS %d, %d CPUs; load average %s\n",
		o.Devices, o.Runs, o.Ramp, o.Settle, o.Measure, runtime.GOMAXPROCS(0), runtime.NumCPU(), loadAverage())
	res := &Result{}
	var template *model.Position
	for round := range o.Runs {
		// Alternate which server goes first, so that a drift of the
		// machine's load does not favour one.
		order := []string{"fleetd", "null"}
		if round%2 == 1 {
			order = []string{"null", "fleetd"}
		}
		for _, target := range order {
			l, tmpl, err := o.load(ctx, target, 0)
			if err != nil {
				return res, fmt.Errorf("round %d, %s: %w", round+1, target, err)
			}
			if target == "fleetd" {
				res.Fleetd = append(res.Fleetd, l)
				template = cmp.Or(template, tmpl)
			} else {
				res.Null = append(res.Null, l)
			}
			o.printLoad(round+1, l)
		}
		s, err := o.store(ctx, template)
		if err != nil {
			return res, fmt.Errorf("round %d, store: %w", round+1, err)
		}
		res.Store = append(res.Store, s)
		fmt.Fprintf(o.Out, "round %d  store   %d writers   %9.0f positions/s  %d positions, %.0f file bytes each (record %d B)  load average %s\n",
			round+1, o.Devices, s.PerSec, s.Positions, float64(s.FileBytes)/float64(max(s.Positions, 1)), s.Record, loadAverage())
	}
	ceiling := median(res.Null, func(l Load) float64 { return l.PerSec })
	if rate := ceiling / 4; rate > 0 {
		for _, target := range []string{"fleetd", "null"} {
			l, _, err := o.load(ctx, target, rate)
			if err != nil {
				return res, fmt.Errorf("open loop, %s: %w", target, err)
			}
			res.Open = append(res.Open, l)
			o.printLoad(0, l)
		}
	}
	res.print(o)
	return res, nil
}

// load runs the trackers against a fresh server: in a closed loop, or in
// an open loop at rate positions/s. Against fleetd it also returns a stored
// position, the template of the store runs.
func (o *Options) load(ctx context.Context, target string, rate float64) (Load, *model.Position, error) {
	l := Load{Target: target, Loop: "closed"}
	so := simulate.Options{Devices: o.Devices, Protocol: "gt06", ClosedLoop: rate == 0, Ramp: o.Ramp,
		Warmup: o.Ramp + o.Settle, Duration: o.Ramp + o.Settle + o.Measure}
	if rate > 0 {
		so.Interval = time.Duration(float64(o.Devices) / rate * float64(time.Second))
		l.Loop = fmt.Sprintf("open %.0f/s", rate)
	}
	dir, err := os.MkdirTemp(o.Dir, "fleetd-bench-")
	if err != nil {
		return l, nil, err
	}
	defer os.RemoveAll(dir)
	var srv *child
	var store string
	if target == "fleetd" {
		if store, err = o.prepare(dir); err != nil {
			return l, nil, err
		}
		srv, err = o.start(serveReady, "serve", "--config", filepath.Join(dir, "fleetd.yaml"))
	} else {
		srv, err = o.start(nullReady, "bench", "null-gt06", "--listen", "127.0.0.1:0")
	}
	if err != nil {
		return l, nil, err
	}
	defer srv.cmd.Process.Kill() // after a failure; a no-op once stopped
	_, port, err := net.SplitHostPort(srv.addr)
	if err != nil {
		return l, nil, err
	}
	so.Server = net.JoinHostPort("127.0.0.1", port)
	sampled := make(chan struct{})
	go func() { // the server's memory near the end of the window, all trackers connected; CPU over the window
		defer close(sampled)
		pid := strconv.Itoa(srv.cmd.Process.Pid)
		if !sleepCtx(ctx, so.Warmup) {
			return
		}
		t0 := time.Now()
		server0, _ := cpuTime(pid)
		self0, _ := cpuTime("self")
		if !sleepCtx(ctx, o.Measure*9/10) {
			return
		}
		l.Mem, _ = readMemory(srv.cmd.Process.Pid)
		server1, _ := cpuTime(pid)
		self1, _ := cpuTime("self")
		secs := time.Since(t0).Seconds()
		l.ServerCores, l.LoadCores = (server1-server0).Seconds()/secs, (self1-self0).Seconds()/secs
	}()
	rep, err := simulate.Run(ctx, so)
	if err != nil {
		return l, nil, err
	}
	<-sampled
	if err := srv.stop(); err != nil {
		return l, nil, err
	}
	if ctx.Err() != nil {
		return l, nil, ctx.Err()
	}
	l.Report, l.PerSec, l.P50, l.P99, l.Connected = rep, rep.WindowPerSec, rep.P50, rep.P99, rep.WindowConnected
	if target != "fleetd" {
		return l, nil, nil
	}
	tmpl, err := l.count(store)
	return l, tmpl, err
}

// prepare writes serve's configuration in dir (GT06 only, on a free port;
// every tracker may connect from loopback) and registers the trackers in
// its store, in one transaction, as an operator would beforehand.
func (o *Options) prepare(dir string) (string, error) {
	data := filepath.Join(dir, "data")
	yaml := fmt.Sprintf("data: {dir: %q}\nweb: {address: '127.0.0.1:0'}\nlog: {format: json}\n"+
		"devices: {maxConnectionsPerIp: %d}\nprotocols:\n", data, o.Devices+1000)
	for _, p := range catalog.ConfigDefaults().Protocols {
		if p.Name == "gt06" {
			yaml += "  gt06: {port: 0}\n"
		} else {
			yaml += "  " + p.Name + ": {enabled: false}\n"
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "fleetd.yaml"), []byte(yaml), 0o600); err != nil {
		return "", err
	}
	if err := os.MkdirAll(data, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(data, "fleetd.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		return "", err
	}
	err = db.Update(func(tx model.Tx) error {
		for i := range int64(o.Devices) {
			id, err := simulate.UniqueID("gt06", simulate.DefaultFirstID+i)
			if err != nil {
				return err
			}
			d := &model.Device{Name: "bench " + id, UniqueID: id, Status: model.StatusOffline, Attributes: model.Attributes{}}
			if err := tx.Devices().Create(d); err != nil {
				return err
			}
		}
		return nil
	})
	return path, errors.Join(err, db.Close())
}

// count reads the stopped server's store: its size, the positions in it,
// and the newest position of one tracker.
func (l *Load) count(path string) (*model.Position, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	l.FileBytes = st.Size()
	db, err := storage.Open(path, storage.Options{ReadOnly: true, Timeout: 10 * time.Second})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var template *model.Position
	err = db.View(func(tx model.Tx) error {
		var ids []int64
		if err := tx.Devices().List(func(d *model.Device) bool { ids = append(ids, d.ID); return true }); err != nil {
			return err
		}
		for _, id := range ids {
			err := tx.Positions(id, time.Time{}, time.Now().AddDate(1, 0, 0), func(p *model.Position) bool {
				l.Stored++
				if template == nil {
					template = p
				}
				return true
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && l.Stored < int64(l.Report.Acked) {
		err = fmt.Errorf("%d positions acknowledged but %d stored", l.Report.Acked, l.Stored)
	}
	return template, err
}

func (o *Options) printLoad(round int, l Load) {
	name := fmt.Sprintf("round %d", round)
	if round == 0 {
		name = "open   "
	}
	line := fmt.Sprintf("%s  %-6s  %-12s %9.0f positions/s  p50 %-8s p99 %-8s  %d connected  VmRSS %s (anon %s, file %s) VmHWM %s  cores: server %.2f, load %.2f",
		name, l.Target, l.Loop, l.PerSec, round3(l.P50), round3(l.P99), l.Connected, mib(l.Mem.rss), mib(l.Mem.anon), mib(l.Mem.file),
		mib(l.Mem.hwm), l.ServerCores, l.LoadCores)
	if l.Target == "fleetd" {
		line += fmt.Sprintf("  stored %d (acked %d, %d unacked), %.0f file bytes/position",
			l.Stored, l.Report.Acked, l.Report.Unacked, float64(l.FileBytes)/float64(max(l.Stored, 1)))
	}
	if l.Report.Errors > 0 {
		line += fmt.Sprintf("  %d errors", l.Report.Errors)
	}
	fmt.Fprintln(o.Out, line+"  load average "+loadAverage())
}

func (r *Result) print(o Options) {
	w := o.Out
	fl := func(l Load) float64 { return l.PerSec }
	fleetd, null := median(r.Fleetd, fl), median(r.Null, fl)
	fmt.Fprintf(w, "\nmedians of %d fleetd, %d null server and %d store runs (load average now %s):\n",
		len(r.Fleetd), len(r.Null), len(r.Store), loadAverage())
	fmt.Fprintf(w, "1. fleetd, closed loop:       %8.0f durable positions/s  p50 %s p99 %s  (runs: %s)\n", fleetd,
		round3(medianDur(r.Fleetd, func(l Load) time.Duration { return l.P50 })),
		round3(medianDur(r.Fleetd, func(l Load) time.Duration { return l.P99 })), list(r.Fleetd, fl))
	fmt.Fprintf(w, "2. null GT06 server, closed:  %8.0f positions/s          p50 %s p99 %s  (runs: %s)\n", null,
		round3(medianDur(r.Null, func(l Load) time.Duration { return l.P50 })),
		round3(medianDur(r.Null, func(l Load) time.Duration { return l.P99 })), list(r.Null, fl))
	if null > 0 {
		// Also round by round: the two runs of a round are next to each
		// other, so a change in what else the machine runs hits both.
		var ratios []float64
		for i := range min(len(r.Fleetd), len(r.Null)) {
			ratios = append(ratios, r.Fleetd[i].PerSec/max(r.Null[i].PerSec, 1))
		}
		byRound := make([]string, len(ratios))
		for i, x := range ratios {
			byRound[i] = fmt.Sprintf("%.2f", x)
		}
		fmt.Fprintf(w, "   ratio fleetd/null          %8.2f  (issue 14 target >= 0.6); round by round %s, median %.2f\n",
			fleetd/null, strings.Join(byRound, ", "), median(ratios, func(x float64) float64 { return x }))
	}
	fs := func(s Store) float64 { return s.PerSec }
	if len(r.Store) > 0 {
		fmt.Fprintf(w, "3. store append (storage.Batch, %d writers, one fsync per group): %.0f positions/s of %d-byte records (runs: %s)\n",
			o.Devices, median(r.Store, fs), r.Store[0].Record, list(r.Store, fs))
	}
	for _, l := range r.Open {
		fmt.Fprintf(w, "4. %-6s open loop at a quarter of the ceiling (%s): %.0f positions/s acked, p50 %s p99 %s\n",
			l.Target, strings.TrimPrefix(l.Loop, "open "), l.PerSec, round3(l.P50), round3(l.P99))
	}
	rss := func(l Load) float64 { return float64(l.Mem.rss) }
	hwm := func(l Load) float64 { return float64(l.Mem.hwm) }
	anon := func(l Load) float64 { return float64(l.Mem.anon) }
	fmt.Fprintf(w, "5. server memory with %d trackers connected, closed loop: fleetd VmRSS %s (anonymous %s; VmHWM %s), null VmRSS %s (VmHWM %s)\n",
		o.Devices, mib(int64(median(r.Fleetd, rss))), mib(int64(median(r.Fleetd, anon))), mib(int64(median(r.Fleetd, hwm))),
		mib(int64(median(r.Null, rss))), mib(int64(median(r.Null, hwm))))
	sc := func(l Load) float64 { return l.ServerCores }
	lc := func(l Load) float64 { return l.LoadCores }
	fmt.Fprintf(w, "   CPU in the window, closed loop: fleetd %.2f cores (%.0f µs/position), its load generator %.2f; null server %.2f cores (%.0f µs/position), its load generator %.2f\n",
		median(r.Fleetd, sc), median(r.Fleetd, func(l Load) float64 { return l.ServerCores / max(l.PerSec, 1) * 1e6 }), median(r.Fleetd, lc),
		median(r.Null, sc), median(r.Null, func(l Load) float64 { return l.ServerCores / max(l.PerSec, 1) * 1e6 }), median(r.Null, lc))
	bpp := func(l Load) float64 { return float64(l.FileBytes) / float64(max(l.Stored, 1)) }
	sbpp := func(s Store) float64 { return float64(s.FileBytes) / float64(max(s.Positions, 1)) }
	fmt.Fprintf(w, "6. bytes per position on disk: fleetd store %.0f (file size / positions stored; runs: %s), raw store run %.0f\n",
		median(r.Fleetd, bpp), list(r.Fleetd, bpp), median(r.Store, sbpp))
}

func median[T any](xs []T, f func(T) float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	slices.Sort(v)
	if n := len(v); n%2 == 0 {
		return (v[n/2-1] + v[n/2]) / 2
	}
	return v[len(v)/2]
}

func medianDur[T any](xs []T, f func(T) time.Duration) time.Duration {
	return time.Duration(median(xs, func(x T) float64 { return float64(f(x)) }))
}

func list[T any](xs []T, f func(T) float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprintf("%.0f", f(x))
	}
	return strings.Join(s, ", ")
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func round3(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// sleepCtx waits d or until ctx is done; false if ctx ended it.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
