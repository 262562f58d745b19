package wialon

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// A short data record has 10 fields; an extended one 16:
// date;time;lat;N|S;lon;E|W;speed;course;altitude;sats
// [;hdop;inputs;outputs;adc;ibutton;params]. Any field may be "NA".
const (
	shortFields    = 10
	extendedFields = 16
)

const knotsPerKph = 1 / 1.852

// na reports a field with no value.
func na(s string) bool { return s == "NA" || s == "" }

// record decodes the fields of one data record. A record without a
// location is an outdated position (the ingest copies the last one); one
// without a date and time is stamped with the server clock, as the
// document says the server does.
func (p *Protocol) record(f []string) (*model.Position, error) {
	if len(f) != shortFields && len(f) != extendedFields {
		return nil, fmt.Errorf("wialon: data record with %d fields, want %d or %d", len(f), shortFields, extendedFields)
	}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	t, err := p.recordTime(f[0], f[1])
	if err != nil {
		return nil, err
	}
	pos.DeviceTime, pos.FixTime = t, t
	if na(f[2]) || na(f[3]) || na(f[4]) || na(f[5]) {
		pos.Outdated = true
	} else {
		if pos.Latitude, err = coordinate(f[2], f[3], "N", "S", 90); err != nil {
			return nil, err
		}
		if pos.Longitude, err = coordinate(f[4], f[5], "E", "W", 180); err != nil {
			return nil, err
		}
		speed, err1 := optional(f[6])
		course, err2 := optional(f[7])
		alt, err3 := optional(f[8])
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, err
		}
		pos.Speed, pos.Course, pos.Altitude = speed*knotsPerKph, course, alt
	}
	if !na(f[9]) {
		sats, err := strconv.Atoi(f[9])
		if err != nil || sats < 0 {
			return nil, fmt.Errorf("wialon: satellites %q", f[9])
		}
		pos.Attributes["sat"] = sats
		// The document has no validity flag: a fix is taken as valid
		// from three satellites, as Traccar does.
		pos.Valid = sats >= 3 && !pos.Outdated
	}
	if len(f) == extendedFields {
		if err := extended(pos, f[10:]); err != nil {
			return nil, err
		}
	}
	if err := protocols.CheckFix(pos); err != nil {
		return nil, err
	}
	return pos, nil
}

// recordTime reads "ddmmyy" and "hhmmss" (UTC); both "NA" is now.
func (p *Protocol) recordTime(date, clock string) (time.Time, error) {
	if na(date) || na(clock) {
		return p.now.Now().Truncate(time.Second), nil
	}
	t, err := time.Parse("020106150405", date+clock)
	if err != nil {
		return time.Time{}, fmt.Errorf("wialon: date/time %q %q", date, clock)
	}
	return t, nil
}

// coordinate reads "ddmm.mmmm" or "dddmm.mmmm" with its hemisphere letter.
// Minutes of 60 and more are taken as they come (real devices send
// "5364.0167"), as Traccar does; the result must still be on the globe.
func coordinate(value, hemisphere, positive, negative string, limit float64) (float64, error) {
	dot := strings.IndexByte(value, '.')
	if dot < 0 {
		dot = len(value)
	}
	if dot < 3 || (hemisphere != positive && hemisphere != negative) {
		return 0, fmt.Errorf("wialon: coordinate %q %q", value, hemisphere)
	}
	deg, err1 := strconv.ParseUint(value[:dot-2], 10, 16)
	minutes, err2 := strconv.ParseFloat(value[dot-2:], 64)
	if err1 != nil || err2 != nil || minutes < 0 || minutes >= 100 || value[dot-2] == '-' || value[dot-2] == '+' {
		return 0, fmt.Errorf("wialon: coordinate %q", value)
	}
	v := float64(deg) + minutes/60
	if v > limit {
		return 0, fmt.Errorf("wialon: coordinate %q out of range", value)
	}
	if hemisphere == negative {
		v = -v
	}
	return v, nil
}

