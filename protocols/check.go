package protocols

import (
	"math"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// The span of fix times a store can key and JSON can carry; a time outside
// it comes from a corrupt frame, not from a device's clock.
var (
	earliestTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	latestTime   = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// CheckFix rejects a decoded position no real device can send: coordinates
// off the globe, non-finite numbers, or a fix time outside 1970..2200.
// Decoders call it so a corrupt frame is a decode error, not a position.
func CheckFix(p *model.Position) error {
	for _, v := range []float64{p.Latitude, p.Longitude, p.Altitude, p.Speed, p.Course} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return model.Invalid("%s: non-finite number in position", p.Protocol)
		}
	}
	if math.Abs(p.Latitude) > 90 || math.Abs(p.Longitude) > 180 {
		return model.Invalid("%s: coordinates %.6f, %.6f are off the globe", p.Protocol, p.Latitude, p.Longitude)
	}
	for _, t := range []time.Time{p.FixTime, p.DeviceTime} {
		if !t.IsZero() && (t.Before(earliestTime) || t.After(latestTime)) {
			return model.Invalid("%s: time %s is out of range", p.Protocol, t.Format(time.RFC3339))
		}
	}
	return nil
}
