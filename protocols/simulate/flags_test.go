package simulate

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestFlags(t *testing.T) {
	var o Options
	f := pflag.NewFlagSet("simulate", pflag.ContinueOnError)
	o.Flags(f)
	if err := f.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if o.Devices != 10 || o.Protocol != "gt06" || o.Interval != 10*time.Second || o.Server != "localhost" || o.FirstID != 860000000000000 || o.Seed != 1 {
		t.Errorf("defaults %+v", o)
	}
	if err := f.Parse([]string{"--devices", "3", "--protocol", "h02", "--server", "fleet.example.com:5013", "--duration", "1m",
		"--closed-loop", "--warmup", "10s"}); err != nil {
		t.Fatal(err)
	}
	if o.Devices != 3 || o.Protocol != "h02" || o.Server != "fleet.example.com:5013" || o.Duration != time.Minute ||
		!o.ClosedLoop || o.Warmup != 10*time.Second {
		t.Errorf("parsed %+v", o)
	}
}
