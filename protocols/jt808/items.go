package jt808

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// items reads the additional-information items that follow a location:
// id (1), length (1), value. Values are read within their item: a field
// the item is too short for is left out (set drops it), never read from
// the next item.
type items struct {
	pos   *model.Position
	model string
	r     *reader // the current item's value
	cells []map[string]any
	wifi  []map[string]any
	// obd: after item 0x80 the rest are OBD items, with their own ids.
	obd bool
}

// set stores a value read from the current item, unless reading it ran
// past the item.
func (x *items) set(key string, v any) {
	if !x.r.fail {
		x.pos.Attributes[key] = v
	}
}

// alarm adds an alarm read from the current item.
func (x *items) alarm(a string) {
	if !x.r.fail && a != "" {
		addAlarm(x.pos, a)
	}
}

func (x *items) cell(mcc, mnc, lac int, cid int64, rssi int, withRSSI bool) {
	if x.r.fail {
		return
	}
	c := map[string]any{"mobileCountryCode": mcc, "mobileNetworkCode": mnc, "locationAreaCode": lac, "cellId": cid}
	if withRSSI {
		c["signalStrength"] = rssi
	}
	x.cells = append(x.cells, c)
}

func (x *items) accessPoint(mac string, rssi int) {
	if !x.r.fail {
		x.wifi = append(x.wifi, map[string]any{"macAddress": mac, "signalStrength": rssi})
	}
}

// read decodes a run of items.
func (x *items) read(b []byte) {
	r := &reader{b: b}
	for r.left() >= 2 {
		id, n := r.u8(), r.u8()
		value := r.next(min(n, r.left()))
		x.r = &reader{b: value}
		switch {
		case x.obd:
			x.obdItem(id)
		case id == 0x80:
			x.obd = true // its own value (one byte) is not used
		default:
			x.item(id, len(value))
		}
	}
}

// finish stores the cells and access points the items listed.
func (x *items) finish() {
	if n := protocols.Network(x.cells, x.wifi); n != nil {
		x.pos.Network = n
	}
}

// fixedTail reads the 18 bytes some terminals append instead of items:
// battery and mileage left (4), odometer in km (4), battery (2, 0.1 V),
// area id (4), signal (1), reserved (3).
func (x *items) fixedTail(b []byte) {
	x.r = &reader{b: b}
	r := x.r
	r.skip(4)
	x.set("odometer", r.u32()*1000)
	x.set("battery", float64(r.u16())/10)
	r.skip(4)
	x.set("rssi", r.u8())
}