// optional reads a decimal field; "NA" and empty are 0.
func optional(s string) (float64, error) {
	if na(s) {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("wialon: number %q", s)
	}
	return v, nil
}

// extended decodes hdop;inputs;outputs;adc;ibutton;params.
func extended(pos *model.Position, f []string) error {
	if !na(f[0]) {
		hdop, err := optional(f[0])
		if err != nil {
			return err
		}
		pos.Attributes["hdop"] = hdop
	}
	for i, key := range []string{"input", "output"} {
		if na(f[1+i]) {
			continue
		}
		v, err := strconv.ParseUint(f[1+i], 10, 32)
		if err != nil {
			return fmt.Errorf("wialon: %s %q", key, f[1+i])
		}
		pos.Attributes[key] = int64(v)
	}
	if !na(f[3]) {
		for i, v := range strings.Split(f[3], ",") {
			if v != "" {
				pos.Attributes["adc"+strconv.Itoa(i+1)] = value(v)
			}
		}
	}
	if !na(f[4]) {
		pos.Attributes["driverUniqueId"] = f[4]
	}
	if !na(f[5]) {
		params(pos, f[5])
	}
	return nil
}

// params decodes "name:type:value,..." (type 1 integer, 2 decimal, 3
// text). Names are lower-cased and values read as numbers or booleans
// whatever their type, as Traccar stores them; a few names map to
// Traccar's own attributes and cell towers.
func params(pos *model.Position, s string) {
	a := pos.Attributes
	for _, param := range strings.Split(s, ",") {
		name, rest, ok := strings.Cut(param, ":")
		if !ok || name == "" {
			continue
		}
		typ, v, ok := strings.Cut(rest, ":")
		if !ok || len(typ) != 1 || typ[0] < '1' || typ[0] > '3' {
			continue
		}
		a[strings.ToValidUTF8(strings.ToLower(name), "\uFFFD")] = value(v)
	}
	if v, ok := a["accuracy"].(float64); ok {
		pos.Accuracy = v
		delete(a, "accuracy")
	}
	for from, to := range map[string]string{"bat": "batteryLevel", "temp": "deviceTemp"} {
		if v, ok := a[from]; ok {
			delete(a, from)
			if n, ok := whole(v); ok {
				a[to] = n
			}
		}
	}
	var towers []map[string]any
	for _, suffix := range []string{"", "1", "2", "3", "4", "5", "6", "7", "8", "9"} {
		t, ok := cellTower(a, suffix)
		if !ok {
			if suffix == "" {
				continue
			}
			break
		}
		towers = append(towers, t)
	}
	if len(towers) > 0 {
		pos.Network = map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": towers}
	}
}

// cellTower takes mcc, mnc, lac and cell_id with a suffix out of the
// attributes when all four are there.
func cellTower(a model.Attributes, suffix string) (map[string]any, bool) {
	keys := [4]string{"mcc" + suffix, "mnc" + suffix, "lac" + suffix, "cell_id" + suffix}
	var v [4]int64
	for i, k := range keys {
		n, ok := whole(a[k])
		if !ok {
			return nil, false
		}
		v[i] = n
	}
	for _, k := range keys {
		delete(a, k)
	}
	return map[string]any{"mobileCountryCode": v[0], "mobileNetworkCode": v[1], "locationAreaCode": v[2], "cellId": v[3]}, true
}

// value reads a parameter value: an integer, a finite decimal, a boolean,
// or else the text itself.
func value(s string) any {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && !strings.ContainsAny(s, "xXpP_") {
		return f
	}
	switch strings.ToLower(s) {
	case "true":
		return true
	case "false":
		return false
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// whole returns an integer attribute value, truncating a decimal one.
func whole(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if math.Abs(x) < 1<<53 {
			return int64(x), true
		}
	}
	return 0, false
}
