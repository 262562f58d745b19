package simulate

import (
	"fmt"
	"strings"
	"time"
)

// Report is the outcome of a run.
type Report struct {
	Protocol  string
	Devices   int
	Elapsed   time.Duration // from start until sending stopped
	Connected int           // devices logged in when sending stopped

	Sent       uint64 // position frames sent
	Acked      uint64 // positions acknowledged as stored
	Unacked    uint64 // sent on connections that ended before their ACK
	Errors     uint64 // failed connects, logins, writes, requests; dropped connections
	Reconnects uint64

	// NoAck says why frame->ACK latency is not measured (the protocol does
	// not acknowledge stored positions); empty when it is.
	NoAck string
	// Frame->ACK latency quantiles, within 6.25% (log-linear buckets).
	P50, P90, P99, Max time.Duration
	// PositionsPerSec is Acked (or Sent, without ACKs) per second of Elapsed.
	PositionsPerSec float64
	// SentPerSec is the load offered.
	SentPerSec float64

	// The measured window, after Options.Warmup (all zero without one):
	// its length, the devices logged in when it began, what was sent and
	// acknowledged in it, and the acknowledged positions per second. The
	// latency quantiles above then cover only ACKs received in it (and the
	// final drain).
	Window          time.Duration
	WindowConnected int
	WindowSent      uint64
	WindowAcked     uint64
	WindowPerSec    float64
}

// window fills the measured window from the counters at the end of the
// run; nothing when the warm-up did not end before it.
func (r *runner) window(rep *Report, end counts) {
	w := r.warm.Load()
	if w == nil {
		return
	}
	rep.Window = end.at.Sub(w.at)
	rep.WindowConnected = int(w.connected)
	rep.WindowSent = end.sent - w.sent
	rep.WindowAcked = end.acked - w.acked
	if rep.NoAck != "" {
		rep.WindowAcked = 0
	}
	if secs := rep.Window.Seconds(); secs > 0 {
		rep.WindowPerSec = float64(rep.WindowAcked) / secs
		if rep.NoAck != "" {
			rep.WindowPerSec = float64(rep.WindowSent) / secs
		}
	}
}

func (r *runner) report(elapsed time.Duration) Report {
	s := &r.stats
	rep := Report{
		Protocol: r.opts.Protocol, Devices: r.opts.Devices, Elapsed: elapsed, Connected: int(s.atEnd.Load()),
		Sent: s.sent.Load(), Acked: s.acked.Load(), Unacked: s.unacked.Load(),
		Errors: s.errors.Load(), Reconnects: s.reconnects.Load(),
		P50: r.lat.quantile(0.50), P90: r.lat.quantile(0.90), P99: r.lat.quantile(0.99), Max: r.lat.maximum(),
	}
	if r.codec != nil {
		rep.NoAck = r.codec.noAck()
	}
	if secs := elapsed.Seconds(); secs > 0 {
		rep.SentPerSec = float64(rep.Sent) / secs
		rep.PositionsPerSec = float64(rep.Acked) / secs
		if rep.NoAck != "" {
			rep.PositionsPerSec = rep.SentPerSec
		}
	}
	return rep
}

// String formats the report for a terminal.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d devices, %d connected at the end, %.1fs\n", r.Protocol, r.Devices, r.Connected, r.Elapsed.Seconds())
	fmt.Fprintf(&b, "  sent        %d (%.1f/s)\n", r.Sent, r.SentPerSec)
	if r.NoAck != "" {
		fmt.Fprintf(&b, "  acked       not measured: %s; counted sent only\n", r.NoAck)
	} else {
		fmt.Fprintf(&b, "  acked       %d (%.1f/s), %d unacknowledged\n", r.Acked, r.PositionsPerSec, r.Unacked)
		fmt.Fprintf(&b, "  frame->ACK  p50 %s  p90 %s  p99 %s  max %s\n",
			roundDuration(r.P50), roundDuration(r.P90), roundDuration(r.P99), roundDuration(r.Max))
	}
	if r.Window > 0 {
		fmt.Fprintf(&b, "  measured    %.1fs after the warm-up, %d connected at its start: sent %d, acked %d (%.1f/s)\n",
			r.Window.Seconds(), r.WindowConnected, r.WindowSent, r.WindowAcked, r.WindowPerSec)
	}
	fmt.Fprintf(&b, "  errors      %d (%d reconnects)", r.Errors, r.Reconnects)
	return b.String()
}

// roundDuration keeps three significant digits or so.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// Failure says why a run that moved no data failed, for the command to
// exit non-zero on: nothing got through (no tracker connected or logged
// in: a wrong address or port, a server not listening), or positions went
// out and none was acknowledged (devices the server does not know, with
// auto-registration off). "" when data got through.
func (r Report) Failure() string {
	switch {
	case r.Sent == 0 && r.Connected == 0:
		return "no tracker connected and logged in: is the server listening for " + r.Protocol +
			" at that address and port? Are the devices registered (or devices.autoRegister on)?"
	case r.Sent == 0:
		return "no position was sent"
	case r.NoAck == "" && r.Acked == 0:
		return "positions were sent and none was acknowledged: the server does not know the devices " +
			"(register their uniqueIds, or turn on devices.autoRegister) or could not store them"
	}
	return ""
}
