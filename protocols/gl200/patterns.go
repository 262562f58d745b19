package gl200

import (
	"regexp"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Reports whose fields move with optional parts are matched whole by a
// regular expression (Go's leftmost-first matching picks the captures a
// backtracking matcher would, as the layouts were written for).

// Pieces of the layouts.
const (
	head    = `^\+(?:RESP|BUFF):GT`
	version = `(?:.{6}|.{10})?,`
	imei    = `(?:\d{15}|[0-9A-Fa-f]{14}),`
	name    = `[^,]*,`
	// tail is the send time (optional) and the count number.
	tail = `(?:\d{14})?,[0-9A-Fa-f]{4}$`
	// point is one GPS point: accuracy, speed km/h, azimuth, altitude,
	// longitude, latitude, fix time, an optional Wi-Fi list, MCC, MNC,
	// LAC, cell id, and a reserved field some firmware fills with the
	// odometer (km).
	point = `(?P<hdop>\d{1,2}\.?\d?)?,(?P<speed>\d{1,3}\.\d)?,(?P<course>\d{1,3}\.?\d?)?,(?P<alt>-?\d{1,5}\.\d)?,` +
		`(?P<lon>-?\d{1,3}\.\d{6})?,(?P<lat>-?\d{1,2}\.\d{6})?,(?P<fix>\d{14})?` +
		`(?:,\d+(?P<wifi>(?:,[0-9A-Fa-f]{12},-\d+,,,)+))?` +
		`,(?P<mcc>\d+)?,(?P<mnc>\d+)?,(?P<lac>[0-9A-Fa-f]+)?,(?P<cid>[0-9A-Fa-f]+)?,(?:\d+|(?P<pointOdometer>\d+\.\d))?,`
)

// unnamed drops the names of a pattern's groups, to repeat it.
func unnamed(pattern string) string {
	return regexp.MustCompile(`\(\?P<\w+>`).ReplaceAllString(pattern, "(?:")
}

var (
	pointRE = regexp.MustCompile(point)
	wifiRE  = regexp.MustCompile(`([0-9A-Fa-f]{12}),(-?\d+),,,`)
)

// match is a pattern's named captures in one message.
type match struct {
	re *regexp.Regexp
	m  []string
}

// find matches re against s; ok is false when it does not match.
func find(re *regexp.Regexp, s string) (match, bool) {
	m := re.FindStringSubmatch(s)
	return match{re, m}, m != nil
}

// get returns the named capture, "" when it did not participate.
func (x match) get(name string) string {
	if i := x.re.SubexpIndex(name); i > 0 {
		return x.m[i]
	}
	return ""
}

// setPoint decodes the captures of point into p.
func setPoint(f *fields, p *model.Position, x match) {
	p.Valid = true
	if s := x.get("hdop"); s != "" {
		hdop := f.float(s)
		p.Valid = hdop > 0
		p.Attributes["hdop"] = hdop
	}
	if s := x.get("speed"); s != "" {
		p.Speed = f.float(s) * knotsPerKph
	}
	if s := x.get("course"); s != "" {
		p.Course = f.float(s)
	}
	if s := x.get("alt"); s != "" {
		p.Altitude = f.float(s)
	}
	if lon, lat, fix := x.get("lon"), x.get("lat"), x.get("fix"); lon != "" && lat != "" && fix != "" {
		setFix(f, p, lon, lat, f.time(fix))
	}
	var towers, aps []map[string]any
	for _, w := range wifiRE.FindAllStringSubmatch(x.get("wifi"), -1) {
		aps = append(aps, accessPoint(w[1], f.int(w[2])))
	}
	if mcc, mnc := x.get("mcc"), x.get("mnc"); mcc != "" && mnc != "" {
		if lac, cid := x.get("lac"), x.get("cid"); lac != "" && cid != "" {
			towers = append(towers, cellTower(f.int(mcc), f.int(mnc), f.hex(lac), f.hex(cid)))
		}
	}
	if n := protocols.Network(towers, aps); n != nil {
		p.Network = n
	}
	if s := x.get("pointOdometer"); s != "" {
		p.Attributes["odometer"] = f.float(s) * 1000
	}
}

// single decodes a one-point report matched by re: the position, with
// the fields reader that collected parse errors.
func (m *message) single(re *regexp.Regexp) (*model.Position, match, *fields) {
	x, ok := find(re, m.text)
	if !ok {
		return nil, x, nil
	}
	f := &fields{}
	p := newPosition()
	setPoint(f, p, x)
	return p, x, f
}

// one wraps a single position for the decoders' result.
func one(p *model.Position, f *fields) ([]*model.Position, error) {
	if p == nil {
		return nil, nil
	}
	if f.err != nil {
		return nil, f.err
	}
	return []*model.Position{p}, nil
}

var friRE = regexp.MustCompile(head + `[A-Z]{3},` + version + imei +
	`(?:(?P<vin>[0-9A-Z]{17}),)?` + name +
	`(?P<power>\d+)?,(?:(?P<reportType>\d{1,2}),)?(?:\d{1,2},)?(?:\d*,)?(?:(?P<battery>\d+),)?` +
	`(?P<points>(?:` + unnamed(point) + `)+)` +
	`(?:` +
	// GL300-style: reserved, backup battery mV, level, mode, motion, temperature.
	`\d{1,2},(?P<backup>\d{1,5})?,(?P<level1>\d{1,3}),[01],[01]?,(?P<temp>-?\d{1,2}\.\d)?,` +
	// GV-style: odometer, hour meter, analog inputs, level, status, OBD values.
	`|(?P<odometer>\d{1,7}\.\d)?,(?P<hours>\d{5}:\d\d:\d\d)?,(?P<adc1>[0-9A-Fa-f]+)?,(?P<adc2>[0-9A-Fa-f]+)?,(?:\d*,)?` +
	`(?P<level2>\d{1,3})?,(?P<status>[0-9A-Fa-f]{6})?,(?P<rpm>\d+)?,(?:\d+\.?\d*|Inf|NaN)?,(?P<fuel>\d+)?,` +
	// CSQ and level.
	`|(?P<rssi>-?\d),(?P<level3>\d{1,3}),` +
	// odometer and level.
	`|(?:(?P<odometer4>\d{1,7}\.\d)?,)?(?P<level4>\d{1,3})?,` +
	`).*` + tail)

// fri decodes the fixed reports (GTFRI) and their kin: one or more points,
// then device values whose layout depends on the family.
func (m *message) fri() ([]*model.Position, error) {
	x, ok := find(friRE, m.text)
	if !ok {
		return nil, nil
	}
	f := &fields{}
	var ps []*model.Position
	vin := x.get("vin")
	for _, pt := range pointRE.FindAllStringSubmatch(x.get("points"), -1) {
		p := newPosition()
		if vin != "" {
			p.Attributes["vin"] = vin
		}
		setPoint(f, p, match{pointRE, pt})
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return nil, nil
	}
	p := ps[len(ps)-1]
	a := p.Attributes
	setInt := func(key, s string) {
		if s != "" {
			a[key] = f.int(s)
		}
	}
	if s := x.get("power"); s != "" {
		if mv := f.int(s); mv > 10 { // a status code on some devices
			a["power"] = float64(mv) / 1000
		}
	}
	setInt("batteryLevel", x.get("battery"))
	if s := x.get("backup"); s != "" {
		a["battery"] = float64(f.int(s)) / 1000
	}
	setInt("batteryLevel", x.get("level1"))
	if s := x.get("temp"); s != "" {
		a["temp1"] = f.float(s)
	}
	if s := x.get("odometer"); s != "" {
		a["odometer"] = f.float(s) * 1000
	}
	if ms, ok := hours(f, x.get("hours")); ok {
		a["hours"] = ms
	}
	if s := x.get("adc1"); s != "" {
		a["adc1"] = s
	}
	if s := x.get("adc2"); s != "" {
		a["adc2"] = s
	}
	setInt("batteryLevel", x.get("level2"))
	if s := x.get("status"); s != "" {
		setStatus(p, f.hex(s))
	}
	setInt("rpm", x.get("rpm"))
	setInt("fuel", x.get("fuel"))
	if rssi := x.get("rssi"); rssi != "" {
		if s := x.get("reportType"); s != "" {
			t := f.int(s)
			a["motion"] = t&1 != 0
			a["charge"] = t&2 != 0
		}
		setInt("rssi", rssi)
		setInt("batteryLevel", x.get("level3"))
	}
	if s := x.get("odometer4"); s != "" {
		a["odometer"] = f.float(s) * 1000
	}
	setInt("batteryLevel", x.get("level4"))
	if f.err != nil {
		return nil, f.err
	}
	return ps, nil
}

var obdRE = regexp.MustCompile(`^\+RESP:GTOBD,` + version + imei +
	`(?:[0-9A-Z]{17})?,[^,]{0,20},[01],[0-9A-Fa-f]{1,8},(?:[0-9A-Z]{17})?,[01],(?:\d{1,5})?,(?:[0-9A-Fa-f]{8})?,` +
	`(?P<rpm>\d{1,5})?,(?P<obdSpeed>\d{1,3})?,(?P<temp>-?\d{1,3})?,(?P<consumption>\d+\.?\d*|Inf|NaN)?,` +
	`(?P<cleared>\d{1,5})?,(?:\d{1,5})?,(?P<connect>[01])?,(?P<dtcs>\d{1,3})?,(?P<codes>[0-9A-Fa-f]*),` +
	`(?P<throttle>\d{1,3})?,(?:\d{1,3})?,(?P<fuel>\d{1,3})?,(?:[0-9A],)?(?P<obdOdometer>\d+),` +
	point + `(?P<odometer>\d{1,7}\.\d)?,` + tail)

// obd decodes an OBD report (GTOBD): engine values, then one point.
func (m *message) obd() ([]*model.Position, error) {
	p, x, f := m.single(obdRE)
	if p == nil {
		return nil, nil
	}
	a := p.Attributes
	for _, k := range [][2]string{{"rpm", "rpm"}, {"obdSpeed", "obdSpeed"}, {"temp", "temp1"},
		{"cleared", "dtcsClearedDistance"}, {"dtcs", "dtcsNumber"}, {"throttle", "throttle"}, {"fuel", "fuel"}} {
		if s := x.get(k[0]); s != "" {
			a[k[1]] = f.int(s)
		}
	}
	if s := x.get("consumption"); s != "" && s != "Inf" && s != "NaN" {
		a["fuelConsumption"] = f.float(s)
	}
	if s := x.get("connect"); s != "" {
		a["obdConnect"] = s == "1"
	}
	setText(a, "dtcsCodes", x.get("codes"))
	a["obdOdometer"] = f.int(x.get("obdOdometer")) * 1000
	if s := x.get("odometer"); s != "" {
		a["obdOdometer"] = int(f.float(s) * 1000)
	}
	return one(p, f)
}

var lswRE = regexp.MustCompile(`^\+RESP:GT[LT]SW,` + version + imei + name + `[01],(?P<state>[01]),` + point + tail)

// lsw decodes a light-sensor or tamper switch report: the switch state as
// in1 (GTLSW) or in2 (GTTSW).
func (m *message) lsw() ([]*model.Position, error) {
	p, x, f := m.single(lswRE)
	if p != nil {
		key := "in2"
		if m.typ == "LSW" {
			key = "in1"
		}
		p.Attributes[key] = x.get("state") == "1"
	}
	return one(p, f)
}

var idaRE = regexp.MustCompile(`^\+RESP:GTIDA,` + version + imei + name + `,(?P<rfid>[^,]+),[01],1,` + point +
	`(?P<odometer>\d+\.\d),,,,` + tail)

// ida decodes a driver identification (RFID) report.
func (m *message) ida() ([]*model.Position, error) {
	p, x, f := m.single(idaRE)
	if p != nil {
		p.Attributes["driverUniqueId"] = x.get("rfid")
		p.Attributes["odometer"] = f.float(x.get("odometer")) * 1000
	}
	return one(p, f)
}

var wifRE = regexp.MustCompile(`^\+RESP:GTWIF,` + version + imei + name +
	`\d+,(?P<aps>(?:[0-9A-Fa-f]{12},-?\d+,,,,)+),,,,(?P<level>\d{1,3}),` + tail)

// wif decodes a Wi-Fi scan report: access points, no GPS.
func (m *message) wif() ([]*model.Position, error) {
	x, ok := find(wifRE, m.text)
	if !ok {
		return nil, nil
	}
	f := &fields{}
	p := newPosition()
	var aps []map[string]any
	for _, w := range wifiRE.FindAllStringSubmatch(x.get("aps"), -1) {
		aps = append(aps, accessPoint(w[1], f.int(w[2])))
	}
	p.Network = protocols.Network(nil, aps)
	p.Attributes["batteryLevel"] = f.int(x.get("level"))
	return one(p, f)
}

var gsmRE = regexp.MustCompile(`^\+RESP:GTGSM,` + version + imei + `(?:STR|CTN|NMR|RTL),(?P<cells>.*)` + tail)

// gsm decodes a cell scan report: up to six cells of six fields each
// (MCC, MNC, LAC, cell id, RSSI, reserved), no GPS.
func (m *message) gsm() ([]*model.Position, error) {
	x, ok := find(gsmRE, m.text)
	if !ok {
		return nil, nil
	}
	f := &fields{v: strings.Split(x.get("cells"), ",")}
	p := newPosition()
	var towers []map[string]any
	for k := 0; k < 6; k++ {
		f.i = k * 6
		if f.peek(0) == "" {
			continue
		}
		mcc, mnc := f.int(f.next()), f.int(f.next())
		lac, cid := f.hex(f.next()), f.hex(f.next())
		t := cellTower(mcc, mnc, lac, cid)
		t["signalStrength"] = f.int(f.next())
		towers = append(towers, t)
	}
	p.Network = protocols.Network(towers, nil)
	return one(p, f)
}

var verRE = regexp.MustCompile(`^\+(?:RESP|BUFF):GTVER,` + version + imei + name +
	`(?P<deviceType>[^,]*),(?P<fw>[0-9A-Fa-f]{4}),(?P<hw>[0-9A-Fa-f]{4}),` + tail)

// ver decodes a version report: device type, firmware and hardware.
func (m *message) ver() ([]*model.Position, error) {
	x, ok := find(verRE, m.text)
	if !ok {
		return nil, nil
	}
	f := &fields{}
	p := newPosition()
	setText(p.Attributes, "deviceType", x.get("deviceType"))
	p.Attributes["versionFw"] = f.hex(x.get("fw"))
	p.Attributes["versionHw"] = f.hex(x.get("hw"))
	return one(p, f)
}

var pnaRE = regexp.MustCompile(`^\+RESP:GTP[NF]A,` + version + imei + name + tail)

// pna decodes a power on (GTPNA) or off (GTPFA) report.
func (m *message) pna() ([]*model.Position, error) {
	if !pnaRE.MatchString(m.text) {
		return nil, nil
	}
	p := newPosition()
	p.Attributes["alarm"] = "powerOff"
	if m.typ == "PNA" {
		p.Attributes["alarm"] = "powerOn"
	}
	return []*model.Position{p}, nil
}

var darRE = regexp.MustCompile(`^\+RESP:GTDAR,` + version + imei + name +
	`(?P<warning>\d),(?P<fatigue>\d{1,2}),,,` + point + `.*` + tail)

// dar decodes a driver assistance (ADAS/DMS camera) warning.
func (m *message) dar() ([]*model.Position, error) {
	p, x, f := m.single(darRE)
	if p != nil {
		if w := f.int(x.get("warning")); w == 1 {
			p.Attributes["alarm"] = "fatigueDriving"
			p.Attributes["fatigueDegree"] = f.int(x.get("fatigue"))
		} else {
			p.Attributes["warningType"] = w
		}
	}
	return one(p, f)
}

var dttRE = regexp.MustCompile(`^\+RESP:GTDTT,` + version + imei + name + `,,\d,\d+,(?P<data>[0-9A-Fa-f]+),` + tail)

// dtt decodes data passed through from a serial accessory (hex ASCII): a
// fuel sensor's COMB line gives the fuel level, anything else is kept as
// the result text.
func (m *message) dtt() ([]*model.Position, error) {
	x, ok := find(dttRE, m.text)
	if !ok {
		return nil, nil
	}
	f := &fields{}
	data := unhexText(f, x.get("data"))
	p := newPosition()
	if strings.Contains(data, "COMB") {
		parts := strings.Split(data, ",")
		if len(parts) < 3 {
			return nil, model.Invalid("gl200: short COMB data %q", data)
		}
		p.Attributes["fuel"] = f.float(parts[2])
	} else {
		setText(p.Attributes, "result", data)
	}
	return one(p, f)
}

// unhexText decodes hex-written ASCII.
func unhexText(f *fields, h string) string {
	b := make([]byte, 0, len(h)/2)
	for i := 0; i+2 <= len(h); i += 2 {
		b = append(b, byte(f.hex(h[i:i+2])))
	}
	return string(b)
}

var baaRE = regexp.MustCompile(`^\+RESP:GTBAA,` + version + imei + name +
	`[0-9A-Fa-f]+,\d,\d,[0-9A-Fa-f]+,(?P<mask>[0-9A-Fa-f]{4}),(?P<values>(?:[^,]+,){0,6})` + point + `.*` + tail)

var bidRE = regexp.MustCompile(`^\+RESP:GTBID,` + version + imei + name +
	`\d,\d,(?P<mask>[0-9A-Fa-f]{4}),(?P<values>(?:[^,]+,){0,2})` + point + `.*` + tail)

// accessory names the values a Bluetooth accessory report's append mask
// announces, by bit; BID reports carry only the MAC and voltage.
var accessory = []struct {
	key   string
	scale float64 // 0: kept as text
}{
	{"accessoryName", 0}, {"accessoryMac", 0}, {"accessoryStatus", 1},
	{"accessoryVoltage", 1000}, {"accessoryTemp", 1}, {"accessoryHumidity", 1},
}

// baa decodes a Bluetooth accessory alarm (GTBAA) or accessory
// information (GTBID) report.
func (m *message) baa() ([]*model.Position, error) {
	re, bits := baaRE, 0b111111
	if m.typ == "BID" {
		re, bits = bidRE, 0b1010
	}
	p, x, f := m.single(re)
	if p == nil {
		return nil, nil
	}
	mask := int(f.hex(x.get("mask")))
	values := strings.Split(x.get("values"), ",")
	k := 0
	for bit, acc := range accessory {
		if bits&mask&(1<<bit) == 0 {
			continue
		}
		if k >= len(values)-1 {
			return nil, errShort
		}
		switch acc.scale {
		case 0:
			p.Attributes[acc.key] = values[k]
		case 1:
			p.Attributes[acc.key] = f.int(values[k])
		default:
			p.Attributes[acc.key] = float64(f.int(values[k])) / acc.scale
		}
		k++
	}
	return one(p, f)
}

var lsaRE = regexp.MustCompile(`^\+RESP:GTLSA,` + version + imei + name + `\d,\d,\d+,` + point +
	`\d+,(?P<light>\d),(?P<level>\d+),[01],[01]?,(?P<temp>-?\d+\.\d)?,` + tail)

// lsa decodes a light sensor report.
func (m *message) lsa() ([]*model.Position, error) {
	p, x, f := m.single(lsaRE)
	if p != nil {
		p.Attributes["lightLevel"] = f.int(x.get("light"))
		p.Attributes["batteryLevel"] = f.int(x.get("level"))
		if s := x.get("temp"); s != "" {
			p.Attributes["temp1"] = f.float(s)
		}
	}
	return one(p, f)
}
