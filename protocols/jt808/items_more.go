package jt808

import (
	"fmt"
	"strconv"
	"strings"
)

// lock reads an electronic lock's item (0x0B): command, then a card
// number or a password, then the unlock result when the length is even.
func (x *items) lock(n int) {
	r := x.r
	x.set("lockCommand", r.u8())
	switch {
	case n >= 5 && n <= 6:
		x.set("lockCard", r.u32())
	case n >= 7:
		x.set("lockPassword", r.text(6))
	}
	if n%2 == 0 {
		x.set("unlockResult", r.u8())
	}
}

// obdBlock reads item 0x91, a fixed block of engine values.
func (x *items) obdBlock() {
	r := x.r
	x.set("battery", float64(r.u16())/10)
	x.set("rpm", r.u16())
	x.set("obdSpeed", r.u8())
	x.set("throttle", r.u8()*100/255)
	x.set("engineLoad", r.u8()*100/255)
	x.set("coolantTemp", r.u8()-40)
	r.skip(2)
	x.set("fuelConsumption", float64(r.u16())/100)
	r.skip(8)
	x.set("fuelUsed", float64(r.u16())/100)
}

// batteryOrCells reads items 0xD4, 0xE1 and 0xE9, whose length tells the
// vendors' uses apart: a battery level (0xFF: charging), a cell list, the
// external power, or a driver card number.
func (x *items) batteryOrCells(id, n int) {
	r := x.r
	switch {
	case n == 1:
		if v := r.u8(); v == 0xFF {
			x.set("charge", true)
		} else {
			x.set("batteryLevel", v)
		}
	case id == 0xE1 && n >= 12 && (n-4)%8 == 0:
		mcc, mnc := r.u16(), r.u16()
		for r.left() >= 8 {
			lac, cid := r.u24(), r.u32()
			x.cell(mcc, mnc, lac, cid, r.u8(), true)
		}
	case id == 0xE1 && n == 2:
		x.set("power", float64(r.u16())/10)
	default:
		x.set("driverUniqueId", strconv.FormatInt(r.u32(), 10))
	}
}

// locks reads item 0xD5: a battery voltage, or a list of padlocks.
func (x *items) locks(n int) {
	r := x.r
	if n == 2 {
		x.set("battery", float64(r.u16())/100)
		return
	}
	count := r.u8()
	for i := 1; i <= count && r.left() >= 13; i++ {
		x.set(fmt.Sprintf("lock%dId", i), r.hex(5))
		x.set(fmt.Sprintf("lock%dCard", i), r.hex(5))
		x.set(fmt.Sprintf("lock%dBattery", i), r.u8())
		x.set(fmt.Sprintf("lock%dLocked", i), r.u16()&(1<<5) == 0)
	}
}

// sensors reads item 0xE6: an "$OBD-RT" line, or wireless temperature and
// humidity sensors of 11 bytes each.
func (x *items) sensors(n int) {
	r := x.r
	if n >= 7 && strings.HasPrefix(string(r.b), "$OBD-RT") {
		x.obdRealTime(r.text(n))
		return
	}
	if n < 11 || n%11 != 0 {
		return
	}
	for r.left() >= 11 {
		i := r.u8()
		r.skip(6) // sensor MAC
		x.set(fmt.Sprintf("temp%d", i), x.sensorValue())
		x.set(fmt.Sprintf("humidity%d", i), x.sensorValue())
	}
}

