package simulate

import (
	"encoding/binary"
	"encoding/hex"
	"math"
)

// GT06 frames: 78 78, length, protocol number, content, serial, CRC-16/X.25
// over length..serial, 0D 0A. Positions go as 0x22 (GPS, serving cell, ACC),
// which the server acknowledges with a 0x22 frame echoing the serial once
// the position is stored.
type gt06Codec struct{}

const (
	gt06Login    = 0x01
	gt06Position = 0x22
	// Serving cell sent with each fix (MCC 208 France, MNC 1): the decoder
	// stores it as the position's network.
	gt06MCC, gt06MNC, gt06LAC, gt06CID = 208, 1, 0x2B0C, 0x00C3A1
)

func (gt06Codec) id(imei int64) string { return imeiText(imei) }

func (gt06Codec) noAck() string { return "" }

// login carries the IMEI as 8 BCD bytes (16 digits, leading 0).
func (gt06Codec) login(id string, serial uint16) []byte {
	bcd, _ := hex.DecodeString("0" + id)
	return gt06Frame(gt06Login, bcd, serial)
}

func (gt06Codec) position(_ string, f Fix, serial uint16) []byte {
	t := f.Time.UTC()
	b := make([]byte, 0, 27)
	b = append(b, byte(t.Year()-2000), byte(t.Month()), byte(t.Day()), byte(t.Hour()), byte(t.Minute()), byte(t.Second()))
	b = append(b, 0xC0|satellites) // high nibble: GPS block length 12
	b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(f.Lat)*1800000)))
	b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(f.Lon)*1800000)))
	b = append(b, byte(clampRound(f.Speed, 0, 255))) // km/h
	flags := uint16(course(f)) | 1<<12 | 1<<13       // fix valid, real-time GPS
	if f.Lat >= 0 {
		flags |= 1 << 10
	}
	if f.Lon < 0 {
		flags |= 1 << 11
	}
	b = binary.BigEndian.AppendUint16(b, flags)
	b = binary.BigEndian.AppendUint16(b, gt06MCC)
	b = append(b, gt06MNC)
	b = binary.BigEndian.AppendUint16(b, gt06LAC)
	b = append(b, gt06CID>>16&0xFF, gt06CID>>8&0xFF, gt06CID&0xFF)
	acc := byte(0)
	if f.Ignition {
		acc = 1
	}
	b = append(b, acc, 0x00, 0x00) // ACC, upload mode (timed), not a re-upload
	return gt06Frame(gt06Position, b, serial)
}

func gt06Frame(typ byte, content []byte, serial uint16) []byte {
	out := make([]byte, 0, len(content)+10)
	out = append(out, 0x78, 0x78, byte(1+len(content)+4), typ)
	out = append(out, content...)
	out = binary.BigEndian.AppendUint16(out, serial)
	out = binary.BigEndian.AppendUint16(out, crc16(out[2:], 0x8408, 0xFFFF, 0xFFFF))
	return append(out, 0x0D, 0x0A)
}

// cut reads the server's 78 78 / 79 79 frames; bytes before a header are
// dropped one at a time.
func (gt06Codec) cut(buf []byte, _ bool) reply {
	if len(buf) < 2 {
		return reply{serial: -1}
	}
	var size, typAt int
	switch {
	case buf[0] == 0x78 && buf[1] == 0x78 && len(buf) >= 3:
		size, typAt = int(buf[2])+5, 3
	case buf[0] == 0x79 && buf[1] == 0x79 && len(buf) >= 4:
		size, typAt = int(binary.BigEndian.Uint16(buf[2:]))+6, 4
	case buf[0] == 0x78 && buf[1] == 0x78, buf[0] == 0x79 && buf[1] == 0x79:
		return reply{serial: -1}
	default:
		return reply{n: 1, serial: -1}
	}
	if size < typAt+7 || size > maxReply {
		return reply{n: 2, serial: -1} // impossible or unbounded length: skip the header
	}
	if len(buf) < size {
		return reply{serial: -1}
	}
	r := reply{n: size, serial: -1}
	switch buf[typAt] {
	case gt06Login:
		r.kind = replyLogin
	case gt06Position:
		r.kind = replyAck
		r.serial = int(binary.BigEndian.Uint16(buf[size-6:]))
	}
	return r
}
