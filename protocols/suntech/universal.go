package suntech

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var errReport = errors.New("suntech: report too short")

// bleMask is the field mask BLE reports imply (they carry none): model,
// firmware, date, time, latitude, longitude.
const bleMask = 0b1100000110110

func bit(mask int64, n uint) bool { return mask&(1<<n) != 0 }

// decodeUniversal reads the universal firmware's text reports
// "<type>;<dev_id>;<mask>;...": the hex mask says which of the fields
// that follow are present.
func (p *Protocol) decodeUniversal(f []string) (protocols.Result, error) {
	if len(f) < 2 {
		return protocols.Result{}, errReport
	}
	typ := f[0]
	id, err := deviceID(f[1])
	if err != nil {
		return protocols.Result{}, err
	}
	switch typ {
	case "STT", "ALT", "UEX", "BLE":
	case "RES":
		return protocols.Result{UniqueID: id, CommandResult: strings.Join(f[2:], ";")}, nil
	case "ALV":
		return protocols.Result{UniqueID: id}, nil // keep-alive
	default:
		return protocols.Result{UniqueID: id, Unsupported: "universal report " + typ + " not decoded"}, nil
	}
	r := &fields{f: f, i: 2}
	pos := p.newPosition()
	a := pos.Attributes
	a["type"] = typ
	mask := int64(bleMask)
	if typ != "BLE" {
		mask = r.hex()
	}
	if bit(mask, 1) {
		r.next() // model
	}
	if bit(mask, 2) {
		a["versionFw"] = r.next()
	}
	if bit(mask, 3) && r.next() == "0" {
		a["archive"] = true
	}
	if bit(mask, 4) && bit(mask, 5) {
		pos.FixTime = r.dateTime()
		pos.DeviceTime = pos.FixTime
	}
	var cell [4]int64 // cell id, mcc, mnc, lac
	for i, read := range []func() int64{r.hex, r.int, r.int, r.hex} {
		if bit(mask, uint(6+i)) {
			cell[i] = read()
		}
	}
	if bit(mask, 6) {
		pos.Network = network(tower(cell[1], cell[2], cell[3], cell[0], 0))
	}
	if bit(mask, 10) {
		a["rssi"] = r.int()
	}
	hasLat, hasLon := bit(mask, 11), bit(mask, 12)
	if hasLat {
		pos.Latitude = r.float()
	}
	if hasLon {
		pos.Longitude = r.float()
	}
	if typ == "BLE" {
		pos.Valid = true
		count := r.int()
		for i := int64(1); i <= count && r.err == nil && i <= 64; i++ {
			n := strconv.FormatInt(i, 10)
			a["tag"+n+"Rssi"] = r.int()
			r.skip(2) // lowest and highest RSSI
			a["tag"+n+"Id"] = r.next()
			a["tag"+n+"Samples"] = r.int()
			a["tag"+n+"Major"] = r.int()
			a["tag"+n+"Minor"] = r.int()
		}
	} else {
		universalTail(r, pos, typ, mask)
	}
	if r.err != nil {
		return protocols.Result{}, r.err
	}
	if !hasLat || !hasLon {
		t := pos.FixTime
		old := pos
		pos = p.outdated(t)
		pos.Attributes, pos.Network = old.Attributes, old.Network
	} else if pos.FixTime.IsZero() {
		pos.FixTime = p.now.Now().Truncate(time.Second)
		pos.DeviceTime = pos.FixTime
	}
	return finish(id, pos)
}

// universalTail reads speed..inputs, outputs, the type's own fields and
// the assigned headers ("assign<n>") after them.
func universalTail(r *fields, pos *model.Position, typ string, mask int64) {
	a := pos.Attributes
	if bit(mask, 13) {
		pos.Speed = r.float() * knotsPerKph
	}
	if bit(mask, 14) {
		pos.Course = r.float()
	}
	if bit(mask, 15) {
		a["sat"] = r.int()
	}
	if bit(mask, 16) {
		pos.Valid = r.next() == "1"
	}
	if bit(mask, 17) {
		in := r.int()
		a["ignition"] = in&1 != 0
		a["input"] = in
	}
	if bit(mask, 18) {
		a["output"] = r.int()
	}
	switch typ {
	case "ALT":
		if bit(mask, 19) {
			setAlarm(pos, alertAlarms[r.int()])
		}
		if bit(mask, 20) {
			a["alertModifier"] = r.next()
		}
		if bit(mask, 21) {
			a["alertData"] = r.next()
		}
	case "UEX":
		serialData(r, pos)
	default:
		for i, key := range []string{"mode", "reason", "index"} {
			if bit(mask, uint(19+i)) {
				a[key] = r.int()
			}
		}
	}
	if bit(mask, 22) {
		r.next() // reserved
	}
	if bit(mask, 23) && typ != "UEX" {
		assigned := r.hex()
		for i := range 31 {
			if bit(assigned, uint(i)) {
				a["io"+strconv.Itoa(i+1)] = r.next()
			}
		}
	}
	for n := 1; r.err == nil && r.left() > 0; n++ {
		if v := r.next(); v != "" {
			a["assign"+strconv.Itoa(n)] = v
		}
	}
}

