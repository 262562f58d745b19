package watch

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// knotsPerKph converts the watches' km/h speeds to the knots positions hold.
const knotsPerKph = 1 / 1.852

// Traccar alarm names.
const (
	alarmGeneral       = "general"
	alarmLowBattery    = "lowBattery"
	alarmGeofenceExit  = "geofenceExit"
	alarmGeofenceEnter = "geofenceEnter"
	alarmPowerCut      = "powerCut"
	alarmSOS           = "sos"
	alarmRemoving      = "removing"
	alarmFallDown      = "fallDown"
)

// statusAlarms maps status word bits to alarms; the lowest set bit wins.
var statusAlarms = []struct {
	bit   uint
	alarm string
}{
	{0, alarmLowBattery}, {1, alarmGeofenceExit}, {2, alarmGeofenceEnter},
	{14, alarmPowerCut}, {16, alarmSOS}, {17, alarmLowBattery},
	{18, alarmGeofenceExit}, {19, alarmGeofenceEnter}, {20, alarmRemoving},
	{21, alarmFallDown}, {22, alarmFallDown},
}

// statusMotion is the status bit set while the watch moves.
const statusMotion = 4

var errFields = errors.New("unexpected position fields")

// Position fields after the type: date, time, validity, latitude, N/S,
// longitude, E/W, speed, course, altitude, satellites, rssi, battery,
// steps, tumbles, status, then cells and Wi-Fi.
const (
	fDate = iota
	fTime
	fValid
	fLat
	fLatHem
	fLon
	fLonHem
	fSpeed
	fCourse
	fAltitude
	fSatellites
	fRSSI
	fBattery
	fSteps
	fTumbles
	fStatus
	fNetwork
)

func (p *Protocol) decodePosition(values string) (*model.Position, error) {
	f := strings.Split(values, ",")
	if len(f) < fNetwork {
		return nil, errFields
	}
	when, ok := dateTime(f[fDate], f[fTime])
	lat, ok1 := coordinate(f[fLat], f[fLatHem], "S", 90)
	lon, ok2 := coordinate(f[fLon], f[fLonHem], "W", 180)
	if !ok || !ok1 || !ok2 || f[fValid] != "A" && f[fValid] != "V" {
		return nil, errFields
	}
	var num [fStatus]float64
	for i := fSpeed; i < fStatus; i++ {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || !isNumber(f[i]) {
			return nil, errFields
		}
		num[i] = v
	}
	status, err := strconv.ParseUint(f[fStatus], 16, 32)
	if err != nil {
		return nil, errFields
	}
	pos := p.newPosition()
	pos.DeviceTime, pos.FixTime = when, when
	pos.Valid = f[fValid] == "A"
	pos.Latitude, pos.Longitude = lat, lon
	pos.Speed = num[fSpeed] * knotsPerKph
	pos.Course = num[fCourse]
	pos.Altitude = num[fAltitude]
	pos.Attributes["sat"] = int(num[fSatellites])
	pos.Attributes["rssi"] = int(num[fRSSI])
	pos.Attributes["batteryLevel"] = int(num[fBattery])
	pos.Attributes["steps"] = int(num[fSteps])
	for _, a := range statusAlarms {
		if status&(1<<a.bit) != 0 {
			pos.Attributes["alarm"] = a.alarm
			break
		}
	}
	if status&(1<<statusMotion) != 0 {
		pos.Attributes["motion"] = true
	}
	if n := network(f[fNetwork:]); n != nil {
		pos.Network = n
	}
	return pos, nil
}

// isNumber accepts unsigned or negative decimals without exponents.
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if len(s) == 0 || len(s) > 20 {
		return false
	}
	dots := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.':
			dots++
		case s[i] < '0' || s[i] > '9':
			return false
		}
	}
	return dots <= 1 && s[0] != '.'
}

func dateTime(ddmmyy, hhmmss string) (time.Time, bool) {
	t, err := time.Parse("020106150405", ddmmyy+hhmmss)
	if err != nil || len(ddmmyy) != 6 || len(hhmmss) != 6 {
		return time.Time{}, false
	}
	return t, true
}

// coordinate parses decimal degrees (possibly space-padded) and applies the
// hemisphere, which may be missing.
func coordinate(value, hemisphere, negative string, limit float64) (float64, bool) {
	value = strings.TrimLeft(value, " ")
	v, err := strconv.ParseFloat(value, 64)
	if err != nil || !isNumber(value) || v > limit || v < -limit {
		return 0, false
	}
	if hemisphere == negative && v > 0 {
		v = -v
	}
	return v, true
}

// decodeLink reads "steps,tumbles,battery" of a link frame that has them.
func (p *Protocol) decodeLink(values string) []*model.Position {
	f := strings.Split(values, ",")
	if len(f) < 3 {
		return nil
	}
	steps, err1 := strconv.Atoi(f[0])
	battery, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return nil
	}
	pos := p.outdated()
	pos.Attributes["steps"] = steps
	pos.Attributes["batteryLevel"] = battery
	return []*model.Position{pos}
}

// decodeHealth reads health readings: PULSE/HEART "rate", BLOOD/BPHRT
// "high,low,rate", TEMP "t", btemp2 "valid,t", oxygen "?,percent".
// Other types carry nothing a position holds.
func (p *Protocol) decodeHealth(typ, values string) []*model.Position {
	if values == "" {
		return nil
	}
	f := strings.Split(values, ",")
	pos := p.outdated()
	var ok bool
	switch strings.ToLower(typ) {
	case "pulse", "heart":
		ok = setInt(pos, "heartRate", f[0])
	case "blood", "bphrt":
		if len(f) >= 2 {
			pos.Attributes["pressureHigh"], pos.Attributes["pressureLow"] = f[0], f[1]
			ok = len(f) == 2 || setInt(pos, "heartRate", f[2])
		}
	case "temp":
		ok = setFloat(pos, "temp1", f[0])
	case "btemp2":
		ok = len(f) >= 2 && (f[0] == "0" || setFloat(pos, "temp1", f[1]))
	case "oxygen":
		ok = len(f) >= 2 && setInt(pos, "bloodOxygen", f[1])
	}
	if !ok {
		return nil
	}
	return []*model.Position{pos}
}

func setInt(pos *model.Position, key, s string) bool {
	v, err := strconv.Atoi(s)
	if err == nil {
		pos.Attributes[key] = v
	}
	return err == nil
}

func setFloat(pos *model.Position, key, s string) bool {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil && isNumber(s) {
		pos.Attributes[key] = v
		return true
	}
	return false
}
