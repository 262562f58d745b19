package gl200

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// errBinaryShort reports a binary frame that ends inside its layout.
var errBinaryShort = model.Invalid("gl200: binary frame ends inside its layout")

// bin reads a binary frame big-endian; reading past its end sets err and
// yields zeros.
type bin struct {
	b   []byte
	i   int
	err error
}

func (r *bin) take(n int) []byte {
	if n < 0 || r.i+n > len(r.b) {
		r.err = errBinaryShort
		r.i = len(r.b)
		return make([]byte, max(n, 0))
	}
	r.i += n
	return r.b[r.i-n : r.i]
}

func (r *bin) u8() int { return int(r.take(1)[0]) }

func (r *bin) uint(n int) int64 {
	var v int64
	for _, b := range r.take(n) {
		v = v<<8 | int64(b)
	}
	return v
}

func (r *bin) u16() int   { return int(r.uint(2)) }
func (r *bin) u24() int   { return int(r.uint(3)) }
func (r *bin) u32() int64 { return r.uint(4) }
func (r *bin) i16() int   { return int(int16(r.uint(2))) }
func (r *bin) i32() int   { return int(int32(r.uint(4))) }

// date reads year (2 bytes), month, day, hour, minute, second, UTC; zero
// when the fields make no date (a layout read out of step).
func (r *bin) date() time.Time {
	y, mo, d := r.u16(), r.u8(), r.u8()
	h, mi, s := r.u8(), r.u8(), r.u8()
	if y < 2000 || y > 2099 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59 {
		return time.Time{}
	}
	return time.Date(y, time.Month(mo), d, h, mi, s, 0, time.UTC)
}

// imei reads the 8-byte IMEI of the +RSP/+EVT/+INF frames, a number.
func (r *bin) imei() string { return fmt.Sprintf("%015d", int64(r.uint(8))) }

// Binary report types with a layout of their own.
const (
	rspLCB        = 3   // location by call: a phone number precedes the points
	rspGEO        = 8   // geofence: two reserved bytes
	rspCompressed = 100 // compressed points

	infVER = 6
	infBAT = 7
	infCSQ = 5
	infGIR = 10
)

// evtExtra is how many bytes an event type adds before its point.
var evtExtra = map[int]int{
	6: 2, 45: 7, 46: 7, 15: 3, 17: 4, 21: 5, 26: 12, 31: 2, 35: 1, 33: 1, 23: 1, 34: 3,
}

// decodeBinary decodes a binary frame. Binary reports are not answered.
func (p *Protocol) decodeBinary(frame []byte) (protocols.Result, error) {
	var res protocols.Result
	r := &bin{b: frame}
	var ps []*model.Position
	if frame[1] == 0 {
		res.UniqueID, ps = decodeRecords(r)
	} else {
		switch head := string(r.take(4)); head {
		case "+RSP":
			res.UniqueID, ps = decodeRSP(r)
		case "+EVT":
			res.UniqueID, ps = decodeEVT(r)
		case "+INF":
			res.UniqueID, ps = decodeINF(r, p.now.Now())
		case "+ACK":
			// A command acknowledgement: its fields follow a mask and
			// carry no data to store.
			return res, nil
		default:
			res.Unsupported = "binary report " + head + " not decoded"
			return res, nil
		}
	}
	if r.err != nil {
		return protocols.Result{}, r.err
	}
	for _, pos := range ps {
		if pos.Latitude < -90 || pos.Latitude > 90 || pos.Longitude < -180 || pos.Longitude > 180 {
			return protocols.Result{}, model.Invalid("gl200: binary location off the globe")
		}
	}
	if len(ps) == 0 {
		res.Unsupported = "binary frame without a point"
		return res, nil
	}
	res.Positions = ps
	return res, nil
}

