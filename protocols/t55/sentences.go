package t55

import (
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// knotsPerKph converts km/h to the knots positions hold.
const knotsPerKph = 1 / 1.852

// located sets a position's location; a position without a fix at 0,0
// has none (the device had no location at all), so it is outdated: the
// ingest keeps the last known one.
func located(pos *model.Position, valid bool, lat, lon float64) {
	pos.Valid, pos.Latitude, pos.Longitude = valid, lat, lon
	pos.Outdated = !valid && lat == 0 && lon == 0
}

func (p *Protocol) fixAt(t time.Time) *model.Position {
	pos := p.newPosition()
	pos.DeviceTime, pos.FixTime = t, t
	return pos
}

// rmc: time, validity, latitude, longitude, speed (knots), course, date.
// Some trackers append, after the checksum, satellites, IMEI, ignition,
// fuel, battery and further inputs.
func (p *Protocol) rmc(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) < 10 || f[2] != "A" && f[2] != "V" {
		return nil, "", errFields
	}
	when, ok := dateTime(f[9], f[1])
	lat, ok1 := coordinate(f[3], f[4], "N", "S")
	lon, ok2 := coordinate(f[5], f[6], "E", "W")
	speed, ok3 := optional(f[7])
	course, ok4 := optional(f[8])
	if !ok || !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, "", errFields
	}
	pos := p.fixAt(when)
	located(pos, f[2] == "A", lat, lon)
	pos.Speed, pos.Course = speed, course
	return pos, rmcExtension(pos, s), nil
}

// rmcExtension reads the fields after the checksum: ",sat,imei,ignition,
// fuel,battery[,input...]"; it returns the IMEI, "" without them.
func rmcExtension(pos *model.Position, s string) string {
	star := strings.IndexByte(s, '*')
	if star < 0 {
		return ""
	}
	ext := strings.Split(s[star+1:], ",")
	if len(ext) < 6 || (ext[3] != "0" && ext[3] != "1") {
		return ""
	}
	for _, v := range append([]string{ext[1], ext[2], ext[4], ext[5]}, ext[6:]...) {
		if !isDigits(v) || len(v) > 20 {
			return ""
		}
	}
	pos.Attributes["sat"], _ = strconv.Atoi(ext[1])
	pos.Attributes["ignition"] = ext[3] == "1"
	pos.Attributes["fuel"], _ = strconv.Atoi(ext[4])
	pos.Attributes["battery"], _ = strconv.Atoi(ext[5])
	for i, v := range ext[6:] {
		pos.Attributes["io"+strconv.Itoa(i+1)] = v // as Traccar keeps them: text
	}
	return ext[2]
}

// gga: time of day, latitude, longitude, fix quality (0 none),
// satellites, HDOP, altitude.
func (p *Protocol) gga(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) < 10 {
		return nil, "", errFields
	}
	when, ok := p.timeOfDay(f[1])
	lat, ok1 := coordinate(f[2], f[3], "N", "S")
	lon, ok2 := coordinate(f[4], f[5], "E", "W")
	hdop, ok3 := number(f[8])
	alt, ok4 := number(f[9])
	if !ok || !ok1 || !ok2 || !ok3 || !ok4 || !isDigits(f[6]) || !isDigits(f[7]) || len(f[7]) > 3 {
		return nil, "", errFields
	}
	pos := p.fixAt(when)
	located(pos, strings.TrimLeft(f[6], "0") != "", lat, lon)
	pos.Altitude = alt
	pos.Attributes["sat"], _ = strconv.Atoi(f[7])
	pos.Attributes["hdop"] = hdop
	return pos, "", nil
}

// gll: latitude, longitude, time of day, validity.
func (p *Protocol) gll(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) < 7 || f[6] != "A" && f[6] != "V" {
		return nil, "", errFields
	}
	lat, ok1 := coordinate(f[1], f[2], "N", "S")
	lon, ok2 := coordinate(f[3], f[4], "E", "W")
	when, ok := p.timeOfDay(f[5])
	if !ok || !ok1 || !ok2 {
		return nil, "", errFields
	}
	pos := p.fixAt(when)
	located(pos, f[6] == "A", lat, lon)
	return pos, "", nil
}

// rma: validity, latitude, longitude, two empty fields, speed (knots),
// course; no time, so the position is taken now.
func (p *Protocol) rma(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) < 10 || f[1] != "A" && f[1] != "V" {
		return nil, "", errFields
	}
	lat, ok1 := coordinate(f[2], f[3], "N", "S")
	lon, ok2 := coordinate(f[4], f[5], "E", "W")
	speed, ok3 := optional(f[8])
	course, ok4 := optional(f[9])
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, "", errFields
	}
	pos := p.fixAt(p.now.Now())
	located(pos, f[1] == "A", lat, lon)
	pos.Speed, pos.Course = speed, course
	return pos, "", nil
}

