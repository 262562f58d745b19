package simulate

import (
	"bytes"
	"fmt"
	"math"
)

// JT600 text frames "(<10-digit id>,U01,…)": every frame carries the id,
// so there is no login; U01 positions are answered with (S39) once stored.
type jt600Codec struct{}

// mphPerKmh converts the route's km/h to the mph of U01 reports.
const mphPerKmh = 1000 / 1609.344

// id is the IMEI's last 10 digits, the width of Jointech device ids.
func (jt600Codec) id(imei int64) string { return fmt.Sprintf("%010d", imei%10_000_000_000) }

func (jt600Codec) noAck() string { return "" }

func (jt600Codec) login(string, uint16) []byte { return nil }

// position: ddMMyy, hhmmss, T (fix), degrees with hemispheres, speed mph,
// course, satellites, battery %, status bits, cell id, LAC, GSM signal,
// odometer km, serial.
func (jt600Codec) position(id string, f Fix, serial uint16) []byte {
	t := f.Time.UTC()
	return fmt.Appendf(nil, "(%s,U01,%s,%s,T,%.6f,%s,%.6f,%s,%.2f,%d,%d,80%%,00000000000000,10133,5173,22,0,%d)",
		id, t.Format("020106"), t.Format("150405"), math.Abs(f.Lat), hemisphere(f.Lat < 0, "N", "S"),
		math.Abs(f.Lon), hemisphere(f.Lon < 0, "E", "W"), f.Speed*mphPerKmh, course(f), satellites, serial%1000)
}

// cut reads the server's "( … )" messages: (S39) acknowledges a U01.
func (jt600Codec) cut(buf []byte, _ bool) reply {
	i := bytes.IndexByte(buf, ')')
	if i < 0 {
		if len(buf) > maxReply {
			return reply{n: len(buf), serial: -1} // not this protocol: drop
		}
		return reply{serial: -1}
	}
	r := reply{n: i + 1, serial: -1}
	if string(buf[:i+1]) == jt600Ack {
		r.kind = replyAck
	}
	return r
}

const jt600Ack = "(S39)"