// binaryPoint reads one uncompressed binary point: HDOP, speed, azimuth,
// altitude, longitude, latitude, UTC time, cell and a reserved byte.
func binaryPoint(r *bin, p *model.Position) {
	hdop := r.u8()
	p.Attributes["hdop"] = hdop
	p.Speed = float64(r.u24()) / 10 * knotsPerKph
	p.Course = float64(r.u16())
	p.Altitude = float64(r.i16())
	p.Longitude = float64(r.i32()) / 1e6
	p.Latitude = float64(r.i32()) / 1e6
	p.FixTime = r.date()
	p.DeviceTime = p.FixTime
	p.Valid = hdop > 0
	if p.FixTime.IsZero() && r.err == nil {
		r.err = model.Invalid("gl200: binary point without a valid time")
	}
	mcc, mnc, lac, cid := r.u16(), r.u16(), r.u16(), r.u16()
	p.Network = protocols.Network([]map[string]any{cellTower(mcc, mnc, int64(lac), int64(cid))}, nil)
	r.u8()
}

// decodeRSP decodes a binary position report (+RSP). The external power
// is in millivolts; it is stored in volts (Traccar keeps the raw count).
func decodeRSP(r *bin) (string, []*model.Position) {
	typ := r.u8()
	r.take(4 + 2 + 1 + 2 + 2) // mask, length, device type, protocol and firmware versions
	id := r.imei()
	battery, power := r.u8(), r.u16()
	if typ == rspGEO {
		r.take(2)
	}
	r.u8() // motion status
	sat := r.u8()
	if typ != rspCompressed {
		r.u8() // index
	}
	if typ == rspLCB {
		r.u8() // phone number length
		for b := r.u8(); b&0xF != 0xF && b&0xF0 != 0xF0 && r.err == nil; b = r.u8() {
		}
	}
	if typ == rspCompressed {
		return id, compressed(r)
	}
	n := r.u8()
	ps := make([]*model.Position, 0, n)
	for range n {
		if r.err != nil {
			break
		}
		p := newPosition()
		p.Attributes["batteryLevel"] = battery
		p.Attributes["power"] = float64(power) / 1000
		p.Attributes["sat"] = sat
		binaryPoint(r, p)
		ps = append(ps, p)
	}
	return id, ps
}

// compressed reads compressed points: a full point (2-bit kind 1: speed,
// heading, longitude, latitude, and the time of the first), or a delta
// from the previous one (kind 2); the points are a second apart.
func compressed(r *bin) []*model.Position {
	n := r.u16()
	var ps []*model.Position
	var speed, heading, lon, lat int
	var t int64
	for range n {
		if r.err != nil {
			break
		}
		if t > 0 {
			t++
		}
		if r.i >= len(r.b) {
			r.err = errBinaryShort
			break
		}
		switch r.b[r.i] >> 6 {
		case 1:
			bits := bitReader{b: r.take(3)}
			bits.read(3) // point attribute, fix type
			speed, heading = bits.read(12), bits.read(9)
			lon, lat = r.i32(), r.i32()
			if t == 0 {
				t = r.u32()
			}
		case 2:
			bits := bitReader{b: r.take(5)}
			bits.read(3)
			speed += bits.signed(7)
			heading += bits.signed(7)
			lon += bits.signed(12)
			lat += bits.signed(11)
		default:
			r.u8() // no fix, or the same point
			continue
		}
		p := newPosition()
		p.Valid = true
		p.FixTime = time.Unix(t, 0).UTC()
		p.DeviceTime = p.FixTime
		p.Speed = float64(speed) / 10 * knotsPerKph
		p.Course = float64(heading)
		p.Longitude, p.Latitude = float64(lon)/1e6, float64(lat)/1e6
		ps = append(ps, p)
	}
	return ps
}

// bitReader reads big-endian bit fields.
type bitReader struct {
	b   []byte
	pos int
}

func (br *bitReader) read(n int) int {
	v := 0
	for range n {
		bit := br.b[br.pos/8] >> (7 - br.pos%8) & 1
		v = v<<1 | int(bit)
		br.pos++
	}
	return v
}

// signed reads an n-bit two's complement field.
func (br *bitReader) signed(n int) int {
	v := br.read(n)
	if v&(1<<(n-1)) != 0 {
		v -= 1 << n
	}
	return v
}

