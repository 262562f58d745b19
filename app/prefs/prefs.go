// Package prefs resolves how a user wants dates, speeds, distances and
// money shown: the user's own attributes first, then the server's, then
// fleetd's defaults. The attribute names are Traccar's ("timezone",
// "speedUnit", "distanceUnit"), so a preference set in the Traccar web app
// or a Traccar mobile app applies in fleetd's dashboard too; "currency" is
// fleetd's own.
package prefs

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/timezone"
)

// Attribute names read from user and server attributes.
const (
	ZoneAttribute     = "timezone"
	SpeedAttribute    = "speedUnit"
	DistanceAttribute = "distanceUnit"
	CurrencyAttribute = "currency"
)

// Speed units (Traccar's values). Positions are stored in knots.
const (
	Kmh   = "kmh"
	Mph   = "mph"
	Knots = "kn"
)

// Distance units (Traccar's values). Distances are stored in metres.
const (
	Km  = "km"
	Mi  = "mi"
	Nmi = "nmi"
)

// SpeedUnits and DistanceUnits are the choices, with their labels, in the
// order a form offers them.
var (
	SpeedUnits    = []Choice{{Kmh, "km/h"}, {Mph, "mph"}, {Knots, "knots"}}
	DistanceUnits = []Choice{{Km, "kilometres"}, {Mi, "miles"}, {Nmi, "nautical miles"}}
)

// Choice is one value of a preference and how a form labels it.
type Choice struct{ Value, Label string }

// Display is one user's resolved preferences.
type Display struct {
	Zone       *time.Location
	Speed      string // Kmh, Mph or Knots
	Distance   string // Km, Mi or Nmi
	Currency   string // ISO 4217 code, or "" (amounts shown bare)
	TwelveHour bool
}

// Default is what a user with no preferences on a server with none sees.
func Default() Display { return Display{Zone: time.UTC, Speed: Kmh, Distance: Km} }

// For resolves u's preferences over the server's (either may be nil).
func For(u *model.User, s *model.Server) Display {
	d := Default()
	var layers []model.Attributes
	if u != nil {
		layers = append(layers, u.Attributes)
		d.TwelveHour = u.TwelveHourFormat
	}
	if s != nil {
		layers = append(layers, s.Attributes)
	}
	pick := func(name string) (string, bool) {
		for _, attrs := range layers {
			if v, _ := attrs[name].(string); v != "" && ValidUnit(name, v) {
				return v, true
			}
		}
		return "", false
	}
	if name, ok := pick(ZoneAttribute); ok {
		d.Zone, _ = timezone.Load(name)
	}
	if v, ok := pick(SpeedAttribute); ok {
		d.Speed = v
	}
	if v, ok := pick(DistanceAttribute); ok {
		d.Distance = v
	}
	if v, ok := pick(CurrencyAttribute); ok {
		d.Currency = v
	}
	return d
}