// sensorValue reads a signed whole part and a fraction in 1/255.
func (x *items) sensorValue() float64 {
	whole, frac := x.r.i8(), x.r.u8()
	v := float64(abs(whole)) + float64(frac)/255
	if whole < 0 {
		return -v
	}
	return v
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// obdRealTime reads an "$OBD-RT" line: header, then power, rpm, speed,
// throttle, load, coolant, instant and average consumption, trip and
// total distance, trip and total fuel; empty fields are absent.
func (x *items) obdRealTime(line string) {
	keys := []string{"power", "rpm", "obdSpeed", "throttle", "engineLoad", "coolantTemp",
		"fuelConsumption", "fuelConsumption", "tripOdometer", "obdOdometer", "tripFuelUsed", "fuelUsed"}
	fields := strings.Split(line, ",")
	for i, key := range keys {
		if i+1 >= len(fields) || fields[i+1] == "" {
			continue
		}
		v, err := strconv.ParseFloat(trim(fields[i+1]), 64)
		if err != nil {
			continue
		}
		if key == "coolantTemp" {
			x.set(key, int(v))
		} else {
			x.set(key, v)
		}
	}
}

// jimiAlarms maps the event ids of Jimi (JC-series) item 0xE8.
var jimiAlarms = map[int]string{
	0x0001: "fault",
	0x0400: "hardAcceleration", 0x0412: "hardAcceleration",
	0x0401: "hardBraking", 0x0413: "hardBraking",
	0x0402: "hardCornering", 0x0414: "hardCornering",
	0x0403: "overspeed",
	0x0405: "accident", 0x0416: "accident", 0x0417: "accident",
	0x0406: "vibration",
	0x0407: "tow",
	0x0408: "geofenceEnter",
	0x0409: "geofenceExit",
	0x040C: "door",
	0x0415: "laneChange",
	0x0C01: "sos",
	0x0C02: "lowPower",
	0x0C05: "general",
	0x0C0E: "powerCut",
	0x0C0F: "lowBattery",
	0x0C10: "powerOff",
	0x0C12: "tampering",
}

// jimi reads item 0xE8 of Jimi dashcams: a sub-type, then its data.
func (x *items) jimi() {
	r := x.r
	switch sub := r.u16(); sub {
	case 0x2002:
		r.skip(1) // length
		x.set("uploadMode", r.u8())
		x.set("buffered", r.u8() == 1)
	case 0x2003:
		r.skip(1)
		x.set("charge", r.u8() == 1)
		if s := r.u8(); s >= 1 && s <= 6 {
			x.set("batteryLevel", s*100/6)
		}
		x.set("battery", float64(r.u16())/100)
		x.set("rssi", r.u8())
		x.set("power", float64(r.u16())/100)
	case 0x2005:
		r.skip(1)
		for r.left() >= 3 {
			id, n := r.u16(), r.u8()
			x.jimiStatus(id, &reader{b: r.next(min(n, r.left()))})
		}
	case 0x0C03, 0x0C04:
		x.set("ignition", sub == 0x0C03)
	default:
		x.alarm(jimiAlarms[sub])
	}
}

// jimiStatus reads one status of a Jimi 0x2005 list.
func (x *items) jimiStatus(id int, r *reader) {
	outer := x.r
	x.r = r
	defer func() { x.r = outer }()
	switch id {
	case 0x0001:
		x.set("battery", float64(r.u16())/100)
	case 0x0002:
		x.set("dataUsage", r.u32())
	case 0x0003:
		x.set("batteryLevel", r.u8())
	case 0x0004:
		x.set("charge", r.u8() == 0)
	case 0x0005:
		if s := r.hex(10); len(s) == 20 {
			x.set("iccid", s[:19])
		}
	case 0x0007:
		x.set("hdop", float64(r.u16())/10)
	case 0x2001:
		x.set("power", float64(r.u16())/10)
	}
}

// external reads item 0xEA: a type byte, then sensors as id, length,
// value.
func (x *items) external(n int) {
	if n <= 2 {
		return
	}
	outer := x.r
	defer func() { x.r = outer }()
	outer.skip(1)
	for outer.left() >= 2 {
		id, l := outer.u8(), outer.u8()
		if l > outer.left() {
			return
		}
		r := &reader{b: outer.next(l)}
		x.r = r
		switch id {
		case 0x11:
			x.set("externalAlarms", r.u16())
			x.set("alarmThresholdType", r.u8())
		case 0x13:
			x.set("externalIlluminance", r.u16())
		case 0x14:
			x.set("externalAirPressure", r.u16())
		case 0x15:
			x.set("externalHumidity", float64(r.u16())/10)
		case 0x16:
			x.set("externalTemp", float64(r.u16())/10-50)
		}
		x.r = outer
	}
}

// extended reads item 0xEB: a cell list, a time-zone text, or a list of
// vendor items as length (2, counting the id), id (2), value.
func (x *items) extended(n int) {
	outer := x.r
	b := outer.b
	switch {
	case n >= 3 && int(b[0])<<8|int(b[1]) > 200 && (n-3)%5 == 0:
		mcc, mnc := outer.u16(), outer.u8()
		for outer.left() >= 5 {
			lac, cid := outer.u16(), outer.u16()
			x.cell(mcc, mnc, lac, int64(cid), outer.u8(), true)
		}
		return
	case printable(b):
		x.set("timezone", string(b))
		return
	}
	defer func() { x.r = outer }()
	for outer.left() >= 4 {
		l := outer.u16()
		if l < 2 || l > outer.left() {
			return
		}
		body := outer.next(l)
		r := &reader{b: body[2:]}
		x.r = r
		x.vendorItem(int(body[0])<<8|int(body[1]), l)
		x.r = outer
	}
}

// vendorItem reads one item of an 0xEB list; l counts its id.
func (x *items) vendorItem(id, l int) {
	r := x.r
	switch id {
	case 0x0001:
		x.set("fuel1", float64(r.u16())/10)
	case 0x0023:
		if v, err := strconv.ParseFloat(trim(r.text(6)), 64); err == nil {
			x.set("fuel2", v)
		}
	case 0x002D:
		if l == 6 {
			x.set("power", float64(r.u32())/1000)
		} else {
			x.set("battery", float64(r.u16())/1000)
		}
	case 0x0089:
		a := r.u32()
		x.alarm(pick(a&1 == 0, "powerOff"))
		x.alarm(pick(a&(1<<12) == 0, "removing"))
	case 0x00B2:
		x.set("iccid", strings.TrimRight(r.hex(10), "f"))
	case 0x00B9:
		r.skip(1) // count
		parts := strings.Split(r.text(r.left()), ",")
		for i := 0; i+1 < len(parts); i += 2 {
			if rssi, err := strconv.Atoi(trim(parts[i+1])); err == nil {
				x.accessPoint(parts[i], rssi)
			}
		}
	case 0x00C5:
		a := r.u32()
		x.alarm(pick(a&(1<<6) == 0, "vibration"))
		switch a >> 23 & 3 {
		case 0:
			x.set("motion", true)
		case 1:
			x.set("motion", false)
		}
	case 0x00C6:
		level := r.u8()
		if level == 3 || level == 4 {
			x.set("alarm", "lowBattery")
		}
		x.set("batteryAlarm", level)
	case 0x00CE:
		x.set("power", float64(r.u16())/100)
	case 0x00D8:
		mcc, mnc, lac, cid := r.u16(), r.u8(), r.u16(), r.u32()
		x.cell(mcc, mnc, lac, cid, 0, false)
	case 0x00A8, 0x00E1:
		x.set("batteryLevel", r.u8())
	}
}

// tags reads item 0xF3 of AOVX trackers: BLE tags, each with the fields
// the mask lists.
func (x *items) tags() {
	r := x.r
	mask := r.u8()
	for i := 1; r.left() >= 7; i++ {
		x.set(fmt.Sprintf("tag%dMac", i), r.hex(6))
		x.set(fmt.Sprintf("tag%dRssi", i), r.i8())
		if mask&1 != 0 {
			x.set(fmt.Sprintf("tag%dName", i), trim(r.text(10)))
		}
		if mask&2 != 0 {
			r.skip(2) // firmware version
		}
		if mask&4 != 0 {
			x.set(fmt.Sprintf("tag%dBattery", i), float64(r.u16())/1000)
		}
		if mask&8 != 0 {
			x.set(fmt.Sprintf("tag%dTemp", i), float64(r.i16())/10)
		}
		if mask&16 != 0 {
			x.set(fmt.Sprintf("tag%dHumidity", i), float64(r.i16())/10)
		}
		r.skip(6 * (mask >> 5 & 1))           // accelerometer
		r.skip(2*(mask>>6&1) + 2*(mask>>7&1)) // reserved
	}
}

// obdList reads item 0xF3 of OBD trackers: id (2), length (1), value.
func (x *items) obdList() {
	outer := x.r
	defer func() { x.r = outer }()
	for outer.left() >= 3 {
		id, l := outer.u16(), outer.u8()
		r := &reader{b: outer.next(min(l, outer.left()))}
		x.r = r
		switch id {
		case 0x0002:
			x.set("obdSpeed", float64(r.u16())/10)
		case 0x0003:
			x.set("rpm", r.u16())
		case 0x0004:
			x.set("power", float64(r.u16())/1000)
		case 0x0005:
			x.set("obdOdometer", r.u32()*100)
		case 0x0007:
			x.set("fuelConsumption", float64(r.u16())/10)
		case 0x0008:
			x.set("engineLoad", float64(r.u16())/10)
		case 0x0009:
			x.set("coolantTemp", r.u16()-40)
		case 0x000B:
			x.set("intakePressure", r.u16())
		case 0x000C:
			x.set("intakeTemp", r.u16()-40)
		case 0x000D:
			x.set("intakeFlow", r.u16())
		case 0x000E:
			x.set("throttle", r.u16()*100/255)
		case 0x0050:
			x.set("vin", r.cstring(min(17, l)))
		case 0x0051:
			if l > 0 {
				x.set("cvn", r.hex(l))
			}
		case 0x0052:
			if calid := r.cstring(l); calid != "" {
				x.set("calid", calid)
			}
		case 0x0100:
			x.set("tripOdometer", float64(r.u16())/10)
		case 0x0102:
			x.set("tripFuel", float64(r.u16())/10)
		case 0x0112:
			x.set("hardAccelerationCount", r.u16())
		case 0x0113:
			x.set("hardDecelerationCount", r.u16())
		case 0x0114:
			x.set("hardCorneringCount", r.u16())
		}
		x.r = outer
	}
}

// environment reads item 0xF6: air pressure, an IMEI, or a sensor report
// (event, mask, then the values the mask lists).
func (x *items) environment(n int) {
	r := x.r
	aovx := aovxModels[x.model]
	switch {
	case !aovx && n == 2:
		x.set("airPressure", r.u16())
		return
	case !aovx && n == 8:
		x.set("imei", r.hex(8)[1:])
		return
	}
	event := r.u8()
	x.set("event", event)
	if event == 2 {
		x.set("motion", true)
	}
	mask := r.u8()
	if mask&1 != 0 {
		x.set("lightSensor", r.u16())
	}
	if mask&2 != 0 {
		x.set("temp1", float64(r.i16())/10)
	}
	if mask&4 != 0 {
		x.set("humidity", float64(r.i16())/10)
	}
	if mask&8 != 0 {
		a, b, c := r.i16(), r.i16(), r.i16()
		x.set("gSensor", fmt.Sprintf("[%d,%d,%d]", a, b, c))
	}
	if mask&16 != 0 {
		r.skip(10) // thresholds
	}
	if mask&32 != 0 {
		x.set("airPressure", r.u16())
	}
}

// gnss reads item 0xF9: a mask, then the values it lists.
func (x *items) gnss() {
	r := x.r
	mask := r.u16()
	r.skip(4 * (mask & 1))      // GNSS age
	r.skip(4 * (mask >> 1 & 1)) // ACC-on time
	if mask&4 != 0 {
		x.set("hdop", float64(r.u16())/10)
	}
	r.skip(6 * (mask >> 3 & 1)) // GNSS time
	r.skip(8 * (mask >> 5 & 1)) // intervals
	if mask&64 != 0 {
		x.set("temp3", float64(r.i16())/10)
	}
}

// batteryOrBehaviour reads item 0xFE: by length a battery level, the
// power, the odometer, or a driving-behaviour list (mark 0x7C).
func (x *items) batteryOrBehaviour(n int) {
	r := x.r
	switch n {
	case 1:
		x.set("batteryLevel", r.u8())
		return
	case 2:
		x.set("power", float64(r.u16())/10)
		return
	case 4:
		x.set("odometer", r.u32())
		return
	}
	if r.u8() != 0x7C {
		x.set("batteryLevel", r.u8())
		return
	}
	for r.left() >= 2 {
		id, l := r.u8(), r.u8()
		if id != 1 {
			r.skip(l)
			continue
		}
		a := r.u32()
		for bit, alarm := range []string{"hardAcceleration", "hardBraking", "hardCornering", "accident", "tampering"} {
			x.alarm(pick(a&(1<<bit) != 0, alarm))
		}
	}
}

// obdItem reads one item after 0x80, where ids name OBD values.
func (x *items) obdItem(id int) {
	r := x.r
	switch id {
	case 0x01:
		x.set("odometer", r.u32()*100)
	case 0x02:
		x.set("fuel", float64(r.u16())/10)
	case 0x03:
		x.set("obdSpeed", float64(r.u16())/10)
	case 0x56:
		r.skip(1)
		x.set("batteryLevel", r.u8())
	case 0x61:
		x.set("power", float64(r.u16())/100)
	case 0x69:
		x.set("battery", float64(r.u16())/100)
	case 0x80:
		x.set("obdSpeed", r.u8())
	case 0x81:
		x.set("rpm", r.u16())
	case 0x82:
		x.set("power", float64(r.u16())/10)
	case 0x83:
		x.set("engineLoad", r.u8())
	case 0x84:
		x.set("coolantTemp", r.u8()-40)
	case 0x85:
		x.set("fuelConsumption", r.u16())
	case 0x86:
		x.set("intakeTemp", r.u8()-40)
	case 0x87:
		x.set("intakeFlow", r.u16())
	case 0x88:
		x.set("intakePressure", r.u8())
	case 0x89:
		x.set("throttle", r.u8())
	case 0x8B:
		x.set("vin", r.text(17))
	case 0x8C:
		x.set("obdOdometer", r.u32()*100)
	case 0x8D:
		x.set("tripOdometer", r.u16()*1000)
	case 0x8E:
		x.set("fuel", r.u8())
	case 0xA0:
		x.set("dtcs", strings.ReplaceAll(r.text(r.left()), ",", " "))
	case 0xCC:
		x.set("iccid", r.text(20))
	}
}
