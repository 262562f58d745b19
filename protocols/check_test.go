package protocols

import (
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
)

func TestCheckFix(t *testing.T) {
	ok := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		p    app.Position
		good bool
	}{
		{"normal", app.Position{Latitude: 54.9, Longitude: 24, FixTime: ok}, true},
		{"edges", app.Position{Latitude: -90, Longitude: 180, FixTime: ok}, true},
		{"no time (status frame)", app.Position{Outdated: true}, true},
		{"latitude off", app.Position{Latitude: -449.1, FixTime: ok}, false},
		{"longitude off", app.Position{Longitude: -303.05, FixTime: ok}, false},
		{"NaN speed", app.Position{Speed: math.NaN(), FixTime: ok}, false},
		{"year 9999+", app.Position{FixTime: time.UnixMilli(math.MaxInt64 / 2)}, false},
		{"device time before 1970", app.Position{FixTime: ok, DeviceTime: time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC)}, false},
	}
	for _, tt := range tests {
		if err := CheckFix(&tt.p); (err == nil) != tt.good {
			t.Errorf("%s: CheckFix = %v, want ok %v", tt.name, err, tt.good)
		}
	}
}
