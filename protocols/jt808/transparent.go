package jt808

import (
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// decodeTransparent decodes 0x0900, data passed through from a peripheral
// or a vendor extension; its first byte says which.
func decodeTransparent(m *msg, res protocols.Result) (protocols.Result, error) {
	b := m.h.body
	if len(b) == 0 {
		return res, errShort
	}
	r := &reader{b: b[1:]}
	var pos *model.Position
	var err error
	switch kind := b[0]; kind {
	case 0x40: // text from a serial peripheral (GTSL: a driver card reader)
		pos = m.outdated()
		text := trim(r.text(r.left()))
		if strings.HasPrefix(text, "GTSL") {
			if fields := strings.Split(text, "|"); len(fields) > 4 {
				pos.Attributes["driverUniqueId"] = fields[4]
			}
		} else if text != "" {
			pos.Attributes["data"] = text
		}
		if len(pos.Attributes) == 0 {
			res.Reply = m.generalResponse()
			return res, nil
		}
	case 0x41: // an "$OBD-RT" line
		pos = m.outdated()
		x := &items{pos: pos, r: r}
		x.obdRealTime(trim(r.text(r.left())))
	case 0xF0:
		pos, err = m.vehicleData(r)
	case 0xFF:
		pos, err = m.plainFix(r)
	case 0xF3:
		pos = m.outdated()
		for r.left() > 4 {
			id, n := r.u16(), r.u16()
			x := &items{pos: pos, r: &reader{b: r.next(min(n, r.left()))}}
			switch id {
			case 0x0002:
				x.set("collision", float64(x.r.u16())/256/100)
			case 0x0006:
				if t, err := bcdTime(x.r.next(6)); err == nil {
					pos.FixTime, pos.DeviceTime = t, t
				}
			}
		}
	case 0x53, 0x54:
		pos, err = m.beacons(r, kind)
	default:
		res.Unsupported = fmt.Sprintf("transparent data type 0x%02X not decoded", kind)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	if pos == nil {
		res.Unsupported = "transparent vehicle data of a sub-type not decoded"
		return res, nil
	}
	return m.stored(res, pos)
}

// vehicleData reads transparent type 0xF0: time, archive flag, vehicle
// type, then a sub-type (engine values, trouble codes, alarms, a trip,
// the VIN, an event). Sub-types 1 to 3 end with a status word and
// coordinates. It returns nil for a sub-type it does not know.
func (m *msg) vehicleData(r *reader) (*model.Position, error) {
	t, err := bcdTime(r.next(6))
	if err != nil {
		return nil, err
	}
	pos := m.outdated()
	pos.FixTime, pos.DeviceTime = t, t
	x := &items{pos: pos, r: r}
	if r.u8() > 0 {
		pos.Attributes["archive"] = true
	}
	r.skip(1) // vehicle type
	switch sub := r.u8(); sub {
	case 0x01:
		for count := r.u8(); count > 0 && r.left() >= 3; count-- {
			id, n := r.u16(), r.u8()
			x.r = &reader{b: r.next(min(n, r.left()))}
			x.engineValue(id, n)
		}
	case 0x02:
		var codes []string
		for systems := r.u16(); systems > 0 && !r.fail; systems-- {
			r.skip(4) // system id
			for n := r.u16(); n > 0 && !r.fail; n-- {
				r.skip(8) // code and status
				codes = append(codes, trim(r.text(r.u16())))
			}
		}
		x.set("dtcs", strings.Join(codes, " "))
	case 0x03:
		for count := r.u8(); count > 0 && r.left() >= 2; count-- {
			id, n := r.u8(), r.u8()
			x.alarm(vehicleAlarms[id])
			r.skip(n)
		}
	case 0x04:
		trip := r.u8()
		x.set("tripNumber", r.u32())
		r.skip(6) // start time
		if trip == 0x02 {
			r.skip(6 + 8 + 8 + 1) // end time, start and end places, flags
			x.set("idlingCount", r.u16())
			x.set("idlingTime", r.u16())
			x.set("tripOdometer", r.u16()*100)
			x.set("tripFuel", float64(r.u16())/100)
		}
		return pos, nil
	case 0x0B:
		if r.u8() > 0 {
			x.set("vin", r.text(17))
		}
		return pos, nil
	case 0x15:
		event := int(int32(r.u32()))
		if a := map[int]string{51: "hardAcceleration", 52: "hardBraking", 53: "hardCornering", 54: "laneChange", 56: "accident"}[event]; a != "" {
			x.alarm(a)
		} else {
			x.set("event", event)
		}
		return pos, nil
	default:
		return nil, nil
	}
	x.r = r
	if r.left() < 12 {
		return nil, fmt.Errorf("jt808: vehicle data without its coordinates")
	}
	m.coordinates(r, pos)
	pos.Outdated, pos.FixTime = false, t
	return pos, protocols.CheckFix(pos)
}

// vehicleAlarms maps the alarm ids of transparent sub-type 3.
var vehicleAlarms = map[int]string{
	0x01: "powerRestored", 0x02: "powerCut", 0x0E: "idle",
	0x1A: "hardAcceleration", 0x1B: "hardBraking", 0x1C: "hardCornering",
	0x1D: "laneChange", 0x1E: "laneChange", 0x1F: "laneChange",
	0x23: "fatigueDriving", 0x25: "overspeed",
	0x26: "accident", 0x27: "accident", 0x28: "accident",
	0x31: "door", 0x32: "door",
}

// engineValue reads one engine value of transparent sub-type 1; an id not
// listed is kept as io<id> when it is 1, 2 or 4 bytes long.
func (x *items) engineValue(id, n int) {
	r := x.r
	switch id {
	case 0x0102, 0x0528, 0x0546:
		x.set("odometer", r.u32()*100)
	case 0x0103:
		x.set("fuel", float64(r.u32())/100)
	case 0x0111:
		x.set("fuelTemp", r.u8()-40)
	case 0x012E:
		x.set("oilLevel", float64(r.u16())/10)
	case 0x052A:
		x.set("fuel", float64(r.u16())/100)
	case 0x0105, 0x052C:
		x.set("fuelUsed", float64(r.u32())/100)
	case 0x014A, 0x0537, 0x0538, 0x0539:
		x.set("fuelConsumption", float64(r.u16())/100)
	case 0x052B:
		x.set("fuel", r.u8())
	case 0x052D:
		x.set("coolantTemp", r.u8()-40)
	case 0x052E:
		x.set("airTemp", r.u8()-40)
	case 0x0530:
		x.set("power", float64(r.u16())/1000)
	case 0x0535:
		x.set("obdSpeed", float64(r.u16())/10)
	case 0x0536:
		x.set("rpm", r.u16())
	case 0x053D:
		x.set("intakePressure", float64(r.u16())/10)
	case 0x0544:
		x.set("liquidLevel", r.u8())
	case 0x0547, 0x0548:
		x.set("throttle", r.u8())
	case 0xFEEC:
		x.set("vin", r.text(n))
	default:
		if n == 1 || n == 2 || n == 4 {
			x.set(fmt.Sprintf("io%d", id), r.uint(n))
		}
	}
}

// plainFix reads transparent type 0xFF: time, signed coordinates,
// altitude, speed and course.
func (m *msg) plainFix(r *reader) (*model.Position, error) {
	t, err := bcdTime(r.next(6))
	if err != nil {
		return nil, err
	}
	lat, lon := int32(r.u32()), int32(r.u32())
	alt, speed, course := r.i16(), r.u16(), r.u16()
	if r.fail {
		return nil, errShort
	}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}, Valid: true, FixTime: t, DeviceTime: t,
		Latitude: float64(lat) / 1e6, Longitude: float64(lon) / 1e6, Altitude: float64(alt),
		Speed: float64(speed) / 10 * kphToKnots, Course: float64(course)}
	return pos, protocols.CheckFix(pos)
}

