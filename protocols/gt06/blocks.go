package gt06

import (
	"errors"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errBadTime = errors.New("gt06: impossible date/time")

// readTime reads the 6-byte YY MM DD hh mm ss stamp (UTC).
func readTime(r *reader) (time.Time, error) {
	y, mo, d := r.u8(), r.u8(), r.u8()
	h, mi, s := r.u8(), r.u8(), r.u8()
	if r.err != nil {
		return time.Time{}, r.err
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59 {
		return time.Time{}, errBadTime
	}
	return time.Date(2000+y, time.Month(mo), d, h, mi, s, 0, time.UTC), nil
}

// gpsLayout says which optional fields a GPS block carries.
type gpsLayout struct {
	satellites bool // GPS info byte: high nibble length, low nibble satellites
	speed      bool // 1-byte speed in km/h
	wideSpeed  bool // JC400: the course/status word first, then a 2-byte speed
}

var fullGPS = gpsLayout{satellites: true, speed: true}

// readGPS reads time, latitude, longitude, speed and the course/status word
// into p. Status word: bits 0-9 course, bit 10 north, bit 11 west, bit 12
// fix valid, bit 14 ACC reported, bit 15 ACC on.
func readGPS(r *reader, p *model.Position, l gpsLayout) error {
	t, err := readTime(r)
	if err != nil {
		return err
	}
	p.DeviceTime, p.FixTime = t, t
	if l.satellites {
		p.Attributes["sat"] = r.u8() & 0x0F
	}
	lat := float64(r.uint(4)) / 1800000
	lon := float64(r.uint(4)) / 1800000
	var flags int
	switch {
	case l.wideSpeed:
		flags = r.u16()
		p.Speed = float64(r.u16()) * kphToKnots
	case l.speed:
		p.Speed = float64(r.u8()) * kphToKnots
		flags = r.u16()
	default:
		flags = r.u16()
	}
	p.Course = float64(flags & 0x03FF)
	p.Valid = flags&(1<<12) != 0
	if flags&(1<<10) == 0 {
		lat = -lat
	}
	if flags&(1<<11) != 0 {
		lon = -lon
	}
	p.Latitude, p.Longitude = lat, lon
	if flags&(1<<14) != 0 {
		p.Attributes["ignition"] = flags&(1<<15) != 0
	}
	if r.err != nil {
		return r.err
	}
	return protocols.CheckFix(p)
}

// cellLayout is the width of the cell fields, which differs between models.
type cellLayout struct {
	lengthByte bool // block starts with its own length
	wideMNC    bool // 2-byte MNC (also when MCC bit 15 is set)
	lte        bool // 4G packets: 4-byte LAC, 8-byte cell id
	cidSize    int  // 3 bytes normally, 4 on some models
}

// lteCell is the serving cell of the 4G packets (0xA0, 0xA4).
var lteCell = cellLayout{lte: true, cidSize: 8}

// readCell reads one serving cell into p.Network. A zero length byte means
// "no cell data" and the block is skipped; so is an all-zero cell.
func readCell(r *reader, p *model.Position, l cellLayout) {
	if l.lengthByte && r.u8() == 0 {
		return
	}
	mcc := r.u16()
	var mnc int
	if l.wideMNC || mcc&0x8000 != 0 {
		mnc = r.u16()
	} else {
		mnc = r.u8()
	}
	var lac int
	if l.lte {
		lac = int(r.uint(4))
	} else {
		lac = r.u16()
	}
	cid := r.uint(l.cidSize)
	if r.err != nil || mcc == 0 && lac == 0 && cid == 0 {
		return
	}
	if l.lte {
		p.Network = lteNetwork(cellTower(mcc&0x7FFF, mnc, lac, cid))
		return
	}
	p.Network = network(cellTower(mcc&0x7FFF, mnc, lac, cid))
}

func cellTower(mcc, mnc, lac int, cid int64) map[string]any {
	return map[string]any{
		"mobileCountryCode": mcc,
		"mobileNetworkCode": mnc,
		"locationAreaCode":  lac,
		"cellId":            cid,
	}
}

// network is shaped like Traccar's Network JSON object.
func network(towers ...map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": towers}
}

// cellNetwork is the network of a cell list packet, nil when it holds
// neither a cell nor an access point.
func cellNetwork(lte bool, towers, aps []map[string]any) map[string]any {
	if len(towers) == 0 && len(aps) == 0 {
		return nil
	}
	n := network(towers...)
	if lte {
		n["radioType"] = "lte"
	}
	if len(towers) == 0 {
		delete(n, "cellTowers")
	}
	if len(aps) > 0 {
		n["wifiAccessPoints"] = aps
	}
	return n
}

// lteNetwork is network for the cells of 4G packets, whose 8-byte cell id
// is an LTE cell identity: radio type "lte" lets a geolocation service
// read it right.
func lteNetwork(towers ...map[string]any) map[string]any {
	n := network(towers...)
	n["radioType"] = "lte"
	return n
}

// terminalAlarms maps bits 3-5 of the terminal information byte.
var terminalAlarms = map[int]string{
	1: "vibration", 2: "powerCut", 3: "lowBattery", 4: "sos", 6: "geofence", 7: "removing",
}

// readStatusModel reads terminal information, voltage level, GSM signal and
// the alarm byte (read with the device model's alarm codes); the language
// byte that follows is left to the caller.
func readStatusModel(r *reader, p *model.Position, deviceModel string) {
	readTerminalInfo(r, p, false)
	readVoltageLevel(r, p)
	p.Attributes["rssi"] = r.u8()
	addAlarm(p, alarmName(r.u8(), deviceModel))
}

// readTerminalInfo reads the terminal information byte: bit 1 ACC, bit 2
// charging, bit 7 oil/power cut, bits 3-5 an alarm (7 is overspeed on the
// VXT01, removal elsewhere).
func readTerminalInfo(r *reader, p *model.Position, vxt01 bool) {
	info := r.u8()
	p.Attributes["status"] = info
	p.Attributes["ignition"] = info&(1<<1) != 0
	p.Attributes["charge"] = info&(1<<2) != 0
	p.Attributes["blocked"] = info&(1<<7) != 0
	if vxt01 && info>>3&7 == 7 {
		addAlarm(p, "overspeed")
		return
	}
	addAlarm(p, terminalAlarms[info>>3&7])
}

// readVoltageLevel reads the voltage byte: a 0-6 level on most models, a
// percentage on some.
func readVoltageLevel(r *reader, p *model.Position) {
	if level := r.u8(); level <= 6 {
		p.Attributes["batteryLevel"] = level * 100 / 6
	} else if level <= 100 {
		p.Attributes["batteryLevel"] = level
	}
}

// alarmName is the Traccar alarm of an alarm byte; LW* models, SEEWORLD
// and the VL models (vlModels) give a few codes other meanings.
func alarmName(code int, deviceModel string) string {
	switch {
	case strings.HasPrefix(deviceModel, "LW"):
		switch code {
		case 0x18:
			return "accident"
		case 0x19:
			return "hardAcceleration"
		}
	case deviceModel == "SEEWORLD":
		switch code {
		case 0x28:
			return "hardCornering"
		case 0x29:
			return "accident"
		}
	case vlModels[deviceModel]:
		switch code {
		case 0x09:
			return "tow"
		case 0x28:
			return "powerOff"
		case 0x30:
			return "hardBraking"
		}
	}
	return alarmCodes[code]
}

// alarmCodes maps the alarm byte of status packets to Traccar alarm names.
var alarmCodes = map[int]string{
	0x01: "sos",
	0x02: "powerCut",
	0x03: "vibration", 0x09: "vibration",
	0x04: "geofenceEnter",
	0x05: "geofenceExit",
	0x06: "overspeed",
	0x0E: "lowBattery", 0x0F: "lowBattery", 0x19: "lowBattery",
	0x11: "powerOff",
	0x0C: "tampering", 0x13: "tampering", 0x25: "tampering", 0x32: "tampering",
	0x14: "door",
	0x18: "removing",
	0x1A: "hardBraking", 0x27: "hardBraking", 0x28: "hardBraking", 0xF1: "hardBraking",
	0x1B: "hardCornering", 0x2A: "hardCornering", 0x2B: "hardCornering", 0x2E: "hardCornering",
	0x23: "fallDown",
	0x26: "hardAcceleration", 0x29: "hardAcceleration", 0xF0: "hardAcceleration",
	0x2C: "accident", 0xF2: "accident",
	0x30: "jamming",
	0x33: "lock",
	0x34: "unlock",
	0x53: "fuelLeak",
	0x5B: "temperature", 0x5C: "temperature",
	0xC9: "idle",
}

// jc100Alarms maps the event byte of 0x95 alarm packets (JC100 family).
var jc100Alarms = map[int]string{
	0x0E: "lowPower",
	0x76: "temperature",
	0x80: "vibration",
	0x87: "overspeed",
	0x88: "powerCut",
	0x90: "hardAcceleration",
	0x91: "hardBraking",
	0x92: "hardCornering",
	0x93: "accident",
}

// addAlarm appends an alarm the way Traccar does: several are comma-joined.
func addAlarm(p *model.Position, alarm string) {
	if alarm == "" {
		return
	}
	if old, ok := p.Attributes["alarm"].(string); ok && old != "" {
		if strings.Contains(","+old+",", ","+alarm+",") {
			return
		}
		alarm = old + "," + alarm
	}
	p.Attributes["alarm"] = alarm
}
