package simulate

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"
)

// JT/T 808 frames in the 2019 layout: 7E, message id, attributes (body
// length, version flag), version 1, the IMEI as a 10-byte BCD terminal id,
// serial, body, XOR check, 7E, with 7E and 7D escaped. The device
// registers (0x0100, answered 0x8100) and sends 0x0200 locations, which
// the server acknowledges with 0x8001 echoing the serial once stored.
type jt808Codec struct{}

const (
	jt808Register         = 0x0100
	jt808Location         = 0x0200
	jt808GeneralResponse  = 0x8001
	jt808RegisterResponse = 0x8100
)

// jt808Zone is the terminals' clock, China standard time.
var jt808Zone = time.FixedZone("GMT+8", 8*3600)

// id is the IMEI without leading zeros: the server strips the zeros that
// pad it to the terminal id's 20 digits.
func (jt808Codec) id(imei int64) string { return fmt.Sprint(imei) }

func (jt808Codec) noAck() string { return "" }

// login is the register message: province, city, maker (11), model (30),
// terminal id (30), plate colour, plate.
func (jt808Codec) login(id string, serial uint16) []byte {
	body := []byte{0, 44, 3, 0x20}
	body = append(body, padded("FLEETD", 11)...)
	body = append(body, padded("SIMULATED", 30)...)
	body = append(body, padded(id, 30)...)
	body = append(body, 0) // no plate
	return jt808Frame(jt808Register, id, serial, body)
}

func padded(s string, n int) []byte {
	b := make([]byte, n)
	copy(b, s)
	return b
}

func (jt808Codec) position(id string, f Fix, serial uint16) []byte {
	status := uint32(1 << 1) // fix valid
	if f.Ignition {
		status |= 1
	}
	if f.Lat < 0 {
		status |= 1 << 2
	}
	if f.Lon < 0 {
		status |= 1 << 3
	}
	b := binary.BigEndian.AppendUint32(nil, 0) // no alarm
	b = binary.BigEndian.AppendUint32(b, status)
	b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(f.Lat)*1e6)))
	b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(f.Lon)*1e6)))
	b = binary.BigEndian.AppendUint16(b, 0)                                         // altitude
	b = binary.BigEndian.AppendUint16(b, uint16(clampRound(f.Speed*10, 0, 0xFFFF))) // 0.1 km/h
	b = binary.BigEndian.AppendUint16(b, uint16(course(f)))
	t := f.Time.In(jt808Zone)
	for _, v := range []int{t.Year() % 100, int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second()} {
		b = append(b, byte(v/10<<4|v%10))
	}
	b = append(b, 0x01, 4) // odometer, 0.1 km
	b = binary.BigEndian.AppendUint32(b, uint32(math.Round(f.Odometer/100)))
	b = append(b, 0x31, 1, satellites)
	return jt808Frame(jt808Location, id, serial, b)
}

func jt808Frame(typ uint16, id string, serial uint16, body []byte) []byte {
	u := binary.BigEndian.AppendUint16(nil, typ)
	u = binary.BigEndian.AppendUint16(u, uint16(len(body))|1<<14)
	u = append(u, 1) // protocol version
	digits := strings.Repeat("0", 20-len(id)) + id
	for i := 0; i < 20; i += 2 {
		u = append(u, (digits[i]-'0')<<4|(digits[i+1]-'0'))
	}
	u = binary.BigEndian.AppendUint16(u, serial)
	u = append(u, body...)
	var x byte
	for _, c := range u {
		x ^= c
	}
	u = append(u, x)
	out := []byte{0x7E}
	for _, c := range u {
		switch c {
		case 0x7E, 0x7D:
			out = append(out, 0x7D, c-0x7C)
		default:
			out = append(out, c)
		}
	}
	return append(out, 0x7E)
}

// cut reads the server's 7E frames; bytes before a 7E are dropped one at a
// time. A 0x8001 answering a location is its ACK, with the serial echoed.
func (jt808Codec) cut(buf []byte, _ bool) reply {
	if buf[0] != 0x7E {
		return reply{n: 1, serial: -1}
	}
	end := -1
	for i := 1; i < len(buf) && i < maxReply; i++ {
		if buf[i] == 0x7E {
			end = i
			break
		}
	}
	switch {
	case end < 0 && len(buf) >= maxReply:
		return reply{n: 1, serial: -1}
	case end < 0:
		return reply{serial: -1}
	}
	r := reply{n: end + 1, serial: -1}
	var u []byte
	for i := 1; i < end; i++ {
		c := buf[i]
		if c == 0x7D && i+1 < end {
			i++
			c = 0x7C + buf[i]
		}
		u = append(u, c)
	}
	if len(u) < 5 {
		return r
	}
	at := 4 + 6 + 2 // id, attributes, terminal id, serial
	if u[2]&0x40 != 0 {
		at = 4 + 1 + 10 + 2
	}
	body := u[min(at, len(u)):]
	switch binary.BigEndian.Uint16(u) {
	case jt808RegisterResponse:
		r.kind = replyLogin
	case jt808GeneralResponse:
		if len(body) >= 4 && binary.BigEndian.Uint16(body[2:]) == jt808Location {
			r.kind = replyAck
			r.serial = int(binary.BigEndian.Uint16(body))
		}
	}
	return r
}
