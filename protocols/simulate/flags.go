package simulate

import (
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Flags binds the options to command-line flags with the defaults of
// fleetd simulate: ten gt06 devices on localhost, a position every 10 s.
func (o *Options) Flags(f *pflag.FlagSet) {
	f.IntVar(&o.Devices, "devices", 10, "number of simulated trackers")
	f.StringVar(&o.Protocol, "protocol", "gt06", "protocol: "+strings.Join(Protocols(), ", "))
	f.DurationVar(&o.Interval, "interval", 10*time.Second, "time between two positions of one tracker")
	f.BoolVar(&o.ClosedLoop, "closed-loop", false, "send each tracker's next position as soon as the last is acknowledged (--interval unused)")
	f.DurationVar(&o.Warmup, "warmup", 0, "leave this first part of the run (ramp included) out of the measured window")
	f.StringVar(&o.Server, "server", "localhost", "server host, or host:port")
	f.IntVar(&o.Port, "port", 0, "server port (0: the protocol's default port)")
	f.DurationVar(&o.Duration, "duration", 0, "how long to run (0: until interrupted)")
	f.DurationVar(&o.Ramp, "ramp", 0, "spread the first connections over this long (0: one interval)")
	f.Int64Var(&o.FirstID, "first-id", 860000000000000, "IMEI of the first tracker")
	f.Int64Var(&o.Seed, "seed", 1, "seed for routes and timing (same seed, same run)")
}
