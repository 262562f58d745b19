package jt808

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// decodeAttributes decodes 0x0107, the terminal attributes: the SIM's
// ICCID is kept.
func decodeAttributes(m *msg, res protocols.Result) (protocols.Result, error) {
	r := &reader{b: m.h.body}
	if m.h.version >= 0 {
		r.skip(2 + 11 + 30 + 30) // type, maker, model, terminal id (2019 widths)
	} else {
		r.skip(2 + 5 + 20 + 7)
	}
	iccid := r.hex(10)
	if r.fail {
		return res, fmt.Errorf("jt808: attributes body of %d bytes", len(m.h.body))
	}
	pos := m.outdated()
	pos.Attributes["iccid"] = iccid
	return m.stored(res, pos)
}

// decodeTextReport decodes 0x6006, a text the terminal reports (answers
// to text commands): an encoding byte, then the text.
func decodeTextReport(m *msg, res protocols.Result) (protocols.Result, error) {
	if len(m.h.body) < 2 {
		return res, errShort
	}
	res.CommandResult = strings.ToValidUTF8(string(m.h.body[1:]), "?")
	res.Ack = m.generalResponse()
	return res, nil
}

// decodeTextResponse decodes 0x1300: the serial answered, then UTF-16 text.
func decodeTextResponse(m *msg, res protocols.Result) (protocols.Result, error) {
	b := m.h.body
	if len(b) < 4 {
		return res, errShort
	}
	units := make([]uint16, (len(b)-2)/2)
	for i := range units {
		units[i] = uint16(b[2+2*i])<<8 | uint16(b[3+2*i])
	}
	res.CommandResult = trim(string(utf16.Decode(units)))
	res.Ack = m.generalResponse()
	return res, nil
}

// decodeCommandResponse decodes 0x0701 as the vendors use it for command
// answers: a 4-byte length, then ASCII text.
func decodeCommandResponse(m *msg, res protocols.Result) (protocols.Result, error) {
	r := &reader{b: m.h.body}
	text := r.text(int(r.u32()))
	if r.fail || text == "" {
		return res, fmt.Errorf("jt808: command answer length does not match")
	}
	res.CommandResult = text
	res.Ack = m.generalResponse()
	return res, nil
}

// decodeDriverIdentity decodes 0x0702, a driver card read or removed:
// status, time, then (on insertion) result, name, card number, issuer
// and validity.
func decodeDriverIdentity(m *msg, res protocols.Result) (protocols.Result, error) {
	pos := m.outdated()
	r := &reader{b: m.h.body}
	x := &items{pos: pos, r: r}
	x.set("cardStatus", r.u8())
	t, err := bcdTime(r.next(6))
	if r.fail || err != nil {
		return res, fmt.Errorf("jt808: driver identity without a time")
	}
	pos.FixTime, pos.DeviceTime = t, t
	if r.left() > 0 {
		x.set("cardResult", r.u8())
		x.set("driver", r.text(r.u8()))
		x.set("cardCode", trim(r.text(20)))
		x.set("cardAgency", r.text(r.u8()))
		x.set("cardValidity", r.hex(4))
	}
	return m.stored(res, pos)
}

// decodeAcceleration decodes 0x2070, accelerometer samples: time (6),
// then x, y, z with a sign bit each.
func decodeAcceleration(m *msg, res protocols.Result) (protocols.Result, error) {
	r := &reader{b: m.h.body}
	var samples []string
	for r.left() >= 12 {
		r.skip(6)
		a, b, c := signMagnitude(r.u16()), signMagnitude(r.u16()), signMagnitude(r.u16())
		samples = append(samples, fmt.Sprintf("[%d,%d,%d]", int(a), int(b), int(c)))
	}
	if len(samples) == 0 {
		return res, errShort
	}
	pos := m.outdated()
	pos.Attributes["gSensor"] = "[" + strings.Join(samples, ",") + "]"
	return m.stored(res, pos)
}

