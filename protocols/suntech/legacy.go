package suntech

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// emergencyAlarms maps an EMG report's EMG_ID to Traccar's alarm.
var emergencyAlarms = map[int64]string{
	1: "sos", 2: "parking", 3: "powerCut", 5: "door", 6: "door", 7: "movement", 8: "vibration",
}

// alertAlarms maps an ALT report's ALERT_ID to Traccar's alarm; the other
// ids (driving events, input changes...) are kept as they come.
var alertAlarms = map[int64]string{
	1: "overspeed", 5: "geofenceExit", 6: "geofenceEnter", 14: "lowBattery", 15: "vibration",
	16: "accident", 40: "powerRestored", 41: "powerCut", 42: "sos", 46: "hardAcceleration",
	47: "hardBraking", 50: "jamming", 132: "door",
}

func setAlarm(pos *model.Position, alarm string) {
	if alarm != "" {
		pos.Attributes["alarm"] = alarm
	}
}

// decodeLegacy reads the ST300/ST340/ST500/ST600/SA200 reports
// "<model><type>;<dev_id>;[<model id>;]<sw>;<date>;<time>;<cell>;..."
// and command answers "<model>CMD;Res;<dev_id>;...".
func (p *Protocol) decodeLegacy(f []string) (protocols.Result, error) {
	hdr := f[0]
	model, typ := hdr[:5], hdr[len(hdr)-3:]
	r := &fields{f: f, i: 1}
	if typ == "CMD" && len(f) > 2 && f[1] == "Res" {
		id, err := deviceID(f[2])
		if err != nil {
			return protocols.Result{}, err
		}
		return protocols.Result{UniqueID: id, CommandResult: strings.Join(f[3:], ";")}, nil
	}
	id, err := deviceID(r.next())
	if err != nil {
		return protocols.Result{}, err
	}
	switch typ {
	case "STT", "EMG", "EVT", "ALT", "UEX":
	case "ALV":
		return protocols.Result{UniqueID: id}, nil // keep-alive: no answer expected
	default:
		return protocols.Result{UniqueID: id, Unsupported: "report type " + hdr + " not decoded"}, nil
	}
	pos := p.newPosition()
	pos.Attributes["type"] = typ
	if strings.HasPrefix(model, "ST3") || model == "ST500" || model == "ST600" {
		r.next() // model id
	}
	pos.Attributes["versionFw"] = r.next()
	pos.FixTime = r.dateTime()
	pos.DeviceTime = pos.FixTime
	if model != "ST500" {
		cid := r.hex()
		if model == "ST600" {
			mcc, mnc, lac, rssi := r.int(), r.int(), r.hex(), r.int()
			pos.Network = network(tower(mcc, mnc, lac, cid, rssi))
		}
	}
	pos.Latitude, pos.Longitude, pos.Speed, pos.Course = r.location()
	pos.Attributes["sat"] = r.int()
	pos.Valid = r.next() == "1"
	pos.Attributes["odometer"] = r.int()
	pos.Attributes["power"] = r.float()
	if io := r.next(); len(io) >= 6 {
		pos.Attributes["ignition"] = io[0] == '1'
		for i := 1; i <= 3; i++ {
			pos.Attributes["in"+strconv.Itoa(i)] = io[i] == '1'
		}
		pos.Attributes["out1"] = io[4] == '1'
		pos.Attributes["out2"] = io[5] == '1'
	}
	switch typ {
	case "STT":
		pos.Attributes["status"] = r.int()
		pos.Attributes["index"] = r.int()
	case "EMG":
		setAlarm(pos, emergencyAlarms[r.int()])
	case "EVT":
		pos.Attributes["event"] = r.int()
	case "ALT":
		setAlarm(pos, alertAlarms[r.int()])
	case "UEX":
		serialData(r, pos)
	}
	if r.err != nil {
		return protocols.Result{}, r.err
	}
	tail(r, pos)
	return finish(id, pos)
}

var (
	wholeField   = regexp.MustCompile(`^[0-9]+$`)
	decimalField = regexp.MustCompile(`^[0-9]+\.[0-9]+$`)
	driverField  = regexp.MustCompile(`^[0-9A-Fa-f]{14}$`)
)