// trccr is Traccar Client's sentence: "yyyyMMddhhmmss.sss", validity,
// decimal latitude and longitude, speed (knots), course, altitude,
// battery.
func (p *Protocol) trccr(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) < 9 || len(f[1]) < 14 || f[2] != "A" && f[2] != "V" {
		return nil, "", errFields
	}
	when, ok := dateTime(f[1][6:8]+f[1][4:6]+f[1][2:4], f[1][8:])
	lat, ok1 := degrees(f[3], 90, false)
	lon, ok2 := degrees(f[4], 180, false)
	var v [4]float64
	for i := range v {
		x, ok := number(f[5+i])
		if !ok {
			return nil, "", errFields
		}
		v[i] = x
	}
	if !ok || !ok1 || !ok2 || f[1][:2] != "20" {
		return nil, "", errFields
	}
	pos := p.fixAt(when)
	located(pos, f[2] == "A", lat, lon)
	pos.Speed, pos.Course, pos.Altitude = v[0], v[1], v[2]
	pos.Attributes["battery"] = v[3]
	return pos, "", nil
}

// iop: inputs and outputs (eight bits each), four analog inputs, then
// power and battery voltages.
func (p *Protocol) iop(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) < 9 || len(f[1]) != 8 || len(f[2]) != 8 || strings.Trim(f[1]+f[2], "01") != "" {
		return nil, "", errFields
	}
	var v [6]float64
	for i := range v {
		x, ok := number(f[3+i])
		if !ok {
			return nil, "", errFields
		}
		v[i] = x
	}
	pos := p.outdated()
	pos.Attributes["power"] = v[4]
	pos.Attributes["battery"] = v[5]
	return pos, "", nil
}

// qze: IMEI, event, date (ddMMyyyy), time, decimal latitude and
// longitude, speed (km/h), course, validity, ignition.
func (p *Protocol) qze(s string) (*model.Position, string, error) {
	f := strings.Split(s, ",")
	if len(f) != 11 || len(f[1]) != 15 || !isDigits(f[1]) || !isDigits(f[2]) || len(f[2]) > 9 ||
		len(f[3]) != 8 || f[3][4:6] != "20" || f[9] != "A" && f[9] != "V" || f[10] != "0" && f[10] != "1" {
		return nil, "", errFields
	}
	when, ok := dateTime(f[3][:4]+f[3][6:], f[4])
	lat, ok1 := degrees(f[5], 90, false)
	lon, ok2 := degrees(f[6], 180, false)
	if !ok || !ok1 || !ok2 || !isDigits(f[7]) || !isDigits(f[8]) || len(f[7]) > 4 || len(f[8]) > 3 {
		return nil, "", errFields
	}
	speed, _ := strconv.Atoi(f[7])
	course, _ := strconv.Atoi(f[8])
	pos := p.fixAt(when)
	located(pos, f[9] == "A", lat, lon)
	pos.Speed, pos.Course = float64(speed)*knotsPerKph, float64(course)
	pos.Attributes["event"], _ = strconv.Atoi(f[2])
	pos.Attributes["ignition"] = f[10] == "1"
	return pos, f[1], nil
}

// pubx is u-blox's position sentence (PUBX,00) with the device id added:
// time of day, latitude, longitude, altitude, fix status ("NF" none),
// horizontal and vertical accuracy, speed (km/h), course, vertical speed,
// correction age, HDOP, VDOP, TDOP, satellites, device id.
func (p *Protocol) pubx(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) != 21 || !isDigits(f[1]) || len(f[1]) > 2 || len(f[8]) != 2 || !isDigits(f[18]) || !isDigits(f[19]) {
		return nil, "", errFields
	}
	when, ok := p.timeOfDay(f[2])
	lat, ok1 := coordinate(f[3], f[4], "N", "S")
	lon, ok2 := coordinate(f[5], f[6], "E", "W")
	var v [8]float64 // altitude, hacc, vacc, speed, course, vvel, hdop, vdop
	for i, j := range []int{7, 9, 10, 11, 12, 13, 15, 16} {
		x, ok := number(f[j])
		if !ok {
			return nil, "", errFields
		}
		v[i] = x
	}
	if !ok || !ok1 || !ok2 {
		return nil, "", errFields
	}
	pos := p.fixAt(when)
	located(pos, f[8] != "NF", lat, lon)
	pos.Altitude, pos.Accuracy = v[0], v[1]
	pos.Speed, pos.Course = v[3]*knotsPerKph, v[4]
	pos.Attributes["index"], _ = strconv.Atoi(f[1])
	pos.Attributes["hdop"] = v[6]
	pos.Attributes["vdop"] = v[7]
	pos.Attributes["sat"], _ = strconv.Atoi(f[18])
	return pos, f[19], nil
}

