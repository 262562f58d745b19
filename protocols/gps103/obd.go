package gps103

import (
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Field indexes of `imei:<id>,OBD,<local yyMMddHHmmss>,<odometer km>,
// <instant fuel>,<average fuel>,<driving hours>,<speed km/h>,<load %>,
// <coolant °C>,<throttle %>,<rpm>,<battery V>,<DTC>,<DTC>,...`. Any value
// may be empty when the vehicle does not report it.
const (
	obdLocal     = 2
	obdOdometer  = 3
	obdFuelNow   = 4
	obdFuelAvg   = 5
	obdHours     = 6
	obdSpeed     = 7
	obdLoad      = 8
	obdCoolant   = 9
	obdThrottle  = 10
	obdRPM       = 11
	obdBattery   = 12
	obdFirstDTC  = 13
	obdMinFields = obdFirstDTC
	msPerHour    = 3600 * 1000
	metersPerKm  = 1000
)

// decodeOBD decodes an OBD frame into a position without location.
func (p *Protocol) decodeOBD(c *protocols.Conn, f []string) (*model.Position, error) {
	if len(f) < obdMinFields {
		return nil, model.Invalid("gps103: OBD frame with %d fields", len(f))
	}
	if _, ok := localTime(f[obdLocal]); !ok || len(f[obdLocal]) != 12 {
		return nil, model.Invalid("gps103: bad OBD time %.20q", f[obdLocal])
	}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	p.noFix(c, pos, f[obdLocal])
	a := pos.Attributes
	ints := []struct {
		key   string
		i     int
		scale int64
	}{
		{keyOdometer, obdOdometer, metersPerKm},
		{keyHours, obdHours, msPerHour},
		{keyOBDSpeed, obdSpeed, 1},
		{keyRPM, obdRPM, 1},
	}
	for _, v := range ints {
		if s := f[v.i]; s != "" {
			n, err := strconv.ParseUint(s, 10, 31)
			if err != nil {
				return nil, model.Invalid("gps103: bad OBD %s %.20q", v.key, s)
			}
			a[v.key] = int64(n) * v.scale
		}
	}
	// A coolant field of a lone sign holds no value.
	if s := f[obdCoolant]; s != "" && s != "+" && s != "-" {
		n, err := strconv.ParseInt(s, 10, 16)
		if err != nil {
			return nil, model.Invalid("gps103: bad OBD coolant temperature %.20q", s)
		}
		a[keyCoolantTemp] = n
	}
	decimals := []struct {
		key     string
		i       int
		percent bool
	}{
		{"", obdFuelNow, false}, // checked, not kept: Traccar keeps the average only
		{keyFuelConsumption, obdFuelAvg, false},
		{keyEngineLoad, obdLoad, true},
		{keyThrottle, obdThrottle, true},
		{keyBattery, obdBattery, false},
	}
	for _, v := range decimals {
		s := f[v.i]
		if v.percent {
			s = strings.TrimSuffix(s, "%")
		}
		if s == "" {
			continue
		}
		x, err := decimal(s)
		if err != nil || x < 0 {
			return nil, model.Invalid("gps103: bad OBD value %.20q", f[v.i])
		}
		if v.key != "" {
			a[v.key] = x
		}
	}
	var dtcs []string
	for _, code := range f[obdFirstDTC:] {
		if code = strings.TrimSpace(code); code != "" {
			dtcs = append(dtcs, code)
		}
	}
	if len(dtcs) > 0 {
		a[keyDTCs] = strings.Join(dtcs, " ")
	}
	return pos, nil
}