// tail reads what the manual's HBM_STT setting adds after the report's
// own fields, when the fields are of that form: hour meter (minutes),
// backup battery voltage, message type (0 stored, 1 live), then an
// iButton id with its registered flag (all zeros: none read). Other set-ups (ADC, RPM,
// temperature sensors, serving cell) depend on a device configuration
// the report does not state, and are not read.
func tail(r *fields, pos *model.Position) {
	if r.left() < 3 || !wholeField.MatchString(r.f[r.i]) || !decimalField.MatchString(r.f[r.i+1]) ||
		(r.f[r.i+2] != "0" && r.f[r.i+2] != "1") {
		return
	}
	minutes, _ := strconv.ParseInt(r.f[r.i], 10, 64)
	pos.Attributes["hours"] = minutes * int64(time.Minute/time.Millisecond)
	pos.Attributes["battery"], _ = strconv.ParseFloat(r.f[r.i+1], 64)
	if r.f[r.i+2] == "0" {
		pos.Attributes["archive"] = true
	}
	r.i += 3
	if _, known := pos.Attributes["driverUniqueId"]; known || r.left() < 2 {
		return
	}
	if id := r.f[r.i]; driverField.MatchString(id) && strings.Trim(id, "0") != "" && (r.f[r.i+1] == "0" || r.f[r.i+1] == "1") {
		pos.Attributes["driverUniqueId"] = id
	}
}

// serialData reads a UEX report's serial port data: its length, then the
// text (which may itself hold ';'), then a checksum. iButton readers
// ("GTSL|...|<id>|..."), fuel and temperature sensors ("N_0=0419.0",
// "t_0=1C") and the CabAVL fuel message are understood; other text is kept
// as "serial".
func serialData(r *fields, pos *model.Position) {
	remaining := r.int()
	if r.err != nil {
		return
	}
	// The length counts the "\r\n" ending the data, which some firmware
	// leaves out: two bytes left over end it too.
	var fuel float64
	for remaining > 2 && r.left() > 0 {
		attr := r.next()
		remaining -= int64(len(attr)) + 1
		switch {
		case strings.HasPrefix(attr, "CabAVL"):
			parts := strings.Split(attr, ",")
			for i, key := range []string{"fuel1", "fuel2"} {
				if len(parts) > 2+i {
					if v, err := strconv.ParseFloat(parts[2+i], 64); err == nil && v > 0 && v < 1e9 {
						fuel += v
						pos.Attributes[key] = v
					}
				}
			}
		case strings.HasPrefix(attr, "GTSL"):
			if parts := strings.Split(attr, "|"); len(parts) > 4 {
				pos.Attributes["driverUniqueId"] = parts[4]
			}
		case strings.Contains(attr, "="):
			key, value, _ := strings.Cut(attr, "=")
			value, _, _ = strings.Cut(strings.TrimSpace(value), ".")
			v, err := strconv.ParseInt(value, 16, 32)
			if err != nil || len(key) < 3 {
				continue
			}
			switch key[0] {
			case 't':
				pos.Attributes["temp"+key[2:3]] = v
			case 'N':
				fuel += float64(v)
				pos.Attributes["fuel"+key[2:3]] = v
			case 'Q':
				pos.Attributes["drivingQuality"] = v
			}
		default:
			pos.Attributes["serial"] = strings.TrimSpace(attr)
		}
	}
	if fuel > 0 {
		pos.Attributes["fuel"] = fuel
	}
	if r.left() > 0 {
		r.next() // checksum of the serial data
	}
}

func tower(mcc, mnc, lac, cid, rssi int64) map[string]any {
	t := map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
	if rssi != 0 {
		t["signalStrength"] = rssi
	}
	return t
}

// network is shaped like Traccar's Network object.
func network(towers ...map[string]any) map[string]any {
	return map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": towers}
}

