package simulate

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// fastTiming keeps failure paths short in tests.
var fastTiming = timing{
	dial: 2 * time.Second, login: 2 * time.Second, request: 5 * time.Second,
	drain:      3 * time.Second,
	backoffMin: 50 * time.Millisecond, backoff: 200 * time.Millisecond,
	progress: time.Hour,
}

// outcome is one concurrent run's report and what the store holds after it.
type outcome struct {
	rep    Report
	stored int
	log    strings.Builder
	err    error
}

// runAll runs opts against a fresh server per protocol, all at once (go
// test runs only GOMAXPROCS parallel tests, and these mostly wait).
func runAll(t *testing.T, names []string, registered int, opts Options, tm timing) map[string]*outcome {
	out := map[string]*outcome{}
	var wg sync.WaitGroup
	for _, name := range names {
		srv := startServer(t, name, DefaultFirstID, registered)
		o := &outcome{}
		out[name] = o
		opts := opts
		opts.Protocol, opts.Server, opts.Log = name, srv.addr, &o.log
		wg.Go(func() {
			if o.rep, o.err = run(context.Background(), opts, tm); o.err == nil {
				o.stored, o.err = srv.stored(CityFor(opts.Seed))
			}
		})
	}
	wg.Wait()
	return out
}

// TestRunEveryProtocol drives a real listener of each protocol with five
// devices for a second: every position sent must be stored, and on
// protocols with ACKs every one acknowledged.
func TestRunEveryProtocol(t *testing.T) {
	t.Parallel()
	const devices = 5
	results := runAll(t, Protocols(), devices, Options{Devices: devices, Interval: 100 * time.Millisecond,
		Duration: time.Second, Seed: 11}, fastTiming)
	for name, o := range results {
		t.Run(name, func(t *testing.T) {
			rep := o.rep
			t.Logf("%s\n%d stored", rep, o.stored)
			if o.err != nil {
				t.Fatal(o.err)
			}
			if rep.Errors != 0 || rep.Sent < devices || uint64(o.stored) != rep.Sent {
				t.Fatalf("sent %d, stored %d, errors %d; log:\n%s", rep.Sent, o.stored, rep.Errors, o.log.String())
			}
			if rep.Connected != devices {
				t.Errorf("%d devices connected at the end, want %d", rep.Connected, devices)
			}
			if rep.NoAck != "" {
				if rep.Acked != 0 || rep.P50 != 0 || rep.PositionsPerSec != rep.SentPerSec {
					t.Errorf("%s has no ACKs but the report shows %d acked, p50 %v", name, rep.Acked, rep.P50)
				}
				return
			}
			if rep.Acked != rep.Sent || rep.Unacked != 0 {
				t.Errorf("sent %d, acked %d, unacked %d", rep.Sent, rep.Acked, rep.Unacked)
			}
			if rep.P50 <= 0 || rep.P50 > rep.P99 || rep.P99 > rep.Max {
				t.Errorf("latency p50 %v p99 %v max %v", rep.P50, rep.P99, rep.Max)
			}
		})
	}
}

// TestRunUnknownDevices: a server that does not know the devices never
// answers their login (or answers 404); they count errors, retry and
// store nothing.
func TestRunUnknownDevices(t *testing.T) {
	t.Parallel()
	tm := fastTiming
	tm.login = 200 * time.Millisecond
	results := runAll(t, []string{"gt06", "osmand"}, 0, Options{Devices: 3, Interval: 50 * time.Millisecond,
		Duration: 700 * time.Millisecond}, tm)
	for name, o := range results {
		rep := o.rep
		if o.err != nil || o.stored != 0 || rep.Errors < 3 || rep.Acked != 0 || rep.Connected != 0 || rep.Reconnects == 0 {
			t.Errorf("%s, unknown devices: %v\n%s\nlog:\n%s", name, o.err, rep, o.log.String())
		}
		if !strings.Contains(o.log.String(), "registered?") {
			t.Errorf("%s: the log does not hint at registration:\n%s", name, o.log.String())
		}
	}
}

