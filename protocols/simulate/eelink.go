package simulate

import (
	"encoding/binary"
	"encoding/hex"
	"math"
)

// Eelink packets "67 67 | type | length | serial | content". The login
// (0x01, IMEI in BCD) is answered with the server time; 0x12 location
// packets are answered with their type and serial once stored.
type eelinkCodec struct{}

const (
	eelinkLogin    = 0x01
	eelinkLocation = 0x12
	// status word: bit 0 fix valid, bit 1 ignition known, bit 2 ignition
	eelinkValid, eelinkIgnitionKnown, eelinkIgnition = 1, 1 << 1, 1 << 2
)

func (eelinkCodec) id(imei int64) string { return imeiText(imei) }

func (eelinkCodec) noAck() string { return "" }

func (eelinkCodec) login(id string, serial uint16) []byte {
	bcd, _ := hex.DecodeString("0" + id)
	return eelinkPacket(eelinkLogin, serial, append(bcd, 0x01, 0x00)) // language, time zone
}

// position: unix time, mask (GPS block only), latitude and longitude in
// 1/1 800 000 degree, altitude, speed km/h, course, satellites, status,
// battery (mV), two ADCs and the odometer in meters.
func (eelinkCodec) position(_ string, f Fix, serial uint16) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(f.Time.Unix()))
	b = append(b, 0x01)
	b = binary.BigEndian.AppendUint32(b, uint32(int32(math.Round(f.Lat*1800000))))
	b = binary.BigEndian.AppendUint32(b, uint32(int32(math.Round(f.Lon*1800000))))
	b = binary.BigEndian.AppendUint16(b, 0)
	b = binary.BigEndian.AppendUint16(b, uint16(clampRound(f.Speed, 0, math.MaxUint16)))
	b = binary.BigEndian.AppendUint16(b, uint16(course(f)))
	b = append(b, satellites)
	status := uint16(eelinkValid | eelinkIgnitionKnown)
	if f.Ignition {
		status |= eelinkIgnition
	}
	b = binary.BigEndian.AppendUint16(b, status)
	b = binary.BigEndian.AppendUint16(b, 4100)
	b = binary.BigEndian.AppendUint32(b, 0) // ADC 0 and 1
	// int is 32 bits on arm/v7: the clamp stays in its range.
	b = binary.BigEndian.AppendUint32(b, uint32(clampRound(f.Odometer, 0, math.MaxInt32)))
	return eelinkPacket(eelinkLocation, serial, b)
}

func eelinkPacket(typ byte, serial uint16, content []byte) []byte {
	out := []byte{0x67, 0x67, typ}
	out = binary.BigEndian.AppendUint16(out, uint16(2+len(content)))
	out = binary.BigEndian.AppendUint16(out, serial)
	return append(out, content...)
}

// cut reads the server's 67 67 packets; bytes before a header are dropped
// one at a time.
func (eelinkCodec) cut(buf []byte, _ bool) reply {
	if buf[0] != 0x67 || len(buf) > 1 && buf[1] != 0x67 {
		return reply{n: 1, serial: -1}
	}
	if len(buf) < 7 {
		return reply{serial: -1}
	}
	size := 5 + int(binary.BigEndian.Uint16(buf[3:]))
	if size < 7 || size > maxReply {
		return reply{n: 2, serial: -1}
	}
	if len(buf) < size {
		return reply{serial: -1}
	}
	r := reply{n: size, serial: -1}
	switch buf[2] {
	case eelinkLogin:
		r.kind = replyLogin
	case eelinkLocation:
		r.kind = replyAck
		r.serial = int(binary.BigEndian.Uint16(buf[5:]))
	}
	return r
}
