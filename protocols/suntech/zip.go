package suntech

import (
	"encoding/hex"
	"errors"
	"strconv"

	"github.com/fleetd/fleetd/protocols"
)

// zipHeader starts the "zip" (compressed) form of a status report.
const zipHeader = 0x02

// Lengths of a zip status report (header to footer): without the HBM
// fields, with hour meter, backup battery and message type (HBM 1), and
// with the serving cell instead (HBM 2).
const (
	zipBase = 46
	zipHBM1 = zipBase + 7
	zipHBM2 = zipBase + 10
)

// bcd reads n BCD digits from b.
func bcd(b []byte) (int64, bool) {
	var v int64
	for _, c := range b {
		hi, lo := c>>4, c&0x0f
		if hi > 9 || lo > 9 {
			return 0, false
		}
		v = v*100 + int64(hi)*10 + int64(lo)
	}
	return v, true
}

// decodeZip reads the zip status report: 0x02, length, 0x10, the BCD
// device id, model, firmware, date and time, cell, BCD-fraction
// coordinates, speed and course, flags (fix, hemispheres), odometer,
// power, I/O, event and the footer; a frame of the HBM lengths carries
// those fields too.
func (p *Protocol) decodeZip(frame []byte) (protocols.Result, error) {
	b := &bytesReader{b: frame}
	b.take(3) // header, length
	if typ := b.u8(); typ != 0x10 {
		return protocols.Result{Unsupported: "zip report type " + strconv.FormatInt(typ, 16) + " not decoded"}, nil
	}
	id := hex.EncodeToString(b.take(5))[:9]
	if _, err := deviceID(id); err != nil {
		return protocols.Result{}, err
	}
	b.take(3) // model, firmware
	pos := p.newPosition()
	a := pos.Attributes
	pos.FixTime = b.dateTime()
	pos.DeviceTime = pos.FixTime
	b.take(3) // lac, cell
	var ok [4]bool
	var frac [4]int64
	var whole [4]int64
	for i, digits := range []int{3, 3, 1, 1} {
		if i < 2 {
			whole[i] = b.u8()
		} else {
			whole[i] = b.u16()
		}
		frac[i], ok[i] = bcd(b.take(digits))
	}
	lat := float64(whole[0]) + float64(frac[0])/1e6
	lon := float64(whole[1]) + float64(frac[1])/1e6
	pos.Speed = (float64(whole[2]) + float64(frac[2])/100) * knotsPerKph
	pos.Course = float64(whole[3]) + float64(frac[3])/100
	flags := b.u8()
	pos.Valid = flags&0x80 != 0
	if flags&0x40 != 0 {
		lat = -lat
	}
	if flags&0x20 != 0 {
		lon = -lon
	}
	pos.Latitude, pos.Longitude = lat, lon
	a["odometer"] = b.u32()
	power := b.u8()
	powerFrac, okPower := bcd(b.take(1))
	a["power"] = float64(power) + float64(powerFrac)/100
	io := b.u8()
	a["ignition"] = io&1 != 0
	for i := 1; i <= 3; i++ {
		a["in"+strconv.Itoa(i)] = io&(1<<i) != 0
	}
	a["out1"], a["out2"] = io&(1<<4) != 0, io&(1<<5) != 0
	a["event"] = b.u8()
	switch len(frame) {
	case zipHBM1:
		a["hours"] = b.u32()
		a["battery"] = b.u16()
		if b.u8() == 0 {
			a["archive"] = true
		}
	case zipHBM2:
		cid, mcc, mnc, rssi, lac := b.u16(), b.u16(), b.u8(), b.u16(), b.u16()
		pos.Network = network(tower(mcc, mnc, lac, cid, rssi))
		b.u8() // timing advance
	}
	if b.short || !ok[0] || !ok[1] || !ok[2] || !ok[3] || !okPower {
		return protocols.Result{}, errors.New("suntech: malformed zip report")
	}
	return finish(id, pos)
}
