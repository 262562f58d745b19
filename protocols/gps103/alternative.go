package gps103

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Field indexes of the '*'-terminated variant: `imei:<id>,<name>,<event>,
// <sensor id>,<sensor volts>,<UTC hhmmss>,<ddMMyy>,<rssi>,<fix 0|1>,
// <lat>,<lon>,<km/h>,<course>,<altitude>,<hdop>,<satellites>,<ignition>,
// <charging>,<error>,*`, where a run of '-' stands for no value.
const (
	altEvent   = 2
	altSensor  = 3
	altVolts   = 4
	altTime    = 5
	altDate    = 6
	altRSSI    = 7
	altFix     = 8
	altLat     = 9
	altLon     = 10
	altSpeed   = 11
	altCourse  = 12
	altAlt     = 13
	altHDOP    = 14
	altSats    = 15
	altIgn     = 16
	altCharge  = 17
	altError   = 18
	altMinimum = altError + 1
	kphPerKnot = 1.852
)

// decodeAlternative decodes the '*'-terminated variant into a position.
func decodeAlternative(f []string) (*model.Position, error) {
	if len(f) < altMinimum {
		return nil, model.Invalid("gps103: '*' frame with %d fields", len(f))
	}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	a := pos.Attributes
	t, err := hmsDMY(f[altTime], f[altDate])
	if err != nil {
		return nil, err
	}
	pos.FixTime, pos.DeviceTime = t, t
	ints := map[string]int{keyRSSI: altRSSI, keySatellites: altSats}
	for key, i := range ints {
		n, err := strconv.ParseUint(f[i], 10, 16)
		if err != nil {
			return nil, model.Invalid("gps103: bad %s %.10q", key, f[i])
		}
		a[key] = int64(n)
	}
	switch f[altFix] {
	case "0", "1":
		pos.Valid = f[altFix] == "1"
	default:
		return nil, model.Invalid("gps103: bad fix flag %.10q", f[altFix])
	}
	numbers := []struct {
		dst   *float64
		i     int
		limit float64
	}{
		{&pos.Latitude, altLat, 90}, {&pos.Longitude, altLon, 180},
		{&pos.Speed, altSpeed, 1000}, {&pos.Course, altCourse, 360}, {&pos.Altitude, altAlt, 100000},
	}
	for _, v := range numbers {
		x, err := decimal(f[v.i])
		if err != nil || x < -v.limit || x > v.limit {
			return nil, model.Invalid("gps103: bad value %.20q", f[v.i])
		}
		*v.dst = x
	}
	pos.Speed /= kphPerKnot
	hdop, err := decimal(f[altHDOP])
	if err != nil {
		return nil, err
	}
	a[keyHDOP] = hdop
	for key, i := range map[string]int{keyIgnition: altIgn, keyCharge: altCharge} {
		if v := f[i]; v != "0" && v != "1" {
			return nil, model.Invalid("gps103: bad %s flag %.10q", key, v)
		}
		a[key] = f[i] == "1"
	}
	for key, i := range map[string]int{keyEvent: altEvent, keySensorID: altSensor, keyError: altError} {
		if v := f[i]; !noValue(v) {
			a[key] = v
		}
	}
	if v := f[altVolts]; !noValue(v) {
		x, err := decimal(v)
		if err != nil {
			return nil, err
		}
		a[keySensorVoltage] = x
	}
	return pos, nil
}

// noValue tells an empty field or a run of '-'.
func noValue(s string) bool { return strings.Trim(s, "-") == "" }

// hmsDMY reads a UTC hhmmss and ddMMyy pair.
func hmsDMY(hms, dmy string) (time.Time, error) {
	if len(hms) != 6 || len(dmy) != 6 || !allDigits(hms) || !allDigits(dmy) {
		return time.Time{}, model.Invalid("gps103: bad time %.8q %.8q", hms, dmy)
	}
	h, mi, s := atoi2(hms[0:2]), atoi2(hms[2:4]), atoi2(hms[4:6])
	d, mo, y := atoi2(dmy[0:2]), atoi2(dmy[2:4]), atoi2(dmy[4:6])
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return time.Time{}, model.Invalid("gps103: bad date %q", dmy)
	}
	if err := validClock(h, mi, s); err != nil {
		return time.Time{}, err
	}
	return time.Date(2000+y, time.Month(mo), d, h, mi, s, 0, time.UTC), nil
}
