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

type statusBit struct {
	bit   uint
	alarm string
}

// The status word is hex: its high 16 bits are alarms, its low 16 bits
// states (the makers' documents, appendix I). The lowest alarm bit set
// wins. Bit 22 is an abnormal heart rate, which has no Traccar alarm name.
var alarmBits = []statusBit{
	{16, alarmSOS}, {17, alarmLowBattery}, {18, alarmGeofenceExit}, {19, alarmGeofenceEnter},
	{20, alarmRemoving}, {21, alarmFallDown}, {22, alarmGeneral},
}

// stateAlarms name the alarm of an AL frame that sets no alarm bit (older
// watches send a 16-bit status word): the state it reports, as Traccar reads
// it; an AL frame with none of them is a "general" alarm.
var stateAlarms = []statusBit{
	{0, alarmLowBattery}, {1, alarmGeofenceExit}, {2, alarmGeofenceEnter}, {14, alarmPowerCut},
}

// statusStatic is the state bit set while the watch's motion sensor finds it
// still (the documents' example "00000010 ... the watch is stationary").
const statusStatic = 4

func statusAlarm(status uint64, bits []statusBit) string {
	for _, a := range bits {
		if status&(1<<a.bit) != 0 {
			return a.alarm
		}
	}
	return ""
}

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

// decodePosition reads the location data of UD, AL, WT... frames. alarm
// is true for AL frames, which always carry an alarm. A frame without a
// fix and without coordinates (validity V at 0,0: the watch located itself
// by cells or Wi-Fi only) gives an outdated position that keeps the
// network for the ingest to locate.
func (p *Protocol) decodePosition(values string, alarm bool) (*model.Position, error) {
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
	if !pos.Valid && lat == 0 && lon == 0 {
		// Speed, course and altitude are placeholders ("22.0,0,-1") then.
		pos.Outdated = true
	} else {
		pos.Latitude, pos.Longitude = lat, lon
		pos.Speed = num[fSpeed] * knotsPerKph
		pos.Course = num[fCourse]
		pos.Altitude = num[fAltitude]
	}
	pos.Attributes["sat"] = int(num[fSatellites])
	pos.Attributes["rssi"] = int(num[fRSSI])
	pos.Attributes["batteryLevel"] = int(num[fBattery])
	pos.Attributes["steps"] = int(num[fSteps])
	a := statusAlarm(status, alarmBits)
	if a == "" && alarm {
		a = statusAlarm(status, stateAlarms)
		if a == "" {
			a = alarmGeneral
		}
	}
	if a != "" {
		pos.Attributes["alarm"] = a
	}
	if status&(1<<statusStatic) != 0 {
		pos.Attributes["motion"] = false
	}
	if n := network(f[fNetwork:]); n != nil {
		pos.Network = n
	}
	return pos, nil
}

// decodeAlarm reads an AL frame. One whose location data cannot be read is
// still an alarm: it is kept at the last known location.
func (p *Protocol) decodeAlarm(values string) *model.Position {
	pos, err := p.decodePosition(values, true)
	if err != nil {
		pos = p.outdated()
		pos.Attributes["alarm"] = alarmGeneral
	}
	return pos
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

// decodeLink reads "steps,tumbles,battery" of a link frame that has them;
// nil for a bare link frame (or one whose values cannot be read).
func (p *Protocol) decodeLink(values string) *model.Position {
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
	return pos
}
