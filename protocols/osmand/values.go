package osmand

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// number parses a finite decimal; NaN and infinities are refused because a
// position holding them cannot be stored as JSON.
func number(key, s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, model.Invalid("osmand: bad %s %.32q", key, s)
	}
	return v, nil
}

// coordinates checks a latitude/longitude pair.
func coordinates(lat, lon float64) error {
	if math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return model.Invalid("osmand: coordinates out of range: %v, %v", lat, lon)
	}
	return nil
}

// attributeValue types a free parameter as Traccar does: a number becomes
// a float64, "true"/"false" a bool, anything else stays a string.
func attributeValue(s string) any {
	if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		return v
	}
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	return s
}

// isoLayouts are the ISO 8601 forms clients send; fractional seconds are
// accepted by each. A time without zone is UTC.
var isoLayouts = []string{time.RFC3339, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05"}

// parseTimestamp reads unix seconds, unix milliseconds (any value from 2^31-1
// up, as Traccar tells them apart), ISO 8601, or "yyyy-MM-dd HH:mm:ss" UTC.
// A number no JSON time can state (negative, after year 9999) is refused.
func parseTimestamp(s string) (time.Time, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
		if n < math.MaxInt32 {
			n *= 1000
		}
		if t := protocols.UnixMilli(n); !t.IsZero() {
			return t, nil
		}
	}
	layouts := []string{time.DateTime}
	if strings.Contains(s, "T") {
		layouts = isoLayouts
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, model.Invalid("osmand: bad timestamp %.40q", s)
}
