// Package simulate drives a fleetd server with simulated GPS devices: each
// device connects, logs in and sends a position every interval along a
// plausible route, in the real wire format of its protocol, and measures
// how long the server takes to acknowledge stored positions. It is the
// engine of `fleetd simulate` and of the load benchmark.
package simulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/protocols/catalog"
)

// DefaultFirstID is the IMEI of the first device when Options.FirstID is 0.
const DefaultFirstID = 860_000_000_000_000

// Options configure Run. Devices, Protocol and Interval are required.
type Options struct {
	Devices  int
	Protocol string        // one of Protocols()
	Interval time.Duration // between two positions of one device (jittered by ±10%)
	// ClosedLoop sends each device's next position as soon as the last one
	// is acknowledged, instead of every Interval (which is then unused):
	// the load is whatever the server sustains. TCP protocols with ACKs only.
	ClosedLoop bool
	// Warmup, when set, is the part of the run (ramp included) that is not
	// measured: the report's window counts, and its latencies cover, only
	// what happens after it.
	Warmup time.Duration
	// Server is "host" or "host:port"; empty means localhost. A port in
	// Server wins over Port.
	Server string
	Port   int // 0: the protocol's default port
	// Duration bounds the run; 0 runs until ctx is done.
	Duration time.Duration
	// Ramp spreads the first connections over this long; 0 means one
	// Interval, and at least 0.5 ms per device. Every login costs the
	// server durable writes before it answers, so thousands of devices
	// connecting at once can time their logins out.
	Ramp time.Duration
	// FirstID is the first device's IMEI; devices are FirstID,
	// FirstID+1, ... (see UniqueID for the ids each protocol reports).
	FirstID int64
	// Seed makes routes and timing jitter reproducible; it also picks the
	// city the fleet drives in (CityFor).
	Seed int64
	// Log receives progress every few seconds and the first connection
	// errors; nil for silence.
	Log io.Writer
}

// Timing of the device loops; tests shorten them.
type timing struct {
	dial, login, request time.Duration // bounds on connect, login answer, one HTTP request
	drain                time.Duration // waiting for outstanding ACKs after the run
	backoffMin, backoff  time.Duration // reconnect delay, doubled up to backoff
	progress             time.Duration // between progress lines
}

var defaultTiming = timing{
	dial: 10 * time.Second, login: 10 * time.Second, request: 30 * time.Second,
	drain:      5 * time.Second,
	backoffMin: 500 * time.Millisecond, backoff: 30 * time.Second,
	progress: 5 * time.Second,
}

// Run simulates opts.Devices devices until opts.Duration has passed or ctx
// is done, then waits briefly for outstanding acknowledgements and reports.
// Connection failures are counted and retried with backoff, not returned:
// the error is only for invalid options.
func Run(ctx context.Context, opts Options) (Report, error) {
	return run(ctx, opts, defaultTiming)
}

func run(ctx context.Context, opts Options, tm timing) (Report, error) {
	if err := opts.check(); err != nil {
		return Report{}, err
	}
	r := newRunner(opts, tm)
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Duration > 0 {
		runCtx, cancel = context.WithTimeout(ctx, opts.Duration)
	}
	defer cancel()

	start := time.Now()
	var wg sync.WaitGroup
	for i := range opts.Devices {
		d := r.device(int64(i))
		wg.Go(func() { d.loop(runCtx) })
	}
	stopProgress := r.progress(start)
	warm := r.warmup(start)
	<-runCtx.Done()
	elapsed := time.Since(start)
	end := r.stats.snapshot()
	warm.Stop()
	wg.Wait()
	stopProgress()
	rep := r.report(elapsed)
	r.window(&rep, end)
	r.logf("%s", rep)
	return rep, nil
}

func (o *Options) check() error {
	switch {
	case o.Devices <= 0:
		return errors.New("simulate: at least one device is needed")
	case o.Interval <= 0 && !o.ClosedLoop:
		return errors.New("simulate: the interval must be positive")
	case o.Duration < 0 || o.Ramp < 0 || o.Warmup < 0:
		return errors.New("simulate: the duration, ramp and warm-up cannot be negative")
	case o.ClosedLoop && (o.Protocol == osmandName || codecs[o.Protocol] != nil && codecs[o.Protocol].noAck() != ""):
		return fmt.Errorf("simulate: a closed loop needs a protocol that acknowledges positions, not %s", o.Protocol)
	case o.Port < 0 || o.Port > 65535:
		return fmt.Errorf("simulate: bad port %d", o.Port)
	}
	if o.FirstID == 0 {
		o.FirstID = DefaultFirstID
	}
	if o.FirstID < 0 || o.FirstID > MaxIMEI-int64(o.Devices-1) {
		return fmt.Errorf("simulate: device numbers %d..+%d do not fit in 15 digits", o.FirstID, o.Devices-1)
	}
	if _, err := UniqueID(o.Protocol, o.FirstID); err != nil {
		return err
	}
	if o.Server == "" {
		o.Server = "localhost"
	}
	return nil
}

