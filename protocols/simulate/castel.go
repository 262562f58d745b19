package simulate

import (
	"encoding/binary"
	"math"
)

// Castel (Sinocastel SC, version 4): @@, length (2, LE), version, the id
// in 20 bytes, type (2, BE), body, CRC-16/X-25 (2, LE), \r\n. The device
// logs in with 0x1001 (answered 0x9001 at once) and sends positions as
// 0x4001 GPS data, which Sinocastel servers do not answer.
type castelCodec struct{}

const (
	castelVersion    = 4
	castelLogin      = 0x1001
	castelLoginReply = 0x9001
	castelGPS        = 0x4001
	castelIgnition   = 1 << 18 // state bit of the statistics block
	cmPerSecPerKmh   = 100000.0 / 3600
)

func (castelCodec) id(imei int64) string { return imeiText(imei) }

func (castelCodec) noAck() string { return "Sinocastel servers answer no GPS data (0x4001)" }

func (castelCodec) login(id string, _ uint16) []byte {
	body := castelStat(Fix{})
	body = append(body, 0) // no positions
	return castelFrame(id, castelLogin, body)
}

func (castelCodec) position(id string, f Fix, _ uint16) []byte {
	body := []byte{0} // not from memory
	body = append(body, castelStat(f)...)
	body = append(body, 1)
	t := f.Time.UTC()
	body = append(body, byte(t.Day()), byte(t.Month()), byte(t.Year()-2000), byte(t.Hour()), byte(t.Minute()), byte(t.Second()))
	body = binary.LittleEndian.AppendUint32(body, uint32(math.Round(math.Abs(f.Lat)*3600000)))
	body = binary.LittleEndian.AppendUint32(body, uint32(math.Round(math.Abs(f.Lon)*3600000)))
	body = binary.LittleEndian.AppendUint16(body, uint16(clampRound(f.Speed*cmPerSecPerKmh, 0, math.MaxUint16)))
	body = binary.LittleEndian.AppendUint16(body, uint16(clampRound(f.Course*10, 0, 3599)))
	flags := byte(satellites<<4 | 0x0C) // fixed
	if f.Lat >= 0 {
		flags |= 0x02
	}
	if f.Lon >= 0 {
		flags |= 0x01
	}
	return castelFrame(id, castelGPS, append(body, flags))
}

// castelStat is the statistics block: ACC-on time, UTC time, odometer,
// trip odometer, fuel consumption (4 each), current fuel (2), state (4)
// and 8 reserved bytes.
func castelStat(f Fix) []byte {
	b := make([]byte, 0, 34)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(f.Time.Unix()))
	b = binary.LittleEndian.AppendUint32(b, uint32(clampRound(f.Odometer, 0, math.MaxInt32)))
	b = append(b, make([]byte, 4+4+2)...)
	var state uint32
	if f.Ignition {
		state = castelIgnition
	}
	b = binary.LittleEndian.AppendUint32(b, state)
	return append(b, make([]byte, 8)...)
}

func castelFrame(id string, typ uint16, body []byte) []byte {
	out := append(make([]byte, 0, 31+len(body)), '@', '@', 0, 0, castelVersion)
	out = append(out, id...)
	out = append(out, make([]byte, 20-len(id))...)
	out = binary.BigEndian.AppendUint16(out, typ)
	out = append(out, body...)
	binary.LittleEndian.PutUint16(out[2:], uint16(len(out)+4))
	out = binary.LittleEndian.AppendUint16(out, crc16(out, 0x8408, 0xFFFF, 0xFFFF))
	return append(out, '\r', '\n')
}

// cut reads the server's @@ frames by their length field; bytes before a
// header are dropped one at a time.
func (castelCodec) cut(buf []byte, _ bool) reply {
	if buf[0] != '@' || len(buf) > 1 && buf[1] != '@' {
		return reply{n: 1, serial: -1}
	}
	if len(buf) < 4 {
		return reply{serial: -1}
	}
	size := int(binary.LittleEndian.Uint16(buf[2:]))
	if size < 31 || size > maxReply {
		return reply{n: 1, serial: -1}
	}
	if len(buf) < size {
		return reply{serial: -1}
	}
	r := reply{n: size, serial: -1}
	if binary.BigEndian.Uint16(buf[25:]) == castelLoginReply {
		r.kind = replyLogin
	}
	return r
}