// TestRunReconnects restarts the listener mid-run: devices come back with
// backoff and go on storing positions.
func TestRunReconnects(t *testing.T) {
	t.Parallel()
	srv := startServer(t, "gt06", DefaultFirstID, 4)
	done := make(chan Report)
	go func() {
		rep, err := run(context.Background(), Options{Devices: 4, Protocol: "gt06", Interval: 50 * time.Millisecond,
			Server: srv.addr, Duration: 1500 * time.Millisecond}, fastTiming)
		if err != nil {
			t.Error(err)
		}
		done <- rep
	}()
	time.Sleep(600 * time.Millisecond)
	srv.stop()
	before, err := srv.stored(CityFor(0))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	srv.listen(srv.addr)
	rep := <-done
	after, err := srv.stored(CityFor(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s\nstored %d before the restart, %d at the end", rep, before, after)
	if before == 0 || after <= before || rep.Reconnects < 4 || rep.Errors < 4 {
		t.Errorf("no recovery: stored %d then %d, %d reconnects, %d errors", before, after, rep.Reconnects, rep.Errors)
	}
	if rep.Acked+rep.Unacked != rep.Sent || uint64(after) < rep.Acked {
		t.Errorf("sent %d != acked %d + unacked %d, or fewer stored (%d) than acked", rep.Sent, rep.Acked, rep.Unacked, after)
	}
}

// TestRunClosedLoop: each device sends its next position when the last is
// acknowledged, so at most one is in flight; the window after the warm-up
// is reported apart.
func TestRunClosedLoop(t *testing.T) {
	t.Parallel()
	const devices = 4
	srv := startServer(t, "gt06", DefaultFirstID, devices)
	var log strings.Builder
	rep, err := run(context.Background(), Options{Devices: devices, Protocol: "gt06", ClosedLoop: true, Server: srv.addr,
		Ramp: 50 * time.Millisecond, Warmup: 300 * time.Millisecond, Duration: time.Second, Log: &log}, fastTiming)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := srv.stored(CityFor(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s\n%d stored", rep, stored)
	if rep.Errors != 0 || rep.Sent < 2*devices || rep.Acked != rep.Sent || rep.Unacked != 0 || uint64(stored) != rep.Sent {
		t.Fatalf("sent %d, acked %d, unacked %d, stored %d, errors %d; log:\n%s", rep.Sent, rep.Acked, rep.Unacked, stored, rep.Errors, &log)
	}
	if rep.WindowConnected != devices || rep.Window < 600*time.Millisecond || rep.Window > time.Second ||
		rep.WindowAcked == 0 || rep.WindowAcked >= rep.Acked || rep.WindowSent > rep.WindowAcked+devices {
		t.Errorf("window %v, %d connected at its start, sent %d, acked %d of %d", rep.Window, rep.WindowConnected,
			rep.WindowSent, rep.WindowAcked, rep.Acked)
	}
	if !strings.Contains(rep.String(), "measured    0.") {
		t.Errorf("the report does not show the window:\n%s", rep)
	}
}

func TestOptionsCheck(t *testing.T) {
	ok := Options{Devices: 1, Protocol: "gt06", Interval: time.Second}
	tests := []struct {
		name   string
		change func(*Options)
		want   string
	}{
		{"valid", func(*Options) {}, ""},
		{"no devices", func(o *Options) { o.Devices = 0 }, "device"},
		{"no interval", func(o *Options) { o.Interval = 0 }, "interval"},
		{"negative duration", func(o *Options) { o.Duration = -time.Second }, "duration"},
		{"negative ramp", func(o *Options) { o.Ramp = -time.Second }, "ramp"},
		{"negative warm-up", func(o *Options) { o.Warmup = -time.Second }, "warm-up"},
		{"closed loop", func(o *Options) { o.Interval, o.ClosedLoop = 0, true }, ""},
		{"closed loop without ACKs", func(o *Options) { o.ClosedLoop, o.Protocol = true, "watch" }, "closed loop"},
		{"closed loop over HTTP", func(o *Options) { o.ClosedLoop, o.Protocol = true, "osmand" }, "closed loop"},
		{"bad port", func(o *Options) { o.Port = 70000 }, "port"},
		{"unknown protocol", func(o *Options) { o.Protocol = "nmea" }, "unknown protocol"},
		{"ids overflow", func(o *Options) { o.FirstID, o.Devices = MaxIMEI, 2 }, "15 digits"},
	}
	for _, tt := range tests {
		o := ok
		tt.change(&o)
		if tt.want == "" {
			if err := o.check(); err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		// Run refuses before doing anything.
		_, err := Run(context.Background(), o)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one about %q", tt.name, err, tt.want)
		}
	}
}

func TestOptionsAddress(t *testing.T) {
	tests := []struct {
		server, protocol string
		port             int
		want             string
	}{
		{"", "gt06", 0, "localhost:5023"},
		{"fleet.example", "osmand", 0, "fleet.example:5055"},
		{"fleet.example", "teltonika", 6000, "fleet.example:6000"},
		{"fleet.example:7000", "teltonika", 6000, "fleet.example:7000"},
		{"::1", "watch", 0, "[::1]:5093"},
		{"[::1]:9", "watch", 0, "[::1]:9"},
	}
	for _, tt := range tests {
		o := Options{Devices: 1, Protocol: tt.protocol, Interval: time.Second, Server: tt.server, Port: tt.port}
		if err := o.check(); err != nil {
			t.Fatal(err)
		}
		if got := o.address(); got != tt.want {
			t.Errorf("address(%q, %d) = %q, want %q", tt.server, tt.port, got, tt.want)
		}
	}
}

func TestReportString(t *testing.T) {
	acked := Report{Protocol: "gt06", Devices: 5000, Connected: 4990, Elapsed: 30 * time.Second,
		Sent: 750000, Acked: 749000, Unacked: 1000, Errors: 10, Reconnects: 10,
		P50: 3210 * time.Microsecond, P90: 8 * time.Millisecond, P99: 41 * time.Millisecond, Max: 1234 * time.Millisecond,
		PositionsPerSec: 24966.7, SentPerSec: 25000}
	noAck := Report{Protocol: "tk103", Devices: 5, Connected: 5, Elapsed: time.Second, Sent: 50, SentPerSec: 50,
		PositionsPerSec: 50, NoAck: "tk103 BR00 positions are not acknowledged"}
	tests := []struct {
		r    Report
		want []string
	}{
		{acked, []string{"gt06: 5000 devices, 4990 connected", "750000 (25000.0/s)", "749000 (24966.7/s), 1000 unacknowledged",
			"p50 3.21ms  p90 8ms  p99 41ms  max 1.23s", "errors      10 (10 reconnects)"}},
		{noAck, []string{"50 (50.0/s)", "not measured: tk103 BR00 positions are not acknowledged; counted sent only"}},
	}
	for _, tt := range tests {
		s := tt.r.String()
		for _, w := range tt.want {
			if !strings.Contains(s, w) {
				t.Errorf("report lacks %q:\n%s", w, s)
			}
		}
	}
	if strings.Contains(noAck.String(), "p50") {
		t.Errorf("a protocol without ACKs shows latencies:\n%s", noAck)
	}
}
