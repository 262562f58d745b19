package ruptela

import (
	"encoding/hex"
	"strconv"

	"github.com/fleetd/fleetd/app/model"
)

// readIO reads the four IO groups of a record: for values of 1, 2, 4 and 8
// bytes, a count and then id/value pairs (ids of 1 byte, 2 in extended
// records).
func readIO(r *reader, p *model.Position, extended bool) {
	for _, width := range [...]int{1, 2, 4, 8} {
		for range r.u8() {
			var id int
			if extended {
				id = r.u16()
			} else {
				id = r.u8()
			}
			raw := r.take(width)
			if r.failed {
				return
			}
			setIO(p, id, raw)
		}
	}
}

// ioKind is how an IO element becomes an attribute.
type ioKind int

const (
	ioInt    ioKind = iota // the unsigned value, scaled
	ioSigned               // the signed value, scaled
	ioFlag                 // true when not zero
	ioAlarm                // alarm when the value is not zero
	ioAlarm0               // alarm when the value is zero
	ioAlarm1               // alarm when the value is one
	ioHex                  // the raw bytes in hex
)

type ioElement struct {
	key  string // attribute name, or the alarm for the alarm kinds
	kind ioKind
	mul  int64   // factor of a whole-number attribute (0: 1)
	div  float64 // divisor of a fractional attribute (0: none)
	frac float64 // factor of a fractional attribute (0: none)
}

// ioElements are the FM-series IO ids Traccar names (Ruptela "IO
// parameters" list); any other id is kept as io<id>, a whole number.
var ioElements = map[int]ioElement{
	2: {key: "in1"}, 3: {key: "in2"}, 4: {key: "in3"}, 5: {key: "in4"},
	13: {key: "motion", kind: ioFlag}, 173: {key: "motion", kind: ioFlag},
	20: {key: "adc3"}, 21: {key: "adc4"}, 22: {key: "adc1"}, 23: {key: "adc2"},
	29:  {key: "power", div: 1000},
	30:  {key: "battery", div: 1000},
	32:  {key: "deviceTemp", kind: ioSigned},
	34:  {key: "driverUniqueId", kind: ioHex},
	39:  {key: "engineLoad"},
	65:  {key: "odometer"},
	74:  {key: "temp3", kind: ioSigned, div: 10},
	78:  {key: "temp0", kind: ioSigned, div: 10},
	79:  {key: "temp1", kind: ioSigned, div: 10},
	80:  {key: "temp2", kind: ioSigned, div: 10},
	88:  {key: "jamming", kind: ioAlarm},
	94:  {key: "rpm", div: 4},
	95:  {key: "obdSpeed"},
	98:  {key: "fuel", mul: 100, div: 255},
	100: {key: "fuelConsumption", div: 20},
	134: {key: "hardBraking", kind: ioAlarm},
	136: {key: "hardAcceleration", kind: ioAlarm},
	150: {key: "operator"},
	163: {key: "odometer", mul: 5}, 164: {key: "tripOdometer", mul: 5},
	165: {key: "obdSpeed", div: 256},
	166: {key: "rpm", div: 1025}, 197: {key: "rpm", div: 1025},
	170: {key: "charge", kind: ioFlag},
	205: {key: "fuel"},
	207: {key: "fuelLevel", frac: 0.4},
	208: {key: "fuelUsed", div: 2},
	251: {key: "ignition", kind: ioFlag}, 409: {key: "ignition", kind: ioFlag},
	410: {key: "tow", kind: ioAlarm},
	411: {key: "accident", kind: ioAlarm},
	415: {key: "gpsAntennaCut", kind: ioAlarm0},
	645: {key: "obdOdometer", mul: 1000},
	758: {key: "tampering", kind: ioAlarm1},
}

// setIO stores one IO element's raw big-endian value on p.
func setIO(p *model.Position, id int, raw []byte) {
	var v uint64
	for _, b := range raw {
		v = v<<8 | uint64(b)
	}
	el, ok := ioElements[id]
	if !ok {
		p.Attributes["io"+strconv.Itoa(id)] = int64(v)
		return
	}
	switch el.kind {
	case ioInt:
		p.Attributes[el.key] = el.scaled(int64(v))
	case ioSigned:
		shift := 64 - 8*len(raw)
		p.Attributes[el.key] = el.scaled(int64(v<<shift) >> shift)
	case ioFlag:
		p.Attributes[el.key] = v != 0
	case ioAlarm, ioAlarm0, ioAlarm1:
		if el.kind == ioAlarm && v != 0 || el.kind == ioAlarm0 && v == 0 || el.kind == ioAlarm1 && v == 1 {
			addAlarm(p, el.key)
		}
	case ioHex:
		p.Attributes[el.key] = hex.EncodeToString(raw)
	}
}

// scaled is v times mul, then divided by div or times frac as a float, the
// way Traccar computes each (so the floats match its to the last bit).
func (el ioElement) scaled(v int64) any {
	if el.mul != 0 {
		v *= el.mul
	}
	switch {
	case el.div != 0:
		return float64(v) / el.div
	case el.frac != 0:
		return float64(v) * el.frac
	}
	return v
}

// addAlarm appends an alarm; several are comma-joined, as Traccar does.
func addAlarm(p *model.Position, alarm string) {
	if old, ok := p.Attributes["alarm"].(string); ok && old != "" {
		alarm = old + "," + alarm
	}
	p.Attributes["alarm"] = alarm
}

// finishIO joins ids that carry halves of one value: the CAN (126/127) and
// tachograph (155/156) driver ids, 8 ASCII characters each, and the tag id
// of 760/761, each half in hex.
func finishIO(p *model.Position) {
	for _, pair := range [][2]string{{"io126", "io127"}, {"io155", "io156"}} {
		hi, okHi := p.Attributes[pair[0]].(int64)
		lo, okLo := p.Attributes[pair[1]].(int64)
		delete(p.Attributes, pair[0])
		delete(p.Attributes, pair[1])
		if okHi && okLo {
			var id [16]byte
			for i := range 8 {
				id[i] = byte(uint64(hi) >> (56 - 8*i))
				id[8+i] = byte(uint64(lo) >> (56 - 8*i))
			}
			p.Attributes["driverUniqueId"] = string(id[:])
		}
	}
	hi, okHi := p.Attributes["io760"].(int64)
	lo, okLo := p.Attributes["io761"].(int64)
	delete(p.Attributes, "io760")
	delete(p.Attributes, "io761")
	if okHi && okLo {
		p.Attributes["tagId"] = strconv.FormatUint(uint64(hi), 16) + strconv.FormatUint(uint64(lo), 16)
	}
}
