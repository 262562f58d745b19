package simulate

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// Meiligao "$$ <length> <BCD id> <command> <data> <CRC> \r\n". The login
// 0x5000 is answered with 0x4000; 0x9955 positions are not answered.
type meiligaoCodec struct{}

const (
	mlgLogin, mlgLoginReply, mlgPosition = 0x5000, 0x4000, 0x9955
	mlgHeader                            = 13 // "$$", length, id, command
)

// id is the IMEI's last 14 digits: the BCD id holds 14.
func (meiligaoCodec) id(imei int64) string { return imeiText(imei)[1:] }

func (meiligaoCodec) noAck() string { return "meiligao 0x9955 positions are not acknowledged" }

func (meiligaoCodec) login(id string, _ uint16) []byte { return meiligaoFrame(id, mlgLogin, nil) }

// position: "hhmmss.sss,A,ddmm.mmmm,N,dddmm.mmmm,E,knots,course,ddmmyy,,"
// then "|HDOP|altitude|state|ADC1,ADC2|odometer (metres)".
func (meiligaoCodec) position(id string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	lat, south := ddmm(f.Lat, 2)
	lon, west := ddmm(f.Lon, 3)
	data := fmt.Appendf(nil, "%s.000,A,%s,%s,%s,%s,%.2f,%.2f,%s,,|1.0|0|0000|0000,0000|%d",
		t.Format("150405"), lat, hemisphere(south, "N", "S"), lon, hemisphere(west, "E", "W"),
		f.Speed*knotsPerKmh, f.Course, t.Format("020106"), clampRound(f.Odometer, 0, 999_999_999))
	return meiligaoFrame(id, mlgPosition, data)
}

func meiligaoFrame(id string, cmd uint16, data []byte) []byte {
	bcd, _ := hex.DecodeString((id + "FFFFFFFFFFFFFF")[:14])
	n := mlgHeader + len(data) + 4
	b := make([]byte, 0, n)
	b = append(b, '$', '$', byte(n>>8), byte(n))
	b = append(b, bcd...)
	b = binary.BigEndian.AppendUint16(b, cmd)
	b = append(b, data...)
	b = binary.BigEndian.AppendUint16(b, crcCCITT(b))
	return append(b, '\r', '\n')
}

// crcCCITT is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, not
// reflected), unlike the reflected CRCs of crc16.
func crcCCITT(b []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// cut reads one server frame "@@ <length> ...": the login answer, or a
// command. Bytes that start no such frame are dropped one at a time.
func (meiligaoCodec) cut(buf []byte, _ bool) reply {
	if buf[0] != '@' || len(buf) > 1 && buf[1] != '@' {
		return reply{n: 1, serial: -1}
	}
	if len(buf) < mlgHeader {
		return reply{serial: -1}
	}
	n := int(binary.BigEndian.Uint16(buf[2:4]))
	if n < mlgHeader+4 {
		return reply{n: 1, serial: -1}
	}
	if len(buf) < n {
		return reply{serial: -1}
	}
	r := reply{n: n, serial: -1}
	if binary.BigEndian.Uint16(buf[11:13]) == mlgLoginReply {
		r.kind = replyLogin
	}
	return r
}
