package teltonika

import (
	"math"
	"strconv"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// gh3000Epoch is 2007-01-01T00:00:00Z, where GH3000 timestamps start.
const gh3000Epoch = 1167609600

// readGH3000 reads one codec 7 (GH3000) record: a 4-byte timestamp
// (seconds since 2007; the top two bits are the priority), a global mask
// and the parts it announces. Bit 0: a GPS element, itself led by a mask;
// bits 1, 2, 3: IO elements of 1, 2 and 4 bytes (1-byte count, 1-byte ids).
// A record without the GPS element, or one without coordinates, has no
// location (Outdated).
//
// GPS element mask: bit 0 latitude and longitude (IEEE 754 floats), bit 1
// altitude (m), bit 2 angle (x 360/256 degrees), bit 3 speed (km/h), bit 4
// satellites, bit 5 LAC and cell id (2 bytes each), bit 6 signal quality,
// bit 7 operator code (4 bytes). With a cell, the signal and operator go to
// Position.Network; without, to the rssi and operator attributes.
func readGH3000(c *cursor) *model.Position {
	p := newPosition()
	t := time.Unix(int64(c.value(4)&0x3FFFFFFF)+gh3000Epoch, 0).UTC()
	p.DeviceTime, p.FixTime = t, t
	global := c.byte()
	p.Outdated = true
	if global&0x01 != 0 {
		readGH3000GPS(c, p)
	}
	for i, width := range []int{1, 2, 4} {
		if global&(0x02<<i) == 0 {
			continue
		}
		for range c.byte() {
			id := c.byte()
			v := c.value(width)
			if c.failed {
				return p
			}
			setGH3000IO(p, id, v)
		}
	}
	return p
}

func readGH3000GPS(c *cursor, p *model.Position) {
	mask := c.byte()
	if mask&0x01 != 0 {
		p.Latitude = float64(math.Float32frombits(uint32(c.value(4))))
		p.Longitude = float64(math.Float32frombits(uint32(c.value(4))))
		p.Outdated, p.Valid = false, true
	}
	if mask&0x02 != 0 {
		p.Altitude = float64(c.short())
	}
	if mask&0x04 != 0 {
		p.Course = float64(c.byte()) * 360 / 256
	}
	if mask&0x08 != 0 {
		p.Speed = float64(c.byte()) * kphToKnots
	}
	if mask&0x10 != 0 {
		p.Attributes["sat"] = c.byte()
	}
	if mask&0x20 == 0 {
		if mask&0x40 != 0 {
			p.Attributes["rssi"] = int64(c.byte())
		}
		if mask&0x80 != 0 {
			p.Attributes["operator"] = int64(c.value(4))
		}
		return
	}
	tower := map[string]any{"locationAreaCode": c.short(), "cellId": int64(c.short())}
	if mask&0x40 != 0 {
		tower["signalStrength"] = c.byte()
	}
	if mask&0x80 != 0 {
		setOperator(tower, int64(c.value(4)))
	}
	p.Network = map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{tower}}
}

// setGH3000IO stores one GH3000 IO element; its ids mean other things than
// those of the FM devices.
//
//	ID   attribute     value
//	1    batteryLevel  %
//	2    usbConnected  bool
//	5    uptime        seconds
//	20   hdop          x 0.1
//	21   vdop          x 0.1
//	22   pdop          x 0.1
//	67   battery       mV -> V
//	221  button        button code
//	222  alarm         sos when 1
//	240  motion        bool
//	244  roaming       bool
func setGH3000IO(p *model.Position, id int, v uint64) {
	a := p.Attributes
	switch id {
	case 1:
		a["batteryLevel"] = int64(v)
	case 2:
		a["usbConnected"] = v == 1
	case 5:
		a["uptime"] = int64(v)
	case 20:
		a["hdop"] = float64(v) / 10
	case 21:
		a["vdop"] = float64(v) / 10
	case 22:
		a["pdop"] = float64(v) / 10
	case 67:
		a["battery"] = float64(v) / 1000
	case 221:
		a["button"] = int64(v)
	case 222:
		if v == 1 {
			addAlarm(p, "sos")
		}
	case 240:
		a["motion"] = v == 1
	case 244:
		a["roaming"] = v == 1
	default:
		a["io"+strconv.Itoa(id)] = int64(v)
	}
}
