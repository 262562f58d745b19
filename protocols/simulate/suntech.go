package simulate

import (
	"bytes"
	"fmt"
)

// Suntech ST300 status reports "ST300STT;<id>;...\r". The device has no
// login (its id is in every report) and the server answers nothing.
type suntechCodec struct{}

// id is the IMEI's last 9 digits, the width of an ST300 device id.
func (suntechCodec) id(imei int64) string { return fmt.Sprintf("%09d", imei%1_000_000_000) }

func (suntechCodec) noAck() string { return "suntech reports are not answered" }

func (suntechCodec) login(string, uint16) []byte { return nil }

// position: model 40, firmware 313, date and time, cell, signed degrees,
// km/h, course, satellites, fix, odometer (m), power, I/O (ignition
// first), mode and report number.
func (suntechCodec) position(id string, f Fix, serial uint16) []byte {
	t := f.Time.UTC()
	return fmt.Appendf(nil, "ST300STT;%s;40;313;%s;%s;c99e48;%+.6f;%+.6f;%07.3f;%06.2f;%d;1;%d;12.50;%d00000;1;%04d\r",
		id, t.Format("20060102"), t.Format("15:04:05"), f.Lat, f.Lon, f.Speed, f.Course, satellites,
		clampRound(f.Odometer, 0, 1<<31-1), boolByte(f.Ignition), serial%10000)
}

// cut: the server sends only commands, each ending in '\r'.
func (suntechCodec) cut(buf []byte, _ bool) reply {
	r := reply{serial: -1}
	if i := bytes.IndexByte(buf, '\r'); i >= 0 {
		r.n = i + 1
	} else if len(buf) > maxReply {
		r.n = len(buf) // not this protocol: drop
	}
	return r
}