// address is opts.Server with the port filled in.
func (o *Options) address() string {
	if _, _, err := net.SplitHostPort(o.Server); err == nil {
		return o.Server
	}
	port := o.Port
	if port == 0 {
		port = DefaultPort(o.Protocol)
	}
	return net.JoinHostPort(o.Server, strconv.Itoa(port))
}

// DefaultPort is the port fleetd listens on for protocol (0 if unknown).
func DefaultPort(protocol string) int {
	for _, e := range catalog.All() {
		if e.Name == protocol {
			return e.DefaultPort
		}
	}
	return 0
}

// device is one simulated device's loop.
type device interface{ loop(ctx context.Context) }

// runner holds what every device of a run shares.
type runner struct {
	opts  Options
	tm    timing
	addr  string
	codec codec // nil for osmand
	stats stats
	lat   histogram
	warm  atomic.Pointer[counts] // the counters when the warm-up ended
	log   *logger
	http  *http.Client
}

func newRunner(opts Options, tm timing) *runner {
	r := &runner{opts: opts, tm: tm, addr: opts.address(), codec: codecs[opts.Protocol], log: newLogger(opts.Log)}
	if r.codec == nil {
		r.http = newHTTPClient(opts.Devices, tm.request)
	}
	return r
}

func (r *runner) device(n int64) device {
	imei := r.opts.FirstID + n
	base := deviceBase{
		r:     r,
		route: NewRoute(r.opts.Seed, imei),
		// A second stream for timing, so routes do not depend on it.
		rng: rand.New(rand.NewPCG(uint64(r.opts.Seed)^0x9E3779B97F4A7C15, uint64(imei))),
	}
	if r.codec == nil {
		base.id = imeiText(imei)
		return &httpDevice{deviceBase: base, url: "http://" + r.addr + "/"}
	}
	base.id = r.codec.id(imei)
	return &tcpDevice{deviceBase: base}
}

// deviceBase is what TCP and HTTP devices share: identity, route, timing.
type deviceBase struct {
	r     *runner
	id    string
	route *Route
	rng   *rand.Rand
	last  time.Time // the time of the last fix
}

// rampUp is how long the first connections are spread over (Options.Ramp).
// By default one interval, and at least half a millisecond per device so
// that thousands of devices do not overflow the server's accept queue.
func (d *deviceBase) rampUp() time.Duration {
	if d.r.opts.Ramp > 0 {
		return d.r.opts.Ramp
	}
	first := d.r.opts.Interval
	if d.r.opts.ClosedLoop {
		first = 0
	}
	return max(first, time.Duration(d.r.opts.Devices)*500*time.Microsecond)
}

func (d *deviceBase) startDelay() time.Duration {
	return time.Duration(d.rng.Int64N(int64(d.rampUp())))
}

// interval is the wait before the next position: Interval ±10%, so devices
// do not fall into step.
func (d *deviceBase) interval() time.Duration {
	i := d.r.opts.Interval
	return i - i/10 + time.Duration(d.rng.Int64N(int64(i/5)+1))
}

// fix advances the route by dt and stamps the fix with the wall clock, in
// whole seconds as most trackers send it. A tracker has one fix a second at
// most; asked for more, the device's clock runs ahead, so that no fix
// repeats the last one's time and place, which the server would rightly
// take for a resend and not store again.
func (d *deviceBase) fix(dt time.Duration) Fix {
	f := d.route.Next(dt)
	f.Time = time.Now().UTC().Truncate(time.Second)
	if !f.Time.After(d.last) {
		f.Time = d.last.Add(time.Second)
	}
	d.last = f.Time
	return f
}

// retry waits before the next attempt; false when ctx ended first.
func (d *deviceBase) retry(ctx context.Context, b *backoff, err error) bool {
	d.r.fail(d.id, err)
	if !sleep(ctx, b.next(d.rng)) {
		return false
	}
	d.r.stats.reconnects.Add(1)
	return true
}

// backoff doubles the reconnect delay up to a bound, with jitter so that
// devices dropped together do not come back together.
type backoff struct {
	min, max, cur time.Duration
}

func (b *backoff) next(rng *rand.Rand) time.Duration {
	b.cur = min(max(b.cur*2, b.min), b.max)
	return b.cur/2 + time.Duration(rng.Int64N(int64(b.cur/2)+1))
}

func (b *backoff) reset() { b.cur = 0 }

// sleep waits d or until ctx is done; false if ctx ended it.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
