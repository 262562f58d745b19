package gl200

import (
	"regexp"
	"strconv"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var (
	coordinateRE = regexp.MustCompile(`^-?\d{1,3}\.\d{6}$`)
	reportTypeRE = regexp.MustCompile(`^[0-9A-Fa-f]{1,2}$`)
	mccRE        = regexp.MustCompile(`^\d{4}$`)
	lacRE        = regexp.MustCompile(`^[0-9A-Fa-f]{4}$`)
	cidRE        = regexp.MustCompile(`^[0-9A-Fa-f]{4,8}$`)
)

// typeAlarms are the alarms the event reports stand for.
var typeAlarms = map[string]string{
	"SOS": "sos", "SPD": "overspeed", "TOW": "tow", "IDL": "idle",
	"PNA": "powerOn", "PFA": "powerOff", "EPN": "powerRestored", "MPN": "powerRestored",
	"EPF": "powerCut", "MPF": "powerCut", "BPL": "lowBattery", "STT": "movement",
	"SWG": "geofence", "TMP": "temperature", "TEM": "temperature", "JDR": "jamming", "JDS": "jamming",
}

// basic decodes the event reports that share no layout of their own
// (GTSOS, GTSPD, GTSTT, GTHBM, ...) by shape: a longitude and latitude
// pair marks the point (accuracy, speed, azimuth and altitude before it),
// the first MCC, MNC, LAC, cell id run the cell; the report type after the
// device name gives motion, input, ignition or the harsh-driving kind.
// Nothing found: nil (the report is not decoded).
func (m *message) basic() ([]*model.Position, error) {
	v := m.v
	f := &fields{v: v}
	p := newPosition()
	a := p.Attributes
	if len(v) > 4 && reportTypeRE.MatchString(v[4]) {
		rt := f.hex(v[4])
		switch m.typ {
		case "NMR":
			a["motion"] = rt == 1
		case "DIS":
			a["in"+strconv.Itoa(int(rt/16))] = rt%16 == 1
		case "IGL":
			a["ignition"] = rt%16 == 1
		case "HBM":
			switch rt % 16 {
			case 0, 3:
				a["alarm"] = "braking"
			case 1, 4:
				a["alarm"] = "acceleration"
			case 2:
				a["alarm"] = "cornering"
			}
		}
	}
	located := false
	cells := 2
	for i := 6; i+2 < len(v); i++ {
		if coordinateRE.MatchString(v[i]) && coordinateRE.MatchString(v[i+1]) {
			f.i = i - 4
			hdop := 0
			if s := f.next(); s != "" {
				hdop = f.int(s)
			}
			a["hdop"] = hdop
			p.Speed = f.float(f.next()) * knotsPerKph
			p.Course = float64(f.int(f.next()))
			p.Altitude = f.float(f.next())
			lon, lat := f.next(), f.next()
			setFix(f, p, lon, lat, f.time(f.next()))
			located, cells = true, f.i
			break
		}
	}
	for i := cells; i+3 < len(v); i++ {
		if mccRE.MatchString(v[i]) && mccRE.MatchString(v[i+1]) && lacRE.MatchString(v[i+2]) && cidRE.MatchString(v[i+3]) {
			p.Network = protocols.Network([]map[string]any{cellTower(f.int(v[i]), f.int(v[i+1]), f.hex(v[i+2]), f.hex(v[i+3]))}, nil)
			break
		}
	}
	if s := v[len(v)-3]; located && len(v[len(v)-2]) == 14 && len(s) >= 1 && len(s) <= 3 && allOf(s, isDigit) {
		a["batteryLevel"] = f.int(s)
	}
	if alarm, ok := typeAlarms[m.typ]; ok {
		a["alarm"] = alarm
	}
	if f.err != nil {
		return nil, f.err
	}
	if len(a) == 0 && p.Network == nil {
		return nil, nil
	}
	return []*model.Position{p}, nil
}
