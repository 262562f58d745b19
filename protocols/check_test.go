package protocols

import (
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func TestCheckFix(t *testing.T) {
	ok := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		p    model.Position
		good bool
	}{
		{"normal", model.Position{Latitude: 54.9, Longitude: 24, FixTime: ok}, true},
		{"edges", model.Position{Latitude: -90, Longitude: 180, FixTime: ok}, true},
		{"no time (status frame)", model.Position{Outdated: true}, true},
		{"latitude off", model.Position{Latitude: -449.1, FixTime: ok}, false},
		{"longitude off", model.Position{Longitude: -303.05, FixTime: ok}, false},
		{"NaN speed", model.Position{Speed: math.NaN(), FixTime: ok}, false},
		{"year 9999+", model.Position{FixTime: time.UnixMilli(math.MaxInt64 / 2)}, false},
		{"device time before 1970", model.Position{FixTime: ok, DeviceTime: time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC)}, false},
	}
	for _, tt := range tests {
		if err := CheckFix(&tt.p); (err == nil) != tt.good {
			t.Errorf("%s: CheckFix = %v, want ok %v", tt.name, err, tt.good)
		}
	}
}