// decodeEVT decodes a binary event report (+EVT): one point.
func decodeEVT(r *bin) (string, []*model.Position) {
	typ := r.u8()
	r.take(4 + 2 + 1 + 2) // mask, length, device type, protocol version
	p := newPosition()
	p.Attributes["versionFw"] = fmt.Sprint(r.u16())
	id := r.imei()
	p.Attributes["batteryLevel"] = r.u8()
	p.Attributes["power"] = float64(r.u16()) / 1000
	r.u8() // motion status
	p.Attributes["sat"] = r.u8()
	r.take(evtExtra[typ])
	r.u8() // count
	binaryPoint(r, p)
	return id, []*model.Position{p}
}

// decodeINF decodes a binary information report (+INF): no point.
func decodeINF(r *bin, now time.Time) (string, []*model.Position) {
	typ := r.u8()
	r.take(4 + 2) // mask, length
	id := r.imei()
	r.take(1 + 2) // device type, protocol version
	p := newPosition()
	a := p.Attributes
	a["versionFw"] = fmt.Sprint(r.u16())
	if typ == infVER {
		r.take(6) // hardware and MCU versions, reserved
	}
	r.take(2) // motion status, reserved
	a["sat"] = r.u8()
	r.take(1 + 7 + 1 + 1 + 2 + 2 + 2 + 4 + 1) // mode, last fix time, reserved, masks, intervals, reserved
	if typ == infBAT {
		a["charge"] = r.u8() != 0
		a["power"] = float64(r.u16()) / 1000
		a["battery"] = float64(r.u16()) / 1000
		a["batteryLevel"] = r.u8()
	}
	r.take(10) // ICCID
	if typ == infCSQ {
		a["rssi"] = r.u8()
		r.u8()
	}
	r.take(3) // time zone
	if typ == infGIR {
		r.take(2)
		mcc, mnc, lac, cid := r.u16(), r.u16(), r.u16(), r.u16()
		p.Network = protocols.Network([]map[string]any{cellTower(mcc, mnc, int64(lac), int64(cid))}, nil)
		r.take(2)
	}
	finish(p, r.date(), now)
	return id, []*model.Position{p}
}

// varLength reads a 1-byte length, or 2 bytes when the first has bit 7 set.
func varLength(r *bin) int {
	v := r.u8()
	if v&0x80 != 0 {
		v = (v&0x7F)<<8 | r.u8()
	}
	return v
}

// decodeRecords decodes the record-based binary frame (second byte 0):
// records of data items; item 0x52 is a GPS point.
func decodeRecords(r *bin) (string, []*model.Position) {
	r.take(2)          // header, identifier
	end := r.u16() - 4 // count number, check byte and tail
	if r.u8()&0x80 != 0 {
		r.take(2) // frame count and number of a multi-packet frame
	}
	id := hex.EncodeToString(r.take(8))[1:]
	r.take(2 + 2 + 1) // device type, protocol version, custom version
	r.take(r.u8())    // reserved
	var ps []*model.Position
	for r.i < end && r.err == nil {
		start := r.i
		recEnd := start + varLength(r)
		r.take(4 + 2 + 1 + 1) // generated time, record count, record id, event code
		for r.i < recEnd && r.err == nil {
			item := varLength(r)
			itemEnd := r.i + varLength(r)
			if item == 0x52 {
				ps = append(ps, recordPoint(r))
			}
			r.seek(itemEnd)
		}
		r.seek(recEnd)
	}
	return id, ps
}

// seek moves to offset i of the frame, failing past its end.
func (r *bin) seek(i int) {
	if i < r.i && r.err == nil || i > len(r.b) {
		r.err = errBinaryShort
		return
	}
	r.i = i
}

// recordPoint reads a GPS data item of a record-based frame.
func recordPoint(r *bin) *model.Position {
	p := newPosition()
	p.Valid = r.u8()>>2&3 == 2
	p.Longitude = float64(r.i32()) / 1e6
	p.Latitude = float64(r.i32()) / 1e6
	p.FixTime = time.Unix(r.u32(), 0).UTC()
	p.DeviceTime = p.FixTime
	p.Speed = float64(r.u16()) / 10 * knotsPerKph
	p.Attributes["hdop"] = float64(r.u8()) / 10
	p.Course = float64(r.u16())
	p.Altitude = float64(r.u24()) / 10
	p.Attributes["sat"] = r.u8()
	return p
}