// ValidCurrency accepts a three-letter upper-case ISO 4217 code.
func ValidCurrency(v string) bool {
	if len(v) != 3 {
		return false
	}
	for _, r := range v {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// ValidUnit reports whether value is a valid choice for the attribute
// (speedUnit, distanceUnit, timezone, currency): the forms that set them
// check with it.
func ValidUnit(attribute, value string) bool {
	switch attribute {
	case SpeedAttribute:
		return validSpeed(value)
	case DistanceAttribute:
		return validDistance(value)
	case CurrencyAttribute:
		return ValidCurrency(value)
	case ZoneAttribute:
		_, ok := timezone.Load(value)
		return ok
	}
	return false
}

// unit is a display unit: how many of it make one stored unit (a knot, a
// metre), and its short name.
type unit struct {
	per   float64
	label string
}

var (
	speedUnits    = map[string]unit{Kmh: {1.852, "km/h"}, Mph: {1.852 / 1.609344, "mph"}, Knots: {1, "kn"}}
	distanceUnits = map[string]unit{Km: {1.0 / 1000, "km"}, Mi: {1 / 1609.344, "mi"}, Nmi: {1.0 / 1852, "nmi"}}
)

func validSpeed(v string) bool    { _, ok := speedUnits[v]; return ok }
func validDistance(v string) bool { _, ok := distanceUnits[v]; return ok }

func (d Display) speedUnit() unit {
	if u, ok := speedUnits[d.Speed]; ok {
		return u
	}
	return speedUnits[Kmh]
}

func (d Display) distanceUnit() unit {
	if u, ok := distanceUnits[d.Distance]; ok {
		return u
	}
	return distanceUnits[Km]
}

// SpeedValue converts knots to the user's unit.
func (d Display) SpeedValue(knots float64) float64 { return knots * d.speedUnit().per }

// SpeedLabel is the unit's short name ("km/h").
func (d Display) SpeedLabel() string { return d.speedUnit().label }

// KnotsFrom converts a speed typed in the user's unit back to knots (an
// overspeed limit, a filter).
func (d Display) KnotsFrom(v float64) float64 { return v / d.speedUnit().per }

// DistanceValue converts metres to the user's unit.
func (d Display) DistanceValue(meters float64) float64 { return meters * d.distanceUnit().per }

// DistanceLabel is the unit's short name ("km").
func (d Display) DistanceLabel() string { return d.distanceUnit().label }

// SpeedText is a speed stored in knots as the user reads it ("54 km/h").
func (d Display) SpeedText(knots float64) string {
	return strconv.FormatFloat(d.SpeedValue(knots), 'f', 0, 64) + " " + d.SpeedLabel()
}

// DistanceText is a distance in metres as the user reads it ("12.3 km").
func (d Display) DistanceText(meters float64) string {
	return strconv.FormatFloat(d.DistanceValue(meters), 'f', 1, 64) + " " + d.DistanceLabel()
}

// RoundDistance is kilometres (an odometer, a service interval) in the
// user's unit, to the whole unit ("88,000 km" is "54681 mi").
func (d Display) RoundDistance(km float64) string {
	return strconv.FormatFloat(d.DistanceValue(km*1000), 'f', 0, 64) + " " + d.DistanceLabel()
}

// KmFrom converts a distance typed in the user's unit to kilometres, to
// a metre, so a value shown and saved again does not drift.
func (d Display) KmFrom(v float64) float64 {
	return math.Round(v/d.DistanceValue(1000)*1000) / 1000
}

// TimeText is an instant in the user's zone ("2026-11-24 21:05 CET").
func (d Display) TimeText(t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	layout := "2006-01-02 15:04 MST"
	if d.TwelveHour {
		layout = "2006-01-02 3:04 PM MST"
	}
	return t.In(d.zone()).Format(layout)
}

// ClockText is the time of day of an instant in the user's zone, with
// seconds ("21:05:09"), for rows of one day.
func (d Display) ClockText(t time.Time) string {
	if d.TwelveHour {
		return t.In(d.zone()).Format("3:04:05 PM")
	}
	return t.In(d.zone()).Format("15:04:05")
}

// DateOf is the calendar day an instant falls on in the user's zone.
func (d Display) DateOf(t time.Time) string { return t.In(d.zone()).Format(time.DateOnly) }

// DayStart is midnight of the user's day containing t.
func (d Display) DayStart(t time.Time) time.Time {
	y, m, day := t.In(d.zone()).Date()
	return time.Date(y, m, day, 0, 0, 0, 0, d.zone())
}

// Money is an amount with two decimals, thousands separators and the
// currency code when one is set ("EUR 1,234.50").
func (d Display) Money(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac := s[:len(s)-3], s[len(s)-3:]
	for i := len(intPart) - 3; i > 0; i -= 3 {
		intPart = intPart[:i] + "," + intPart[i:]
	}
	if neg {
		intPart = "-" + intPart
	}
	if d.Currency != "" {
		return d.Currency + " " + intPart + frac
	}
	return intPart + frac
}

func (d Display) zone() *time.Location {
	if d.Zone == nil {
		return time.UTC
	}
	return d.Zone
}