// item decodes one additional-information item of length n.
func (x *items) item(id, n int) {
	r := x.r
	switch id {
	case 0x01:
		x.set("odometer", r.u32()*100) // 0.1 km
	case 0x02:
		if v := r.u16(); v&0x8000 != 0 {
			x.set("fuel", v&0x7FFF) // a percentage
		} else {
			x.set("fuel", float64(v)/10) // litres
		}
	case 0x06:
		x.set("batteryLevel", r.u8())
	case 0x0B:
		x.lock(n)
	case 0x14:
		x.set("videoAlarm", r.u32())
	case 0x25:
		x.set("input", r.u32())
	case 0x2B, 0xA7:
		x.set("adc1", float64(r.u16())/100)
		x.set("adc2", float64(r.u16())/100)
	case 0x30:
		x.set("rssi", r.u8())
	case 0x31:
		x.set("sat", r.u8())
	case 0x33:
		if n == 1 {
			x.set("mode", r.u8())
		} else if s := r.text(n); strings.HasPrefix(s, "*M00") && len(s) >= 13 {
			if v, err := strconv.Atoi(s[10:13]); err == nil {
				x.set("battery", float64(v)/100) // a lock's status text
			}
		}
	case 0x51:
		if n == 2 || n == 16 {
			for i := 1; i <= n/2; i++ {
				if v := r.u16(); v != 0xFFFF {
					x.set(fmt.Sprintf("temp%d", i), signMagnitude(v)/10)
				}
			}
		}
	case 0x56:
		x.set("batteryLevel", r.u8()*10)
	case 0x57:
		a := r.u16()
		x.alarm(pick(a&(1<<8) != 0, "hardAcceleration"))
		x.alarm(pick(a&(1<<9) != 0, "hardBraking"))
		x.alarm(pick(a&(1<<10) != 0, "hardCornering"))
		r.skip(2) // external switches
		if b := r.u32(); doorModels[x.model] {
			x.alarm(pick(b&(1<<16) != 0, "door"))
		}
	case 0x60:
		event := r.u16()
		x.set("event", event)
		if event >= 0x61 && event <= 0x66 {
			r.skip(6) // lock id
			x.set("driverUniqueId", r.text(8))
		}
	case 0x63:
		for i := 1; i <= n/11; i++ {
			x.set(fmt.Sprintf("lock%dId", i), r.hex(6))
			x.set(fmt.Sprintf("lock%dBattery", i), float64(r.u16())/1000)
			x.set(fmt.Sprintf("lock%dSeal", i), r.u8() == 0x31)
			r.skip(2) // physical state, signal
		}
	case 0x64, 0x65:
		r.skip(5) // alarm serial and status
		key := "adasAlarm"
		if id == 0x65 {
			key = "dmsAlarm"
		}
		x.set(key, r.u8())
		if n >= 47 {
			r.skip(r.left() - 16)
			x.set("alarmLabel", r.hex(16))
		}
	case 0x67:
		x.set("password", r.text(8))
	case 0x68:
		x.set("batteryLevel", float64(r.u16())/100)
	case 0x69:
		x.set("battery", float64(r.u16())/100)
	case 0x70:
		r.skip(5) // alarm serial and status
		x.alarm(map[int]string{1: "hardAcceleration", 2: "hardBraking", 3: "hardCornering", 0x16: "accident"}[r.u8()])
	case 0x77:
		for r.left() >= 8 {
			tire := r.u8()
			x.set(fmt.Sprintf("tire%dSensorId", tire), r.hex(3))
			x.set(fmt.Sprintf("tire%dPressure", tire), float64(r.u16()&0x3FF)/40)
			x.set(fmt.Sprintf("tire%dTemp", tire), r.u8()-50)
			x.set(fmt.Sprintf("tire%dStatus", tire), r.u8())
		}
	case 0x82:
		x.set("power", float64(r.u16())/10)
	case 0x91:
		x.obdBlock()
	case 0x94:
		if n > 0 {
			x.set("vin", r.text(n))
		}
	case 0xAC:
		x.set("odometer", r.u32())
	case 0xBC:
		x.set("driver", trim(r.text(n)))
	case 0xBD:
		x.set("driverUniqueId", r.text(n))
	case 0xD0:
		x.alarm(pick(r.u32()&(1<<3) != 0, "vibration"))
	case 0xD3:
		x.set("power", float64(r.u16())/10)
	case 0xD4, 0xE1, 0xE9:
		x.batteryOrCells(id, n)
	case 0xD5:
		x.locks(n)
	case 0xDA:
		r.skip(2) // string cut count
		s := r.u8()
		x.set("string", s&1 != 0)
		x.set("motion", s&(1<<2) != 0)
		x.set("cover", s&(1<<3) != 0)
	case 0xE2:
		if x.model != "DT800" {
			x.set("fuel", float64(r.u32())/10)
		}
	case 0xE3:
		r.skip(1)
		x.set("batteryLevel", r.u8())
		x.set("battery", float64(r.u16())/100)
	case 0xE4:
		if r.u8() == 0 {
			x.set("charge", true)
		}
		x.set("batteryLevel", r.u8())
	case 0xE5:
		if n == 1 {
			x.set("motion", r.u8() == 1)
		}
	case 0xE6:
		x.sensors(n)
	case 0xE7:
		if n == 8 {
			a := r.u16()
			x.alarm(pick(a&1 != 0, "vibration"))
			x.alarm(pick(a&0b1110 != 0, "sos"))
		}
	case 0xE8:
		if jcModels[x.model] {
			x.jimi()
		} else {
			x.set("lockStatus", r.u24())
		}
	case 0xEA:
		x.external(n)
	case 0xEB:
		x.extended(n)
	case 0xEC, 0xF4:
		for r.left() >= 7 {
			mac := r.next(6)
			x.accessPoint(macText(mac), r.i8())
		}
	case 0xED:
		x.set("card", trim(r.text(n)))
	case 0xEE:
		if n == 6 {
			x.set("rssi", r.u8())
			x.set("power", float64(r.u16())/1000)
			x.set("battery", float64(r.u16())/1000)
			x.set("sat", r.u8())
		}
	case 0xF0:
		for r.left() >= 13 {
			mcc, mnc, cid, lac := r.u16(), r.u16(), r.u32(), r.u32()
			x.cell(mcc, mnc, int(lac), cid, r.u8(), true)
		}
	case 0xF1:
		x.set("power", float64(r.u32())/1000)
	case 0xF2:
		x.set("versionFw", r.text(n))
	case 0xF3:
		if aovxModels[x.model] {
			x.tags()
		} else {
			x.obdList()
		}
	case 0xF5:
		if n == 2 {
			x.set("illuminance", r.u16())
		}
	case 0xF6:
		x.environment(n)
	case 0xF7:
		if n == 2 {
			x.set("humidity", float64(r.u16())/10)
			break
		}
		x.set("battery", float64(r.u32())/1000)
		if n >= 5 {
			if s := r.u8(); s == 2 || s == 3 {
				x.set("charge", true)
			}
		}
		if n >= 6 {
			x.set("batteryLevel", r.u8())
		}
	case 0xF8:
		switch {
		case aovxModels[x.model]:
			r.skip(9) // working mode, IMEI
			x.set("iccid", r.hex(10))
		case x.model == "C5" || x.model == "C5L":
			x.set("steps", r.u16())
		default:
			x.set("temp2", float64(r.u16())/10-50)
		}
	case 0xF9:
		x.gnss()
	case 0xFB:
		x.set("container", r.text(n))
	case 0xFC:
		x.set("geofence", r.u8())
	case 0xFE:
		x.batteryOrBehaviour(n)
	}
}

// pick is a when true, else "" (no alarm).
func pick(ok bool, a string) string {
	if ok {
		return a
	}
	return ""
}

// signMagnitude reads a 16-bit value whose top bit is the sign.
func signMagnitude(v int) float64 {
	if v&0x8000 != 0 {
		return -float64(v & 0x7FFF)
	}
	return float64(v)
}

// macText formats 6 bytes as a colon-separated MAC address.
func macText(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("%02x", c)
	}
	return strings.Join(parts, ":")
}
