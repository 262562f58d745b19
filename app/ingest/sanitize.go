package ingest

import (
	"math"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// A corrupt frame that still decodes (many protocols have no checksum, and
// a bad one is tolerated) carries numbers no tracker can measure: a course
// of 4,088,646,642°, a speed of 10^20 knots. The rest of such a position
// is usually sound, so the ingest removes the impossible value and stores
// the position (sanitize). The ranges reject what cannot be, never what is
// merely unusual; docs/devices.md says why each bound is where it is.

// rangeRule is the physical range of one position field or numeric
// attribute.
type rangeRule struct {
	// field is the position field's JSON name or the attribute key; with
	// prefix, it covers the key followed by digits (temp1, temp2, ...). It
	// is also the metrics label, so the labels stay a fixed set whatever
	// keys devices send.
	field    string
	prefix   bool
	min, max float64
	// of addresses a position field; nil for an attribute. A removed
	// field reads 0, Traccar's value for "not reported".
	of func(*model.Position) *float64
}

// holds is false for NaN and infinities too.
func (r *rangeRule) holds(v float64) bool { return v >= r.min && v <= r.max }

// Bounds shared by several keys.
const (
	maxVolts      = 1000   // an electric truck's traction battery is under 1,000 V
	maxSatellites = 200    // about 140 navigation satellites orbit (GPS, GLONASS, Galileo, BeiDou...)
	maxDOP        = 100    // NMEA's "no fix" is 99.99
	maxOdometer   = 1e10   // meters: 10 million km, twice the longest-driven car's
	maxFuel       = 100000 // liters, percent or a sensor's raw count
	absoluteZero  = -273.15
	maxTemp       = 1000 // degrees C: exhaust gas, the hottest thing a vehicle sensor reads, stays under it
)

// rangeRules are every range the ingest applies. The array's length is a
// constant: it sizes the removal counters.
var rangeRules = [...]rangeRule{
	// Knots. Civil GPS receivers stop reporting above 1,000 kn (515 m/s,
	// the COCOM export limit), so no tracker, even on a jet, says more.
	{field: "speed", min: 0, max: 1000, of: func(p *model.Position) *float64 { return &p.Speed }},
	// Degrees; 360 is north as 0 is, and is kept as sent.
	{field: "course", min: 0, max: 360, of: func(p *model.Position) *float64 { return &p.Course }},
	// Meters. The lowest land is 430 m below sea level (Dead Sea);
	// receivers stop at 50,000 m, above stratospheric balloons.
	{field: "altitude", min: -1000, max: 50000, of: func(p *model.Position) *float64 { return &p.Altitude }},
	// Meters; no point on Earth is further than 20,000 km from any other.
	{field: "accuracy", min: 0, max: 2e7, of: func(p *model.Position) *float64 { return &p.Accuracy }},

	{field: "batteryLevel", min: 0, max: 100}, // percent
	{field: "battery", min: 0, max: maxVolts},
	{field: "power", min: 0, max: maxVolts},
	{field: "sat", min: 0, max: maxSatellites},
	{field: "satVisible", min: 0, max: maxSatellites},
	{field: "hdop", min: 0, max: maxDOP},
	{field: "vdop", min: 0, max: maxDOP},
	{field: "pdop", min: 0, max: maxDOP},
	// Signal strength comes as dBm (down to about -140), a 0-31 CSQ (99
	// unknown), a 0-5 level or a raw byte: the range spans them all.
	{field: "rssi", min: -150, max: 255},
	{field: "odometer", min: 0, max: maxOdometer},
	{field: "tripOdometer", min: 0, max: maxOdometer},
	{field: "serviceOdometer", min: 0, max: maxOdometer},
	{field: "obdOdometer", min: 0, max: maxOdometer},
	// Engine hours in milliseconds (Traccar's unit): a million hours.
	{field: "hours", min: 0, max: 3.6e12},
	{field: "fuel", min: 0, max: maxFuel},
	{field: "fuelLevel", min: 0, max: maxFuel},
	{field: "fuelUsed", min: 0, max: maxFuel},
	{field: "temp", prefix: true, min: absoluteZero, max: maxTemp},
	{field: "deviceTemp", min: absoluteZero, max: maxTemp},
	{field: "coolantTemp", min: absoluteZero, max: maxTemp},
	{field: "engineTemp", min: absoluteZero, max: maxTemp},
}

// otherField labels the removal of a NaN or infinite number from an
// attribute no range covers: JSON cannot carry it, so the position could
// not be stored with it (and the device would resend it forever).
const otherField = "other"

// removedFields are the labels of the removal counters, by index.
var removedFields = func() (out [len(rangeRules) + 1]string) {
	for i := range rangeRules {
		out[i] = rangeRules[i].field
	}
	out[len(rangeRules)] = otherField
	return out
}()

// attributeRules finds an attribute's rule by key; prefixRules are the
// rules of numbered keys.
var attributeRules, prefixRules = func() (exact map[string]int, prefixed []int) {
	exact = map[string]int{}
	for i, r := range rangeRules {
		switch {
		case r.of != nil:
		case r.prefix:
			prefixed = append(prefixed, i)
		default:
			exact[r.field] = i
		}
	}
	return exact, prefixed
}()

// attributeRule is the index of key's rule, or -1.
func attributeRule(key string) int {
	if i, ok := attributeRules[key]; ok {
		return i
	}
	for _, i := range prefixRules {
		if n, ok := strings.CutPrefix(key, rangeRules[i].field); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return i
		}
	}
	return -1
}

// sanitize removes from p, which device d sent, every value outside its
// physical range and every non-finite number: each removal is counted and
// logged at debug level. The position stays valid and is stored.
func (ig *Service) sanitize(d *model.Device, p *model.Position) {
	for i := range rangeRules {
		r := &rangeRules[i]
		if r.of == nil {
			continue
		}
		if v := r.of(p); !r.holds(*v) {
			ig.removed(d, p, i, r.field, *v)
			*v = 0
		}
	}
	for key, v := range p.Attributes {
		f, ok := model.Numeric(v)
		if !ok {
			continue
		}
		i := attributeRule(key)
		if i < 0 {
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				continue
			}
			i = len(rangeRules)
		} else if rangeRules[i].holds(f) {
			continue
		}
		delete(p.Attributes, key)
		ig.removed(d, p, i, key, v)
	}
}

func (ig *Service) removed(d *model.Device, p *model.Position, rule int, field string, value any) {
	ig.counters.removed[rule].Add(1)
	ig.log.Debug("position field out of range, removed", "deviceId", d.ID, "uniqueId", d.UniqueID,
		"protocol", p.Protocol, "field", field, "value", value)
}