// decodeLocation2 decodes 0x5501 (location) and 0x5502 (blind-area
// location) of JT701-style locks: a JT600 binary fix, then status,
// then id, length, value items. They are answered (0x4401) only when the
// attributes ask for it.
func decodeLocation2(m *msg, res protocols.Result) (protocols.Result, error) {
	b := m.h.body
	if len(b) < 35 {
		return res, errShort
	}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	t, err := jt600Time(b[:6])
	if err != nil {
		return res, err
	}
	pos.FixTime, pos.DeviceTime = t, t
	lat, lon := bcdDigits(b[6:10], 8), bcdDigits(b[10:15], 9)
	flags := b[14]
	pos.Latitude, pos.Longitude = degreesMinutes(lat), degreesMinutes(lon)
	if flags&2 == 0 {
		pos.Latitude = -pos.Latitude
	}
	if flags&4 == 0 {
		pos.Longitude = -pos.Longitude
	}
	pos.Valid = m.h.typ == msgLocation2
	pos.Speed = float64(bcdDigits(b[15:16], 2)) // knots, as Traccar reads it
	pos.Course = float64(b[16]) * 2
	r := &reader{b: b[17:]}
	x := &items{pos: pos, r: r}
	x.set("rssi", r.u8())
	x.set("sat", r.u8())
	x.set("odometer", r.u32()*1000)
	switch battery := r.u8(); {
	case battery <= 100:
		x.set("batteryLevel", battery)
	case battery == 0xAA || battery == 0xAB:
		x.set("charge", true)
	}
	r.skip(6) // cell id and area: without the country and network, of no use
	product, status, alarm := r.u8(), r.u16(), r.u16()
	lockAlarms(pos, product, status, alarm)
	pos.Attributes["status"] = status
	for r.left() >= 2 {
		id, n := r.u8(), r.u8()
		x.r = &reader{b: r.next(min(n, r.left()))}
		switch id {
		case 0x02:
			if v := x.r.i16(); !x.r.fail {
				pos.Altitude = float64(v)
			}
		case 0x10:
			x.set("wakeSource", x.r.u8())
		case 0x0B:
			x.lock(n)
		case 0x0C:
			a, b, c := tilt(x.r.u16()), tilt(x.r.u16()), tilt(x.r.u16())
			x.set("tilt", fmt.Sprintf("[%d,%d,%d]", a, b, c))
		case 0xFC:
			x.set("geofence", x.r.u8())
		}
	}
	if err := protocols.CheckFix(pos); err != nil {
		return res, err
	}
	res.Positions = []*model.Position{pos}
	if m.h.attr&attrAnswer != 0 {
		res.Ack = message(msgGeneralResponse2, m.h.version, m.h.terminal, true, []byte{byte(m.h.typ >> 8), byte(m.h.typ), 0})
	}
	return res, nil
}

// tilt reads an axis of item 0x0C: two's complement, but 0x8000 itself
// counts as positive (Traccar's reading).
func tilt(v int) int {
	if v > 0x8000 {
		return v - 0x10000
	}
	return v
}

// lockAlarms reads the alarm word of 0x5501 by product: 1 and 2 are
// padlocks, 3 a container lock.
func lockAlarms(pos *model.Position, product, status, alarm int) {
	switch product {
	case 1, 2:
		if alarm&1 != 0 {
			addAlarm(pos, "lowPower")
		}
	case 3:
		pos.Attributes["blocked"] = status&(1<<5) != 0
		for bit, a := range map[int]string{0: "overspeed", 1: "lowPower", 2: "vibration", 3: "lowBattery", 5: "geofenceEnter", 6: "geofenceExit"} {
			if alarm&(1<<bit) != 0 {
				addAlarm(pos, a)
			}
		}
	}
}

// jt600Time reads a BCD ddMMyy HHmmss time in UTC.
func jt600Time(b []byte) (time.Time, error) {
	return bcdClock([]byte{b[2], b[1], b[0], b[3], b[4], b[5]}, time.UTC)
}

// bcdDigits reads the first n BCD digits of b (a digit above 9 counts as
// its value, as Traccar reads them).
func bcdDigits(b []byte, n int) int {
	v := 0
	for i := 0; i < n; i++ {
		d := b[i/2] >> 4
		if i%2 == 1 {
			d = b[i/2] & 0x0F
		}
		v = v*10 + int(d)
	}
	return v
}

// degreesMinutes converts ddd mm.mmmm, written as a whole number with four
// decimals of minutes, to degrees.
func degreesMinutes(v int) float64 {
	return float64(v/1000000) + float64(v%1000000)/10000/60
}
