package meitrack

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errBinary = errors.New("meitrack: binary records cut short")

// epoch2000 is the origin of the binary records' times.
var epoch2000 = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// reader reads little-endian fields; a read past the end sets bad and
// returns zeros, so a record is checked once at its end.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) take(n int) []byte {
	if n < 0 || len(r.b) < n {
		r.bad, r.b = true, nil
		return make([]byte, max(n, 0))
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() int      { return int(r.take(1)[0]) }
func (r *reader) u16() int     { return int(binary.LittleEndian.Uint16(r.take(2))) }
func (r *reader) i16() int     { return int(int16(binary.LittleEndian.Uint16(r.take(2)))) }
func (r *reader) u32() int64   { return int64(binary.LittleEndian.Uint32(r.take(4))) }
func (r *reader) i32() float64 { return float64(int32(binary.LittleEndian.Uint32(r.take(4)))) }

// time2000 is a record time: seconds since 2000-01-01 UTC.
func (r *reader) time2000() time.Time { return epoch2000.Add(time.Duration(r.u32()) * time.Second) }

// cccRecord is the size of a CCC record: event, location, time, GPS and
// GSM state, odometer, runtime, cell, status, analog values, geofence.
const cccRecord = 52

// decodeCCC reads a CCC batch: protocol version (2), record size (2),
// records left in the device's cache (4), then fixed-size records.
func decodeCCC(data []byte) ([]*model.Position, error) {
	r := &reader{b: data}
	r.u16() // protocol version
	size := r.u16()
	r.u32() // records still cached
	if r.bad || size < cccRecord {
		return nil, errBinary
	}
	var out []*model.Position
	for len(r.b) >= size {
		rec := &reader{b: r.take(size)}
		p := newPosition()
		setEvent(p, rec.u8())
		p.Latitude, p.Longitude = rec.i32()/1e6, rec.i32()/1e6
		setTime(p, rec.time2000())
		p.Valid = rec.u8() == 1
		p.Attributes["sat"] = rec.u8()
		rssi := rec.u8()
		p.Speed = float64(rec.u16()) * kphToKnots
		p.Course = float64(rec.u16())
		p.Attributes["hdop"] = float64(rec.u16()) / 10
		p.Altitude = float64(rec.u16())
		p.Attributes["odometer"] = rec.u32()
		p.Attributes["runtime"] = rec.u32()
		mcc, mnc, lac, cid := rec.u16(), rec.u16(), rec.u16(), rec.u16()
		if mcc != 0 {
			p.Network = network(cellTower(mcc, mnc, int64(lac), int64(cid), rssi))
		}
		p.Attributes["status"] = rec.u16()
		p.Attributes["adc1"] = rec.u16()
		p.Attributes["battery"] = float64(rec.u16()) / 100
		p.Attributes["power"] = rec.u16()
		if err := protocols.CheckFix(p); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, errBinary
	}
	return out, nil
}

func setEvent(p *model.Position, event int) {
	p.Attributes["event"] = event
	if alarm := alarms[event]; alarm != "" {
		p.Attributes["alarm"] = alarm
	} else {
		delete(p.Attributes, "alarm")
	}
}

// decodeCCE reads a CCE batch: records left in the cache (4), record count
// (2), then records: length (2), index (2) and four groups of parameters,
// each a count then id/value pairs, with 1-, 2-, 4-byte and length-prefixed
// values. An id starting with FE is two bytes long.
func decodeCCE(data []byte) ([]*model.Position, error) {
	r := &reader{b: data}
	r.u32() // records still cached
	count := r.u16()
	if r.bad || count == 0 {
		return nil, errBinary
	}
	out := make([]*model.Position, 0, min(count, len(data)/4))
	for range count {
		n := r.u16()
		rec := &reader{b: r.take(n)}
		if r.bad {
			return nil, errBinary
		}
		p, err := decodeCCERecord(rec)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func decodeCCERecord(r *reader) (*model.Position, error) {
	p := newPosition()
	r.u16() // record index
	var n cellsAndAPs
	hasTime := false
	for width := range 4 {
		for range r.u8() {
			id := r.u8()
			if id == 0xFE {
				id = id<<8 | r.u8()
			}
			switch width {
			case 0:
				setByteParam(p, id, r.u8())
			case 1:
				setWordParam(p, id, r.take(2))
			case 2:
				if id == 0x04 {
					hasTime = true
				}
				setLongParam(p, id, r.take(4))
			case 3:
				size := r.u8()
				setVarParam(p, &n, id, &reader{b: r.take(size)})
			}
			if r.bad {
				return nil, errBinary
			}
		}
	}
	if r.bad {
		return nil, errBinary
	}
	if !hasTime {
		return nil, errors.New("meitrack: CCE record without a time")
	}
	if len(n.cells) > 0 || len(n.wifi) > 0 {
		p.Network = n.value()
	}
	if err := protocols.CheckFix(p); err != nil {
		return nil, err
	}
	return p, nil
}

// setByteParam stores a one-byte CCE parameter.
func setByteParam(p *model.Position, id, v int) {
	switch id {
	case 0x01:
		setEvent(p, v)
	case 0x05:
		p.Valid = v > 0
	case 0x06:
		p.Attributes["sat"] = v
	case 0x07:
		p.Attributes["rssi"] = v
	case 0x14:
		p.Attributes["output"] = v
	case 0x15:
		p.Attributes["input"] = v
	case 0x47:
		if v > 0 {
			p.Attributes["lock"] = v == 2
		}
	case 0x97:
		p.Attributes["throttle"] = v
	case 0x9D:
		p.Attributes["fuel"] = v
	case 0xFE69:
		p.Attributes["batteryLevel"] = v
	}
}

// setWordParam stores a two-byte CCE parameter.
func setWordParam(p *model.Position, id int, b []byte) {
	v := int(binary.LittleEndian.Uint16(b))
	switch id {
	case 0x08:
		p.Speed = float64(v) * kphToKnots
	case 0x09:
		p.Course = float64(v)
	case 0x0A:
		p.Attributes["hdop"] = v
	case 0x0B:
		p.Altitude = float64(int16(v))
	case 0x16:
		p.Attributes["adc1"] = float64(v) / 100
	case 0x17:
		p.Attributes["adc2"] = float64(v) / 100
	case 0x19:
		p.Attributes["battery"] = float64(v) / 100
	case 0x1A:
		p.Attributes["power"] = float64(v) / 100
	case 0x29:
		p.Attributes["fuel"] = float64(v) / 100
	case 0x40:
		setEvent(p, v)
	case 0x91, 0x92:
		p.Attributes["obdSpeed"] = v
	case 0x98:
		p.Attributes["fuelUsed"] = v
	case 0x99:
		p.Attributes["rpm"] = v
	case 0x9C:
		p.Attributes["coolantTemp"] = v
	case 0x9F:
		p.Attributes["temp1"] = v
	case 0xC9:
		p.Attributes["fuelConsumption"] = v
	}
}

// setLongParam stores a four-byte CCE parameter.
func setLongParam(p *model.Position, id int, b []byte) {
	v := int64(binary.LittleEndian.Uint32(b))
	switch id {
	case 0x02:
		p.Latitude = float64(int32(v)) / 1e6
	case 0x03:
		p.Longitude = float64(int32(v)) / 1e6
	case 0x04:
		setTime(p, epoch2000.Add(time.Duration(v)*time.Second))
	case 0x0C:
		p.Attributes["odometer"] = v
	case 0x0D:
		p.Attributes["runtime"] = v
	case 0x25:
		p.Attributes["driverUniqueId"] = strconv.FormatInt(v, 10)
	case 0x9B:
		p.Attributes["obdOdometer"] = v
	case 0xA0:
		p.Attributes["fuelUsed"] = float64(v) / 1000
	case 0xA2:
		p.Attributes["fuelConsumption"] = float64(v) / 100
	case 0xFEF4:
		p.Attributes["hours"] = v * 60000 // minutes to milliseconds
	}
}

// setVarParam stores a length-prefixed CCE parameter read from r.
func setVarParam(p *model.Position, n *cellsAndAPs, id int, r *reader) {
	switch {
	case id >= 0x1D && id <= 0x25:
		mac := r.take(6)
		rssi := r.i16()
		if !r.bad {
			n.wifi = append(n.wifi, map[string]any{"macAddress": macText(mac), "signalStrength": rssi})
		}
	case id == 0x0E || id == 0x0F || id == 0x10 || id == 0x12 || id == 0x13:
		mcc, mnc, lac := r.u16(), r.u16(), r.u16()
		cid := r.u32()
		rssi := r.i16()
		if !r.bad {
			n.cells = append(n.cells, cellTower(mcc, mnc, int64(lac), cid, rssi))
		}
	case id >= 0x2A && id <= 0x31:
		r.u8() // sensor label
		if v := r.i16(); !r.bad {
			p.Attributes["temp"+strconv.Itoa(id-0x2A)] = float64(v) / 100
		}
	case id == 0xFE31:
		setCameraAlarm(p, r)
	case id == 0xFE73:
		setTag(p, r)
	case id == 0xFEA8:
		for k := 1; k <= 3; k++ {
			present, level := r.u8(), r.u8()
			if r.bad || present == 0 {
				continue
			}
			key := "batteryLevel"
			if k > 1 {
				key = "battery" + strconv.Itoa(k) + "Level"
			}
			p.Attributes[key] = level
		}
	}
}

// setCameraAlarm reads a camera alarm: protocol, alarm type and, for
// protocol 2, the picture file "yyyyMMdd...", named by its day folder as
// Traccar names media files.
func setCameraAlarm(p *model.Position, r *reader) {
	proto, typ := r.u8(), r.u8()
	if r.bad {
		return
	}
	p.Attributes["alarmType"] = typ
	if file := string(r.b); proto == 2 && len(file) >= 8 && isDigits(file[:8]) {
		p.Attributes["image"] = file[:4] + "-" + file[4:6] + "-" + file[6:8] + "/" + file
	}
}

// setTag reads a BLE sensor tag: version, name, MAC, battery, temperature
// and humidity (1/256 units), then thresholds.
func setTag(p *model.Position, r *reader) {
	r.u8() // version
	name := r.take(r.u8())
	r.take(6) // MAC
	battery := r.u8()
	temp, humidity := r.i16(), r.i16()
	if r.bad {
		return
	}
	p.Attributes["tagName"] = string(name)
	p.Attributes["tagBattery"] = battery
	p.Attributes["tagTemp"] = float64(temp) / 256
	p.Attributes["tagHumidity"] = float64(humidity) / 256
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// macText formats a MAC address as Traccar does: "aa:bb:cc:dd:ee:ff".
func macText(b []byte) string {
	h := hex.EncodeToString(b)
	parts := make([]string, 0, len(b))
	for i := 0; i < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return strings.Join(parts, ":")
}

// cellsAndAPs collects the cells and access points of a CCE record.
type cellsAndAPs struct {
	cells, wifi []map[string]any
}

func (n *cellsAndAPs) value() map[string]any {
	v := network(n.cells...)
	if len(n.wifi) > 0 {
		v["wifiAccessPoints"] = n.wifi
	}
	if len(n.cells) == 0 {
		delete(v, "cellTowers")
	}
	return v
}
