package reports

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// The configuration keys, named as Traccar names them
// (src/main/java/org/traccar/config/Keys.java), so a device attribute set
// for Traccar keeps working.
const (
	keyNewLogic               = "report.trip.newLogic"
	keyMinDistance            = "report.trip.minDistance"
	keyMinDuration            = "report.trip.minDuration"
	keyStopGap                = "report.trip.stopGap"
	keyMinimalTripDistance    = "report.trip.minimalTripDistance"
	keyMinimalTripDuration    = "report.trip.minimalTripDuration"
	keyMinimalParkingDuration = "report.trip.minimalParkingDuration"
	keyMinimalNoDataDuration  = "report.trip.minimalNoDataDuration"
	keyUseIgnition            = "report.trip.useIgnition"
	keyIgnoreOdometer         = "report.ignoreOdometer"
	keySpeedThreshold         = "event.motion.speedThreshold"
)

// Config holds Traccar's knobs for trips, stops and summaries. Traccar has
// two motion detectors: the one it uses by default since 6.12
// (report.trip.newLogic) and the older one, still selectable. Each reads its
// own keys; IgnoreOdometer applies to both and to the summary.
type Config struct {
	// NewLogic selects Traccar's current detector (NewMotionProcessor).
	NewLogic bool
	// The current detector: a trip starts once the device is MinDistance
	// (meters) from where it last stopped, and ends once it has stayed
	// within MinDistance of every position of the last MinDuration. A gap
	// in reporting longer than StopGap, covered fast enough, is a trip of
	// its own between two stops.
	MinDistance float64
	MinDuration time.Duration
	StopGap     time.Duration

	// The older detector (MotionProcessor with TripsConfig): a motion
	// streak becomes a trip after MinimalTripDuration or
	// MinimalTripDistance (meters), a standstill becomes a stop after
	// MinimalParkingDuration (at once on ignition off if UseIgnition), and
	// a gap of MinimalNoDataDuration ends a trip at the last position
	// before it.
	MinimalTripDistance    float64
	MinimalTripDuration    time.Duration
	MinimalParkingDuration time.Duration
	MinimalNoDataDuration  time.Duration
	UseIgnition            bool

	// IgnoreOdometer measures distance with the server's totalDistance
	// even when positions carry the device's odometer.
	IgnoreOdometer bool
	// SpeedThreshold (knots) decides "motion" for a position that lacks
	// the attribute; Traccar's ingest stores it on every position with
	// this rule, and so does fleetd's.
	SpeedThreshold float64
}

// DefaultConfig is Traccar's defaults.
func DefaultConfig() Config {
	return Config{
		NewLogic:               true,
		MinDistance:            200,
		MinDuration:            180 * time.Second,
		StopGap:                3600 * time.Second,
		MinimalTripDistance:    500,
		MinimalTripDuration:    300 * time.Second,
		MinimalParkingDuration: 300 * time.Second,
		MinimalNoDataDuration:  3600 * time.Second,
		SpeedThreshold:         0.01,
	}
}

// ConfigFrom builds a Config from lookup, which should answer as Traccar's
// AttributeUtil.lookup does: the device's attributes, then its groups'
// (nearest first), then the server configuration. Traccar reads
// report.trip.newLogic from the configuration only. A key that is absent
// keeps its default, and so does one that does not parse. Traccar would
// fail the request instead. Durations are whole seconds and distances whole
// meters, as Traccar's Long keys are.
func ConfigFrom(lookup func(key string) (any, bool)) Config {
	c := DefaultConfig()
	flag := func(key string, dst *bool) {
		if v, ok := lookup(key); ok {
			switch x := v.(type) {
			case bool:
				*dst = x
			case string: // Boolean.parseBoolean: anything but "true" is false
				*dst = strings.EqualFold(strings.TrimSpace(x), "true")
			}
		}
	}
	whole := func(key string) (float64, bool) {
		v, ok := lookup(key)
		if !ok {
			return 0, false
		}
		f, ok := number(v)
		return math.Trunc(f), ok && !math.IsNaN(f)
	}
	meters := func(key string, dst *float64) {
		if f, ok := whole(key); ok {
			*dst = f
		}
	}
	seconds := func(key string, dst *time.Duration) {
		if f, ok := whole(key); ok && math.Abs(f) < math.MaxInt64/float64(time.Second) {
			*dst = time.Duration(f) * time.Second
		}
	}
	flag(keyNewLogic, &c.NewLogic)
	meters(keyMinDistance, &c.MinDistance)
	seconds(keyMinDuration, &c.MinDuration)
	seconds(keyStopGap, &c.StopGap)
	meters(keyMinimalTripDistance, &c.MinimalTripDistance)
	seconds(keyMinimalTripDuration, &c.MinimalTripDuration)
	seconds(keyMinimalParkingDuration, &c.MinimalParkingDuration)
	seconds(keyMinimalNoDataDuration, &c.MinimalNoDataDuration)
	flag(keyUseIgnition, &c.UseIgnition)
	flag(keyIgnoreOdometer, &c.IgnoreOdometer)
	if v, ok := lookup(keySpeedThreshold); ok { // a Double key: not truncated
		if f, ok := number(v); ok {
			c.SpeedThreshold = f
		}
	}
	return c
}

// number reads a numeric value whatever a decoder, JSON or a storage round
// trip made of it: a Go number, a json.Number or a decimal string (Traccar
// parses strings too).
func number(v any) (float64, bool) {
	if f, ok := model.Numeric(v); ok {
		return f, true
	}
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// javaLong converts as Java's (long) cast does: toward zero, NaN to 0,
// clamped to the range (Go leaves those cases undefined).
func javaLong(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// text reads a string attribute as Traccar's getString does (toString of
// whatever is there).
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}
