package jt808

import (
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Device models whose frames Traccar reads differently; the operator sets
// the device's model to one of them.
var (
	padlockModels = map[string]bool{"G-360P": true, "G-508P": true}
	aovxModels    = map[string]bool{"AL300": true, "GL100": true}
	jcModels      = map[string]bool{"JC371": true, "JC181": true, "JC182": true, "JC450": true, "JC451": true}
	doorModels    = map[string]bool{"MV810G": true, "MV710G": true}
)

// decodeLocationMessage decodes 0x0200, the location report.
func decodeLocationMessage(m *msg, res protocols.Result) (protocols.Result, error) {
	pos, err := m.location(m.h.body)
	if err != nil {
		return res, err
	}
	return m.stored(res, pos)
}

// decodeBatch decodes 0x0704 (count, type, then length-prefixed location
// bodies) and 0x0210 (one-byte lengths; a 7-byte body is instead a battery
// level and a time).
func decodeBatch(m *msg, res protocols.Result) (protocols.Result, error) {
	r := &reader{b: m.h.body}
	if m.h.typ == msgBatchShort && len(m.h.body) == 7 {
		pos := m.outdated()
		pos.Attributes["batteryLevel"] = r.u8()
		t, err := bcdTime(r.next(6))
		if err != nil {
			return res, err
		}
		pos.FixTime, pos.DeviceTime = t, t
		return m.stored(res, pos)
	}
	archive, lenSize := false, 1
	if m.h.typ == msgBatch {
		r.skip(2) // count
		archive, lenSize = r.u8() != 0, 2
	}
	var positions []*model.Position
	for r.left() > lenSize {
		body := r.next(int(r.uint(lenSize)))
		if r.fail {
			return res, fmt.Errorf("jt808: batch item runs past the frame")
		}
		pos, err := m.location(body)
		if err != nil {
			return res, err
		}
		if archive {
			pos.Attributes["archive"] = true // a blind-area resend
		}
		positions = append(positions, pos)
	}
	if len(positions) == 0 {
		return res, fmt.Errorf("jt808: empty batch")
	}
	return m.stored(res, positions...)
}

// location reads a location body: alarm flags, status, coordinates,
// altitude, speed, course, time, then the additional-information items.
func (m *msg) location(body []byte) (*model.Position, error) {
	if len(body) < 28 {
		return nil, fmt.Errorf("jt808: location body of %d bytes", len(body))
	}
	r := &reader{b: body}
	pos := &model.Position{Protocol: Name, Attributes: model.Attributes{}}
	alarms := r.u32()
	m.coordinates(r, pos)
	pos.Altitude = float64(r.i16())
	pos.Speed = float64(r.u16()) / 10 * kphToKnots
	pos.Course = float64(r.u16())
	if t, err := bcdTime(r.next(6)); err == nil {
		pos.FixTime, pos.DeviceTime = t, t
	} else {
		// Terminals without a fix yet send a zero time: the status and
		// alarms stand, at the last known place.
		pos.Outdated, pos.Valid = true, false
		pos.Latitude, pos.Longitude, pos.Altitude, pos.Speed, pos.Course = 0, 0, 0, 0, 0
	}
	m.alarmFlags(pos, alarms)
	x := &items{pos: pos, model: m.model}
	if r.left() == 18 && !chained(r.b) {
		x.fixedTail(r.b)
	} else {
		x.read(r.b)
	}
	x.finish()
	return pos, protocols.CheckFix(pos)
}

// coordinates reads the status word and the coordinates it signs.
func (m *msg) coordinates(r *reader, pos *model.Position) {
	status := r.u32()
	pos.Attributes["ignition"] = status&1 != 0
	if m.model == "G1C Pro" {
		pos.Attributes["motion"] = status&(1<<4) != 0
	}
	pos.Attributes["blocked"] = status&(1<<10) != 0 // oil/circuit cut
	if doorModels[m.model] {
		pos.Attributes["door"] = status&(1<<16) != 0
	}
	pos.Attributes["charge"] = status&(1<<26) != 0
	pos.Valid = status&(1<<1) != 0
	pos.Latitude = float64(r.u32()) / 1e6
	pos.Longitude = float64(r.u32()) / 1e6
	if status&(1<<2) != 0 {
		pos.Latitude = -pos.Latitude
	}
	if status&(1<<3) != 0 {
		pos.Longitude = -pos.Longitude
	}
}

// alarmBits maps the standard alarm flags to Traccar's alarms.
var alarmBits = []struct {
	bits  uint32
	alarm string
}{
	{1 << 0, "sos"},
	{1 << 1, "overspeed"},
	{1 << 2, "fatigueDriving"},
	{1<<5 | 1<<6, "gpsAntennaCut"},
	{1<<4 | 1<<9 | 1<<10 | 1<<11, "fault"},
	{1<<7 | 1<<18, "lowBattery"},
	{1 << 8, "powerOff"},
	{1 << 15, "vibration"},
	{1<<16 | 1<<17, "tampering"},
	{1 << 19, "parking"},
	{1 << 20, "geofence"},
	{1 << 26, "general"},
	{1 << 28, "movement"},
	{1<<29 | 1<<30, "accident"},
}

// alarmFlags reads the alarm word; padlocks and AOVX trackers use their
// own bits, and the VL300 sets 29/30 for something else than a crash.
func (m *msg) alarmFlags(pos *model.Position, v int64) {
	flags := uint32(v)
	switch {
	case padlockModels[m.model]:
		if flags&(1<<0|1<<4) != 0 {
			addAlarm(pos, "removing")
		}
		if flags&(1<<1) != 0 {
			addAlarm(pos, "tampering")
		}
	case aovxModels[m.model]:
		if flags&(1<<16) != 0 {
			addAlarm(pos, "movement")
		}
	default:
		for _, a := range alarmBits {
			if flags&a.bits != 0 && !(a.alarm == "accident" && m.model == "VL300") {
				addAlarm(pos, a.alarm)
			}
		}
	}
}

// addAlarm appends an alarm the way Traccar does: several are comma-joined.
func addAlarm(p *model.Position, alarm string) {
	if old, ok := p.Attributes["alarm"].(string); ok && old != "" {
		if strings.Contains(","+old+",", ","+alarm+",") {
			return
		}
		alarm = old + "," + alarm
	}
	p.Attributes["alarm"] = alarm
}

// chained reports whether b is exactly a run of id, length, value items.
func chained(b []byte) bool {
	for len(b) >= 2 {
		n := 2 + int(b[1])
		if n > len(b) {
			return false
		}
		b = b[n:]
	}
	return len(b) == 0
}
