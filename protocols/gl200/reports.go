package gl200

import (
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// The reports below are read field by field: their layout follows masks
// and the device model rather than shapes a pattern could tell apart.

// reader starts a fields reader after the head, version and IMEI.
func (m *message) reader() *fields { return &fields{v: m.v, i: 3} }

// done returns p, or f's error.
func done(f *fields, ps ...*model.Position) ([]*model.Position, error) {
	if f.err != nil {
		return nil, f.err
	}
	return ps, nil
}

// infStates maps the GTINF motion state to ignition and motion (nil: not
// told).
var infStates = map[int64][2]any{
	0x11: {false, false}, 0x12: {false, true}, 0x16: {false, true}, 0x1A: {false, true},
	0x21: {true, false}, 0x22: {true, true}, 0x41: {nil, false}, 0x42: {nil, true},
}

// inf decodes a device information report (GTINF): state, SIM, signal,
// supply voltages, battery; no GPS.
func (m *message) inf() ([]*model.Position, error) {
	if len(m.v[1]) > 10 || m.v[1] == "" {
		return nil, nil // the GT300's own layout
	}
	f := m.reader()
	p := newPosition()
	a := p.Attributes
	if s := f.next(); isVIN(s) {
		a["vin"] = s
		f.skip(1) // device name after the VIN of OBD devices
	}
	if s := f.next(); s != "" {
		if st, ok := infStates[f.hex(s)]; ok {
			if st[0] != nil {
				a["ignition"] = st[0]
			}
			a["motion"] = st[1]
		}
	}
	setText(a, "iccid", f.next())
	if s := f.next(); s != "" {
		a["rssi"] = f.int(s)
	}
	f.skip(2) // signal quality, external power supply
	if len(f.peek(1)) >= 12 {
		f.skip(1) // BLE sensor MAC
		a["deviceTemp"] = f.int(f.next())
		a["humidity"] = f.int(f.next())
	}
	if s := f.next(); s != "" {
		if strings.Contains(s, ".") {
			a["odometer"] = f.float(s) * 1000
		} else {
			a["power"] = float64(f.int(s)) / 1000
		}
	}
	switch m.model {
	case "GV500VC":
	case "GV350M", "GV310LAU":
		f.skip(1) // expansion mask or network type
	default:
		if s := f.next(); s != "" {
			a["power2"] = float64(f.int(s)) / 1000
		}
	}
	if s := f.next(); s != "" {
		a["battery"] = f.float(s)
	}
	if f.next() != "" {
		if f.int(f.next()) == 1 {
			a["charge"] = true
		}
	}
	if m.model == "GV310LAU" {
		f.skip(5) // LED state, power saving, antenna, last fix time, pin mask
		for k := 1; k <= 3; k++ {
			a["adc"+strconv.Itoa(k)] = f.int(f.next())
		}
	}
	return done(f, p)
}

// canBits are the CAN report mask's values after the VIN, ignition and
// odometer, in the order they appear (bits 3 to 21; bit 5 comes before 4).
var canBits = []struct {
	bit  int
	key  string
	kind byte // 'i' decimal, 'f' fraction, 'x' hex, 'p' fraction after a letter prefix, 'c' consumption, 'r' range, 'h' hours
}{
	{3, "fuelUsed", 'f'}, {5, "rpm", 'i'}, {4, "obdSpeed", 'i'}, {6, "coolantTemp", 'i'},
	{7, "fuelConsumption", 'c'}, {8, "fuel", 'p'}, {9, "range", 'r'}, {10, "throttle", 'i'},
	{11, "hours", 'h'}, {12, "drivingTime", 'f'}, {13, "idleHours", 'f'}, {14, "idleFuelConsumption", 'f'},
	{15, "axleWeight", 'i'}, {16, "tachographInfo", 'x'}, {17, "indicators", 'x'}, {18, "lights", 'x'},
	{19, "doors", 'x'}, {20, "vehicleOverspeed", 'f'}, {21, "engineOverspeed", 'f'},
}

// canExtBits are the extended mask's bits with a value kept (the others
// are skipped).
var canExtBits = map[int]struct {
	key  string
	kind byte // 'p' fraction after a letter prefix, 'i' decimal, 'a' millivolts, 's' text
}{
	0: {"adBlueLevel", 'p'}, 1: {"axleWeight1", 'i'}, 2: {"axleWeight3", 'i'}, 3: {"axleWeight4", 'i'},
	7: {"adc1", 'a'}, 15: {"driver1Card", 's'}, 16: {"driver2Card", 's'}, 17: {"driver1Name", 's'},
	18: {"driver2Name", 's'}, 19: {"registration", 's'},
}

// prefixed parses a fraction after a one-letter unit prefix ("P94.80",
// "H149381").
func prefixed(f *fields, s string) float64 {
	if s == "" {
		return 0
	}
	return f.float(s[1:])
}

// can decodes a CAN bus report (GTCAN): the values its masks announce,
// then a point.
func (m *message) can() ([]*model.Position, error) {
	f := m.reader()
	p := newPosition()
	a := p.Attributes
	f.skip(3) // device name, report type, CAN bus state
	mask := f.hex(f.next())
	has := func(bit int) bool { return mask&(1<<bit) != 0 }
	// value returns the next field when bit is set and the field is filled.
	value := func(m int64, bit int) string {
		if m&(1<<bit) == 0 {
			return ""
		}
		return f.next()
	}
	if has(0) {
		setText(a, "vin", f.next())
	}
	if s := value(mask, 1); s != "" {
		a["ignition"] = f.int(s) > 0
	}
	if s := value(mask, 2); s != "" {
		a["obdOdometer"] = f.int(s[1:])
	}
	for _, b := range canBits {
		s := value(mask, b.bit)
		if s == "" {
			continue
		}
		switch b.kind {
		case 'i':
			a[b.key] = f.int(s)
		case 'f':
			a[b.key] = f.float(s)
		case 'x':
			a[b.key] = f.hex(s)
		case 'p':
			a[b.key] = prefixed(f, s)
		case 'c':
			if rest, ok := strings.CutPrefix(s, "L/H"); ok {
				a[b.key] = f.float(rest)
			}
		case 'r':
			a[b.key] = int64(f.int(s)) * 100
		case 'h':
			a[b.key] = int64(f.float(s) * 3600000)
		}
	}
	switch m.model {
	case "GV350M":
		for bit := 22; bit <= 24; bit++ {
			value(mask, bit) // impulse distance, gross weight, catalyst level
		}
	case "GV355CEU":
		for bit := 22; bit <= 28; bit++ {
			value(mask, bit) // distance, engine start counters, handbrake, electric mask
		}
	}
	var ext int64
	if s := value(mask, 29); s != "" {
		ext = f.hex(s)
	}
	for bit := 0; bit <= 30; bit++ {
		s := value(ext, bit)
		kv, keep := canExtBits[bit]
		if !keep || s == "" {
			continue
		}
		switch kv.kind {
		case 'p':
			a[kv.key] = prefixed(f, s)
		case 'i':
			a[kv.key] = f.int(s)
		case 'a':
			a[kv.key] = float64(f.int(s)) / 1000
		case 's':
			a[kv.key] = s
		}
	}
	var canMask int64
	if s := value(ext, 31); s != "" {
		canMask = f.hex(s)
	}
	for bit := 0; bit <= 2; bit++ {
		value(canMask, bit) // retarder usage, power mode, tachograph time
	}
	if m.model != "GV355CEU" && has(30) {
		for f.err == nil && f.peek(0) == "" {
			f.skip(1)
		}
		p.Valid = f.int(f.next()) > 0
		if f.peek(0) != "" {
			speed, course, alt := f.float(f.next()), f.int(f.next()), f.float(f.next())
			p.Speed, p.Course, p.Altitude = speed*knotsPerKph, float64(course), alt
			lon, lat := f.next(), f.next()
			setFix(f, p, lon, lat, f.time(f.next()))
		}
	}
	return done(f, p)
}

// eri decodes the extended fixed report (GTERI): points as GTFRI has them,
// device values by model, then the accessories its mask announces.
func (m *message) eri() ([]*model.Position, error) {
	f := m.reader()
	dm := m.model
	f.skip(1) // device name
	mask := f.hex(f.next())
	has := func(bit int) bool { return mask&(1<<bit) != 0 }
	var power any
	if s := f.next(); s != "" {
		power = float64(f.int(s)) / 1000
	}
	f.skip(1) // report type
	count := f.int(f.next())
	if f.err != nil || count < 1 || count > len(m.v) {
		return done(f)
	}
	ps := make([]*model.Position, 0, count)
	for range count {
		p := newPosition()
		location(f, p, dm)
		ps = append(ps, p)
	}
	p := ps[len(ps)-1]
	a := p.Attributes
	if power != nil {
		a["power"] = power
	}
	gl5 := strings.HasPrefix(dm, "GL5")
	if !gl5 {
		if s := f.next(); s != "" {
			a["odometer"] = f.float(s) * 1000
		}
	}
	if !gl5 && dm != "GL320M" {
		if ms, ok := hours(f, f.next()); ok {
			a["hours"] = ms
		}
		analog(f, a, 1, f.next())
	}
	if strings.HasPrefix(dm, "GV") && !strings.HasPrefix(dm, "GV6") && dm != "GV350M" {
		analog(f, a, 2, f.next())
	}
	if dm == "GV200" || dm == "GV310LAU" {
		analog(f, a, 3, f.next())
	}
	if strings.HasPrefix(dm, "GV3") && strings.HasSuffix(dm, "CEU") || strings.HasPrefix(dm, "GV600M") {
		f.skip(1) // reserved
	}
	setInt := func(key, s string) {
		if s != "" {
			a[key] = f.int(s)
		}
	}
	switch {
	case gl5:
		setInt("batteryLevel", f.next())
		f.skip(1) // mode selection
		if s := f.next(); s != "" {
			a["motion"] = f.int(s) > 0
		}
	case dm == "GV200":
		if s := f.next(); s != "" {
			a["input"] = f.hex(s)
		}
		if s := f.next(); s != "" {
			a["output"] = f.hex(s)
		}
		f.skip(1) // UART device type
	case dm == "GL320M":
		setInt("batteryLevel", f.next())
		if has(7) {
			setInt("externalBattery", f.next())
		}
	default:
		setInt("batteryLevel", f.next())
		if s := f.next(); s != "" {
			setStatus(p, f.hex(s))
		}
		f.skip(1) // reserved or UART device type
	}
	if has(0) && dm != "GV350M" {
		if s := f.next(); s != "" {
			a["fuel"] = f.hex(s)
		}
	}
	if has(1) {
		n := f.int(f.next())
		for k := 1; k <= n && f.err == nil; k++ {
			f.skip(2) // id, type
			if s := f.next(); s != "" {
				a["temp"+strconv.Itoa(k)] = float64(int16(f.hex(s))) * 0.0625
			}
		}
	}
	if has(2) {
		return done(f, ps...) // CAN data follows: not decoded
	}
	if (has(3) || has(4) || has(0) && dm == "GV350M") && f.i < len(m.v)-2 {
		n := f.int(f.next())
		for k := 1; k <= n && f.err == nil; k++ {
			f.skip(1) // type
			if dm == "GV350M" {
				f.skip(1) // UART id
				if has(0) {
					a["fuel"] = f.hex(f.next())
				}
			}
			if has(3) {
				a["fuel"] = f.float(f.next())
			}
			if has(4) {
				f.skip(1) // volume
			}
		}
	}
	if has(7) && dm != "GL320M" {
		n := f.int(f.next())
		for k := 1; k <= n && f.err == nil; k++ {
			f.skip(1) // serial number
			kind := f.int(f.next())
			f.skip(1) // temperature
			if kind == 2 {
				f.skip(1) // humidity
			}
		}
	}
	if has(8) && dm != "GL320M" {
		n := f.int(f.next())
		for k := 1; k <= n && f.err == nil; k++ {
			bleTag(f, a, k, strings.HasPrefix(dm, "GV600M"))
		}
	}
	return done(f, ps...)
}

// bleTag reads one Bluetooth tag of a GTERI report: index, type, model,
// (raw data length,) raw data, then the values its own mask announces.
func bleTag(f *fields, a model.Attributes, k int, rawLength bool) {
	f.skip(3)
	if rawLength {
		f.skip(1)
	}
	f.skip(1)
	mask := f.hex(f.next())
	tag := "tag" + strconv.Itoa(k)
	for bit := 0; bit <= 14; bit++ {
		if mask&(1<<bit) == 0 || bit == 6 {
			continue
		}
		s := f.next()
		switch {
		case s == "":
		case bit == 1:
			a[tag+"Id"] = s
		case bit == 4:
			a[tag+"Temp"] = f.float(s)
		case bit == 5:
			a[tag+"Humidity"] = f.int(s)
		case bit == 13:
			a[tag+"Battery"] = f.int(s)
		}
	}
}

// analog sets analog input k: "F<n>" is a fuel level in percent, else
// millivolts.
func analog(f *fields, a model.Attributes, k int, s string) {
	switch {
	case s == "":
	case s[0] == 'F':
		a["fuel"+strconv.Itoa(k)] = f.int(s[1:])
	default:
		a["adc"+strconv.Itoa(k)] = float64(f.int(s)) / 1000
	}
}

// ign decodes ignition (GTIGN/GTIGF) and virtual ignition (GTVGN/GTVGF)
// reports: a point, the hour meter and odometer.
func (m *message) ign() ([]*model.Position, error) {
	f := m.reader()
	p := newPosition()
	f.skip(1) // device name
	if m.model == "CV200" {
		f.skip(2) // reserved, report type
	}
	f.skip(1) // duration of the previous ignition state
	location(f, p, m.model)
	p.Attributes["ignition"] = strings.HasSuffix(m.typ, "GN")
	if ms, ok := hours(f, f.next()); ok {
		p.Attributes["hours"] = ms
	}
	if s := f.next(); s != "" {
		p.Attributes["odometer"] = f.float(s) * 1000
	}
	return done(f, p)
}

// lbs decodes a cell-location report (GTLBS): battery and up to seven
// cells.
func (m *message) lbs() ([]*model.Position, error) {
	f := m.reader()
	p := newPosition()
	f.skip(3) // device name, trigger type, report type
	p.Attributes["batteryLevel"] = f.int(f.next())
	f.skip(5) // reserved, motion status, reserved, reserved, expansion mask
	var towers []map[string]any
	for k := 0; k < 7 && f.err == nil; k++ {
		if f.peek(1) != "" {
			mcc, mnc := f.int(f.next()), f.int(f.next())
			lac, cid := f.hex(f.next()), f.hex(f.next())
			t := cellTower(mcc, mnc, lac, cid)
			t["signalStrength"] = f.int(f.next())
			towers = append(towers, t)
		} else {
			f.skip(5)
		}
		f.skip(1) // reserved
	}
	p.Network = protocols.Network(towers, nil)
	return done(f, p)
}

// dat decodes a report of data sent by a serial accessory (GTDAT): the
// data text, then a point.
func (m *message) dat() ([]*model.Position, error) {
	f := m.reader()
	p := newPosition()
	f.skip(3) // device name, report type, reserved
	f.skip(1) // reserved
	setText(p.Attributes, "data", f.next())
	location(f, p, m.model)
	return done(f, p)
}

// isVIN reports whether s is a 17-character vehicle identification number.
func isVIN(s string) bool { return len(s) == 17 && allOf(s, isUpperAlnum) }
