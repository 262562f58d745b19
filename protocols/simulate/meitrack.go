package simulate

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// Meitrack "$$<flag><length>,<imei>,<type>,<data>*<sum>\r\n". The device
// has no login: it asks for an acknowledgement (AAC), which serves as one
// since the server answers it once it knows the device. Positions go in
// CCC batches of one binary record, which the server acknowledges with
// the record count once they are stored.
type meitrackCodec struct{}

func (meitrackCodec) id(imei int64) string { return imeiText(imei) }

func (meitrackCodec) noAck() string { return "" }

func (meitrackCodec) login(id string, _ uint16) []byte { return meitrackFrame(id, "AAC,1") }

// meitrackEpoch is the origin of CCC record times.
var meitrackEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// position is a CCC batch: protocol version, record size, records still
// cached, then one 52-byte record (little-endian): event 35 (timed
// report), location in millionths of a degree, time, fix, satellites,
// GSM signal, km/h, course, HDOP, altitude, odometer (metres), runtime,
// no cell, status, analog values and geofence.
func (meitrackCodec) position(id string, f Fix, _ uint16) []byte {
	r := make([]byte, 0, 60)
	r = binary.LittleEndian.AppendUint16(r, 0x0102)
	r = binary.LittleEndian.AppendUint16(r, 52)
	r = binary.LittleEndian.AppendUint32(r, 0)
	r = append(r, 35)
	r = binary.LittleEndian.AppendUint32(r, uint32(int32(math.Round(f.Lat*1e6))))
	r = binary.LittleEndian.AppendUint32(r, uint32(int32(math.Round(f.Lon*1e6))))
	r = binary.LittleEndian.AppendUint32(r, uint32(f.Time.Sub(meitrackEpoch)/time.Second))
	r = append(r, 1, satellites, 20)
	r = binary.LittleEndian.AppendUint16(r, uint16(clampRound(f.Speed, 0, math.MaxUint16)))
	r = binary.LittleEndian.AppendUint16(r, uint16(course(f)))
	r = binary.LittleEndian.AppendUint16(r, 10) // HDOP 1.0
	r = binary.LittleEndian.AppendUint16(r, 0)  // altitude
	r = binary.LittleEndian.AppendUint32(r, uint32(clampRound(f.Odometer, 0, math.MaxInt32)))
	r = append(r, make([]byte, 4+8)...)           // runtime, cell
	r = binary.LittleEndian.AppendUint16(r, 0)    // status
	r = binary.LittleEndian.AppendUint16(r, 0)    // adc1
	r = binary.LittleEndian.AppendUint16(r, 420)  // battery, 1/100 V
	r = binary.LittleEndian.AppendUint16(r, 1200) // power
	r = binary.LittleEndian.AppendUint32(r, 0)    // geofence
	return meitrackFrame(id, "CCC,"+string(r))
}

// meitrackFrame wraps content: the length counts from the comma after it
// through the closing "\r\n"; the checksum is the byte sum through '*'.
func meitrackFrame(id, content string) []byte {
	s := fmt.Sprintf("$$A%d,%s,%s*", 1+len(id)+1+len(content)+5, id, content)
	var sum byte
	for i := range len(s) {
		sum += s[i]
	}
	return fmt.Appendf(nil, "%s%02X\r\n", s, sum)
}

var meitrackReplies = textReplies{end: '\n', loginMark: ",AAC,1*", ackMark: ",CCC,"}

func (meitrackCodec) cut(buf []byte, _ bool) reply { return meitrackReplies.cut(buf) }