// decodeBinary reads the universal binary report: type (0x81 status, 0x82
// alert), length, 5-byte id, 3-byte mask, then the masked fields in
// binary.
func (p *Protocol) decodeBinary(frame []byte) (protocols.Result, error) {
	b := &bytesReader{b: frame}
	typ := b.u8()
	b.u16() // length
	id := hex.EncodeToString(b.take(5))
	mask := int64(b.u24())
	pos := p.newPosition()
	a := pos.Attributes
	if bit(mask, 1) {
		b.u8() // model
	}
	if bit(mask, 2) {
		v := b.take(3)
		if len(v) == 3 {
			a["versionFw"] = fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2])
		}
	}
	if bit(mask, 3) && b.u8() == 0 {
		a["archive"] = true
	}
	if bit(mask, 4) && bit(mask, 5) {
		pos.FixTime = b.dateTime()
		pos.DeviceTime = pos.FixTime
	}
	for i, size := range []int{4, 2, 2, 2} { // cell, mcc, mnc, lac
		if bit(mask, uint(6+i)) {
			b.take(size)
		}
	}
	if bit(mask, 10) {
		a["rssi"] = b.u8()
	}
	hasLat, hasLon := bit(mask, 11), bit(mask, 12)
	if hasLat {
		pos.Latitude = b.signedMagnitude() / 1e6
	}
	if hasLon {
		pos.Longitude = b.signedMagnitude() / 1e6
	}
	if bit(mask, 13) {
		pos.Speed = float64(b.u16()) / 100 * knotsPerKph
	}
	if bit(mask, 14) {
		pos.Course = float64(b.u16()) / 100
	}
	if bit(mask, 15) {
		a["sat"] = b.u8()
	}
	if bit(mask, 16) {
		pos.Valid = b.u8() > 0
	}
	if bit(mask, 17) {
		in := b.u8()
		a["ignition"] = in&1 != 0
		a["input"] = in
	}
	if bit(mask, 18) {
		a["output"] = b.u8()
	}
	var alert int64
	if bit(mask, 19) {
		alert = b.u8()
		if typ == 0x82 {
			setAlarm(pos, alertAlarms[alert])
		}
	}
	if bit(mask, 20) {
		b.u16() // alert modifier
	}
	if bit(mask, 21) && alert == 59 {
		a["driverUniqueId"] = hex.EncodeToString(b.take(8))
	}
	if b.short {
		return protocols.Result{}, errors.New("suntech: binary report shorter than its mask")
	}
	if !hasLat || !hasLon || pos.FixTime.IsZero() {
		t := pos.FixTime
		old := pos
		pos = p.outdated(t)
		pos.Attributes = old.Attributes
	}
	return finish(id, pos)
}

// bytesReader reads big-endian fields; reading past the end sets short.
type bytesReader struct {
	b     []byte
	i     int
	short bool
}

func (r *bytesReader) take(n int) []byte {
	if r.i+n > len(r.b) {
		r.short = true
		r.i = len(r.b)
		return make([]byte, n)
	}
	r.i += n
	return r.b[r.i-n : r.i]
}

func (r *bytesReader) u8() int64  { return int64(r.take(1)[0]) }
func (r *bytesReader) u16() int64 { return int64(binary.BigEndian.Uint16(r.take(2))) }
func (r *bytesReader) u24() int64 {
	v := r.take(3)
	return int64(v[0])<<16 | int64(v[1])<<8 | int64(v[2])
}
func (r *bytesReader) u32() int64 { return int64(binary.BigEndian.Uint32(r.take(4))) }

// signedMagnitude reads 4 bytes: the top bit is the sign.
func (r *bytesReader) signedMagnitude() float64 {
	v := r.u32()
	if v&0x80000000 != 0 {
		return -float64(v & 0x7FFFFFFF)
	}
	return float64(v)
}

// dateTime reads yy mm dd hh mm ss (UTC); an impossible one is zero.
func (r *bytesReader) dateTime() time.Time {
	v := r.take(6)
	t := time.Date(2000+int(v[0]), time.Month(v[1]), int(v[2]), int(v[3]), int(v[4]), int(v[5]), 0, time.UTC)
	if v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 59 || t.Day() != int(v[2]) {
		r.short = true
		return time.Time{}
	}
	return t
}
