package simulate

import (
	"encoding/binary"
	"math"
)

// Teltonika TCP: the IMEI handshake (2-byte length, ASCII digits) answered
// with 01, then AVL packets: 4 zero bytes, data length, codec 8 data with
// one record, CRC-16/IBM over the data. The server answers a stored packet
// with its record count as 4 bytes.
type teltonikaCodec struct{}

// Codec 8 IO elements sent with each record.
const (
	tkIOIgnition = 239 // 1 byte
	tkIOMovement = 240 // 1 byte
	tkIOPower    = 66  // 2 bytes, mV
	tkIOOdometer = 16  // 4 bytes, meters
	tkPowerMV    = 12600
)

func (teltonikaCodec) id(imei int64) string { return imeiText(imei) }

func (teltonikaCodec) noAck() string { return "" }

func (teltonikaCodec) login(id string, _ uint16) []byte {
	return append(binary.BigEndian.AppendUint16(nil, uint16(len(id))), id...)
}

func (teltonikaCodec) position(_ string, f Fix, _ uint16) []byte {
	d := make([]byte, 0, 48)
	d = append(d, 0x08, 1) // codec 8, one record
	d = binary.BigEndian.AppendUint64(d, uint64(f.Time.UnixMilli()))
	d = append(d, 0) // priority low
	d = binary.BigEndian.AppendUint32(d, uint32(int32(math.Round(f.Lon*1e7))))
	d = binary.BigEndian.AppendUint32(d, uint32(int32(math.Round(f.Lat*1e7))))
	d = binary.BigEndian.AppendUint16(d, 0) // altitude
	d = binary.BigEndian.AppendUint16(d, uint16(course(f)))
	d = append(d, satellites)
	d = binary.BigEndian.AppendUint16(d, uint16(clampRound(f.Speed, 0, math.MaxUint16)))
	d = append(d, 0, 4) // event IO (none), total IO count
	d = append(d, 2, tkIOIgnition, boolByte(f.Ignition), tkIOMovement, boolByte(f.Speed > 0))
	d = append(d, 1, tkIOPower)
	d = binary.BigEndian.AppendUint16(d, tkPowerMV)
	d = append(d, 1, tkIOOdometer)
	d = binary.BigEndian.AppendUint32(d, uint32(clampRound(f.Odometer, 0, math.MaxInt32)))
	d = append(d, 0) // no 8-byte IO
	d = append(d, 1) // closing record count

	out := make([]byte, 8, len(d)+12)
	binary.BigEndian.PutUint32(out[4:], uint32(len(d)))
	out = append(out, d...)
	return binary.BigEndian.AppendUint32(out, uint32(crc16(d, 0xA001, 0, 0)))
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// cut reads the handshake answer (one byte) before login, then 4-byte
// record counts, skipping any codec 12 command the server sends.
func (teltonikaCodec) cut(buf []byte, loggedIn bool) reply {
	if !loggedIn {
		r := reply{n: 1, serial: -1}
		if buf[0] == 0x01 {
			r.kind = replyLogin
		}
		return r
	}
	if len(buf) < 4 {
		return reply{serial: -1}
	}
	switch count := binary.BigEndian.Uint32(buf); {
	case count > 0 && count <= 255: // a packet holds at most 255 records
		return reply{n: 4, kind: replyAck, serial: -1}
	case count > 255:
		return reply{n: 1, serial: -1} // not an answer: resynchronise
	}
	if len(buf) < 8 {
		return reply{serial: -1}
	}
	size := 12 + int(binary.BigEndian.Uint32(buf[4:]))
	if size > maxReply {
		return reply{n: len(buf), serial: -1}
	}
	if len(buf) < size {
		return reply{serial: -1}
	}
	return reply{n: size, serial: -1}
}