// decode4 reads the ST4xx status and alert reports: firmware, model, seven
// cells, battery, then the fix (empty fields when there is none).
func (p *Protocol) decode4(f []string) (protocols.Result, error) {
	typ := f[0][len(f[0])-3:]
	r := &fields{f: f, i: 1}
	id, err := deviceID(r.next())
	if err != nil {
		return protocols.Result{}, err
	}
	switch typ {
	case "STT", "ALT":
	case "ALV":
		return protocols.Result{UniqueID: id}, nil
	default:
		return protocols.Result{UniqueID: id, Unsupported: "report type " + f[0] + " not decoded"}, nil
	}
	attrs := model.Attributes{"type": typ, "versionFw": r.next()}
	modelID := r.int()
	if modelID == 41 {
		r.next() // variant
	}
	var towers []map[string]any
	for i := range 7 {
		cid, mcc, mnc := r.int(), r.int(), r.int()
		var lac, rssi int64
		if i == 0 {
			rssi, lac = r.int(), r.int()
		} else {
			lac, rssi = r.int(), r.int()
		}
		r.next() // timing advance
		if cid > 0 {
			towers = append(towers, tower(mcc, mnc, lac, cid, rssi))
		}
	}
	attrs["battery"] = r.float()
	if r.next() == "0" {
		attrs["archive"] = true
	}
	attrs["index"] = r.int()
	attrs["status"] = r.int()
	if r.left() > 0 && len(r.f[r.i]) == 3 {
		r.next() // collaborative network
	}
	if modelID == 41 {
		r.skip(2) // collaborative network, temperature
		attrs["motion"] = r.int() == 2
	}
	if r.err != nil {
		return protocols.Result{}, r.err
	}
	var pos *model.Position
	if r.left() == 0 || r.f[r.i] == "" {
		pos = p.outdated(time.Time{})
	} else {
		pos = p.newPosition()
		pos.FixTime = r.dateTime()
		pos.DeviceTime = pos.FixTime
		pos.Latitude, pos.Longitude, pos.Speed, pos.Course = r.location()
		attrs["sat"] = r.int()
		pos.Valid = r.next() == "1"
		if r.err != nil {
			return protocols.Result{}, r.err
		}
	}
	for k, v := range attrs {
		pos.Attributes[k] = v
	}
	if len(towers) > 0 {
		pos.Network = network(towers...)
	}
	return finish(id, pos)
}

// decode9 reads the ST910 personal tracker's "ST910;Location|Emergency|Alert;
// <dev_id>;[<sw>;]<date>;<time>;[<cell>;]<lat>;<lon>;<speed>;<course>;<fix>"
// reports. The firmware field is absent from some alerts and a cell field
// present in the second layout (Traccar's protocolType 1): both are told
// from the fields themselves.
func (p *Protocol) decode9(f []string) (protocols.Result, error) {
	r := &fields{f: f, i: 1}
	typ := r.next()
	id, err := deviceID(r.next())
	if err != nil {
		return protocols.Result{}, err
	}
	switch typ {
	case "Location", "Emergency", "Alert":
	default:
		return protocols.Result{UniqueID: id, Unsupported: "ST910 report " + typ + " not decoded"}, nil
	}
	pos := p.newPosition()
	if typ != "Location" {
		pos.Attributes["alarm"] = "general"
	}
	if r.left() > 1 && !strings.Contains(r.f[r.i+1], ":") {
		pos.Attributes["versionFw"] = r.next()
	}
	pos.FixTime = r.dateTime()
	pos.DeviceTime = pos.FixTime
	withCell := r.left() > 0 && !strings.Contains(r.f[r.i], ".")
	if withCell {
		r.next()
	}
	pos.Latitude, pos.Longitude, pos.Speed, pos.Course = r.location()
	pos.Valid = r.next() == "1"
	if withCell {
		pos.Attributes["odometer"] = r.int()
	}
	if r.err != nil {
		return protocols.Result{}, r.err
	}
	return finish(id, pos)
}

// decodeTravel reads a travel (HTE) report: the trip's summary, kept as
// the driver's iButton id at the last known location.
func (p *Protocol) decodeTravel(f []string) (protocols.Result, error) {
	if len(f) < 3 {
		return protocols.Result{}, errReport
	}
	id, err := deviceID(f[1])
	if err != nil {
		return protocols.Result{}, err
	}
	pos := p.outdated(time.Time{})
	pos.Attributes["driverUniqueId"] = f[len(f)-1]
	return finish(id, pos)
}