// beacons reads transparent types 0x53 (BLE tags) and 0x54 (sensor
// samples): a location as in 0x0200, then the records.
func (m *msg) beacons(r *reader, kind byte) (*model.Position, error) {
	if r.left() < 24 {
		return nil, errShort
	}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	m.coordinates(r, pos)
	pos.Altitude = float64(r.i16())
	pos.Speed = float64(r.u16()) / 10 * kphToKnots
	pos.Course = float64(r.u16())
	t, err := bcdTime(r.next(6))
	if err != nil {
		return nil, err
	}
	pos.FixTime, pos.DeviceTime = t, t
	x := &items{pos: pos, r: r}
	if kind == 0x53 {
		r.skip(1) // nodes in all packets
		for r.left() >= 8 {
			i := r.u8() + 1
			x.set(fmt.Sprintf("tag%dMac", i), r.hex(6))
			x.set(fmt.Sprintf("tag%dRssi", i), r.i8())
			x.set(fmt.Sprintf("tag%dData", i), r.hex(r.u8()))
		}
		return pos, protocols.CheckFix(pos)
	}
	for r.left() >= 8 {
		mask := r.u16()
		r.skip(6) // sample time
		if mask&1 != 0 {
			x.set("lightSensor", r.u16())
		}
		if mask&2 != 0 {
			x.set("deviceTemp", float64(r.i16())/10)
			x.set("humidity", float64(r.i16())/10)
		}
		if mask&4 != 0 {
			x.set("temp3", float64(r.i16())/10)
		}
		r.skip(6 * (mask >> 3 & 1)) // acceleration
		if mask&16 != 0 {
			x.set("airPressure", r.u16())
		}
	}
	return pos, protocols.CheckFix(pos)
}
