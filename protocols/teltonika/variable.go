package teltonika

import (
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// Variable-length IO elements of codec 8E (NX section): 2-byte id, 2-byte
// length, data. Known ones get Traccar's attribute names; a known element
// whose inside does not parse, and every other one, is kept as "io<ID>"
// with its data in hex.
//
//	ID                        attribute
//	256, 325                  vin (ASCII)
//	281                       dtcs (ASCII, codes separated by spaces)
//	385                       beacon<N>Uuid, Major, Minor, Namespace, Instance, Rssi, Battery, Temp
//	548, 10828, 10829,        tag<N>Rssi, Id, LowBattery, Voltage, Name, Temp, Humidity, Magnet,
//	10831, 11317              Motion, MotionCount, Pitch, AngleRoll, Battery, Mac
func setVariableIO(p *model.Position, id int, data []byte) {
	switch id {
	case 256, 325:
		p.Attributes["vin"] = string(data)
		return
	case 281:
		p.Attributes["dtcs"] = strings.ReplaceAll(string(data), ",", " ")
		return
	}
	var parse func(*cursor) model.Attributes
	switch id {
	case 385:
		parse = beacons
	case 548, 10828, 10829, 10831, 11317:
		parse = bleTags
	}
	if parse != nil {
		c := &cursor{buf: data}
		if attrs := parse(c); !c.failed {
			for k, v := range attrs {
				p.Attributes[k] = v
			}
			return
		}
	}
	p.Attributes["io"+strconv.Itoa(id)] = hex.EncodeToString(data)
}

// beacons reads IO 385, the beacon list: a data part byte, then per beacon
// a flags byte; a non-zero high nibble means iBeacon (16-byte UUID, 2-byte
// major and minor), else Eddystone (10-byte namespace, 6-byte instance);
// then the signed RSSI, a 2-byte battery voltage (x 0.01 V) when flag bit 1
// is set and a 2-byte temperature when bit 2 is set.
func beacons(c *cursor) model.Attributes {
	attrs := model.Attributes{}
	c.byte() // data part
	for i := 1; len(c.buf) > 0 && !c.failed; i++ {
		key := "beacon" + strconv.Itoa(i)
		flags := c.byte()
		if flags>>4 != 0 {
			attrs[key+"Uuid"] = hex.EncodeToString(c.take(16))
			attrs[key+"Major"] = int64(c.short())
			attrs[key+"Minor"] = int64(c.short())
		} else {
			attrs[key+"Namespace"] = hex.EncodeToString(c.take(10))
			attrs[key+"Instance"] = hex.EncodeToString(c.take(6))
		}
		attrs[key+"Rssi"] = signed(c.value(1), 1)
		if flags&0x02 != 0 {
			attrs[key+"Battery"] = float64(c.short()) / 100
		}
		if flags&0x04 != 0 {
			attrs[key+"Temp"] = int64(c.short())
		}
	}
	return attrs
}

// bleTags reads the BLE sensor lists (IO 548 advanced beacons, 10828/10829/
// 10831 BLE sensors, 11317 EYE sensors): a header byte, then per tag a
// length byte and that many bytes of parameters, each an id byte, a length
// byte and the value.
func bleTags(c *cursor) model.Attributes {
	attrs := model.Attributes{}
	c.byte() // header
	for i := 1; len(c.buf) > 0 && !c.failed; i++ {
		tag := &cursor{buf: c.take(c.byte())}
		key := "tag" + strconv.Itoa(i)
		for len(tag.buf) > 0 && !tag.failed {
			id := tag.byte()
			v := &cursor{buf: tag.take(tag.byte())}
			tagParameter(attrs, key, id, v)
			if v.failed {
				tag.failed = true
			}
		}
		if tag.failed {
			c.failed = true
		}
	}
	return attrs
}

// tagParameter stores one parameter of a BLE tag; unknown ids are skipped.
func tagParameter(attrs model.Attributes, key string, id int, v *cursor) {
	switch id {
	case 0:
		attrs[key+"Rssi"] = signed(v.value(1), 1)
	case 1:
		attrs[key+"Id"] = hex.EncodeToString(v.buf)
	case 2: // flags; bit 6 low battery, bit 7 a battery voltage byte follows
		flags := v.byte()
		if flags&0x40 != 0 {
			attrs[key+"LowBattery"] = true
		}
		if flags&0x80 != 0 {
			attrs[key+"Voltage"] = int64(v.byte())*10 + 2000 // mV
		}
	case 5: // padded with NULs, which no text column takes
		attrs[key+"Name"] = strings.TrimRight(string(v.buf), "\x00")
	case 6:
		attrs[key+"Temp"] = signed(v.value(2), 2)
	case 7:
		attrs[key+"Humidity"] = int64(v.byte())
	case 8:
		attrs[key+"Magnet"] = v.byte() != 0
	case 9:
		attrs[key+"Motion"] = v.byte() != 0
	case 10:
		attrs[key+"MotionCount"] = int64(v.short())
	case 11:
		attrs[key+"Pitch"] = signed(v.value(1), 1)
	case 12:
		attrs[key+"AngleRoll"] = signed(v.value(2), 2)
	case 13:
		attrs[key+"LowBattery"] = int64(v.byte())
	case 14:
		attrs[key+"Battery"] = int64(v.short())
	case 15:
		attrs[key+"Mac"] = hex.EncodeToString(v.take(6))
	}
}
