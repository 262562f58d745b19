package simulate

import (
	"encoding/binary"
	"math"
	"strconv"
)

// Ruptela: every frame is length (2), IMEI (8), command, data and a
// CRC-16/KERMIT (2). The device identifies itself with command 15, which
// the server answers at once (type 115); positions go as command 1 with
// one record, answered with type 100 once stored.
type ruptelaCodec struct{}

const (
	ruptelaIdentify     = 15
	ruptelaRecords      = 1
	ruptelaIdentifyDone = 100 + ruptelaIdentify
	ruptelaRecordsAck   = 100
	// IO ids sent with each record: ignition (1 byte), power in mV (2),
	// odometer in m (4).
	ruptelaIOIgnition = 251
	ruptelaIOPower    = 29
	ruptelaIOOdometer = 65
)

func (ruptelaCodec) id(imei int64) string { return imeiText(imei) }

func (ruptelaCodec) noAck() string { return "" }

func (ruptelaCodec) login(id string, _ uint16) []byte {
	return ruptelaFrame(id, ruptelaIdentify, nil)
}

func (ruptelaCodec) position(id string, f Fix, _ uint16) []byte {
	d := make([]byte, 0, 48)
	d = append(d, 0, 1) // no records left, one record
	d = binary.BigEndian.AppendUint32(d, uint32(f.Time.Unix()))
	d = append(d, 0, 0) // time extension, priority
	d = binary.BigEndian.AppendUint32(d, uint32(int32(math.Round(f.Lon*1e7))))
	d = binary.BigEndian.AppendUint32(d, uint32(int32(math.Round(f.Lat*1e7))))
	d = binary.BigEndian.AppendUint16(d, 0) // altitude
	d = binary.BigEndian.AppendUint16(d, uint16(clampRound(f.Course*100, 0, 35999)))
	d = append(d, satellites)
	d = binary.BigEndian.AppendUint16(d, uint16(clampRound(f.Speed, 0, math.MaxUint16)))
	d = append(d, 10, 0) // HDOP 1.0, event 0
	d = append(d, 1, ruptelaIOIgnition, boolByte(f.Ignition))
	d = append(d, 1, ruptelaIOPower)
	d = binary.BigEndian.AppendUint16(d, tkPowerMV)
	d = append(d, 1, ruptelaIOOdometer)
	d = binary.BigEndian.AppendUint32(d, uint32(clampRound(f.Odometer, 0, math.MaxInt32)))
	d = append(d, 0) // no 8-byte IO
	return ruptelaFrame(id, ruptelaRecords, d)
}

func ruptelaFrame(id string, cmd byte, data []byte) []byte {
	imei, _ := strconv.ParseUint(id, 10, 64)
	out := binary.BigEndian.AppendUint16(make([]byte, 0, 13+len(data)), uint16(9+len(data)))
	out = binary.BigEndian.AppendUint64(out, imei)
	out = append(append(out, cmd), data...)
	return binary.BigEndian.AppendUint16(out, crc16(out[2:], 0x8408, 0, 0))
}

// cut reads the server's frames: length (2), type, content, CRC (2).
func (ruptelaCodec) cut(buf []byte, _ bool) reply {
	if len(buf) < 2 {
		return reply{serial: -1}
	}
	size := 4 + int(binary.BigEndian.Uint16(buf))
	if size > maxReply {
		return reply{n: len(buf), serial: -1}
	}
	if len(buf) < size {
		return reply{serial: -1}
	}
	r := reply{n: size, serial: -1}
	switch buf[2] {
	case ruptelaIdentifyDone:
		r.kind = replyLogin
	case ruptelaRecordsAck:
		r.kind = replyAck
	}
	return r
}