// txt is a network report: "NET", device id, operator, signal strength
// (dBm), "MCC MNC".
func (p *Protocol) txt(s string) (*model.Position, string, error) {
	f := data(s)
	if len(f) != 6 || f[1] != "NET" || !isDigits(f[2]) || f[3] == "" {
		return nil, "", errFields
	}
	rssi, err := strconv.Atoi(f[4])
	mcc, mnc, _ := strings.Cut(f[5], " ")
	if err != nil || rssi > 0 || !isDigits(mcc) || !isDigits(mnc) || len(mcc) > 3 || len(mnc) > 3 {
		return nil, "", errFields
	}
	pos := p.outdated()
	pos.Attributes["operator"] = f[3]
	pos.Attributes["rssi"] = rssi
	pos.Attributes["mcc"], _ = strconv.Atoi(mcc)
	pos.Attributes["mnc"], _ = strconv.Atoi(mnc)
	return pos, f[2], nil
}

// wmcs reads WMCS trackers' "$ID,<imei>,...": an optional "ALARM,<hex>"
// pair, then "GPSE<x>,<A|V>" and tagged values: D date (ddmmyy), T time,
// S satellites "visible:used", La/Lo decimal degrees and hemisphere, H
// heading, V speed (km/h), DD distance (not kept: its unit is not known).
func (p *Protocol) wmcs(s string) (*model.Position, string, error) {
	f := strings.Split(s, ",")
	if len(f) < 4 || !isDigits(f[1]) || len(f[1]) > 20 {
		return nil, "", errFields
	}
	gps := -1
	for i := 2; i < len(f)-1; i++ {
		if len(f[i]) == 5 && strings.HasPrefix(f[i], "GPSE") && strings.IndexByte("XHTD", f[i][4]) >= 0 {
			gps = i
			break
		}
	}
	if gps < 0 || f[gps+1] != "A" && f[gps+1] != "V" {
		return nil, "", errFields
	}
	pos := p.newPosition()
	for i := 2; i+1 < gps; i++ {
		if f[i] == "ALARM" {
			pos.Attributes["status"] = f[i+1]
			if code, err := strconv.ParseUint(strings.TrimPrefix(f[i+1], "0x"), 16, 32); err == nil && code != 0 {
				pos.Attributes["alarm"] = "general"
			}
		}
	}
	var date, clock string
	var lat, lon float64
	var hasLat, hasLon bool
	for i := gps + 2; i+1 < len(f); i += 2 {
		v := f[i+1]
		var ok bool
		switch f[i] {
		case "D":
			date, ok = v, true
		case "T":
			clock, ok = v, true
		case "S":
			visible, used, found := strings.Cut(v, ":")
			ok = found && isDigits(visible) && isDigits(used) && len(visible)+len(used) < 6
			pos.Attributes["satVisible"], _ = strconv.Atoi(visible)
			pos.Attributes["sat"], _ = strconv.Atoi(used)
		case "La", "Lo":
			if i+2 >= len(f) {
				return nil, "", errFields
			}
			limit, neg := 90.0, "S"
			if f[i] == "Lo" {
				limit, neg = 180, "W"
			}
			x, good := degrees(v, limit, f[i+2] == neg)
			if f[i] == "La" {
				lat, hasLat = x, good
			} else {
				lon, hasLon = x, good
			}
			ok = good
			i++
		case "H":
			pos.Course, ok = number(v)
		case "V":
			var kph float64
			kph, ok = number(v)
			pos.Speed = kph * knotsPerKph
		case "DD":
			ok = true
		}
		if !ok {
			return nil, "", errFields
		}
	}
	when := p.now.Now()
	if date != "" || clock != "" {
		t, ok := dateTime(date, clock)
		if !ok {
			return nil, "", errFields
		}
		when = t
	}
	pos.DeviceTime, pos.FixTime = when, when
	pos.Valid = f[gps+1] == "A"
	if hasLat && hasLon {
		pos.Latitude, pos.Longitude = lat, lon
	} else {
		pos.Outdated, pos.Valid = true, false
	}
	return pos, f[1], nil
}
