package simulate

import (
	"fmt"
	"math"
)

// T55 NMEA lines: "$PGID,<imei>*XX" names the device, "$GPRMC" sentences
// follow. The server never answers either.
type t55Codec struct{}

func (t55Codec) id(imei int64) string { return imeiText(imei) }

func (t55Codec) noAck() string { return "t55 sentences are not answered" }

func (t55Codec) silentLogin() string { return "t55 identification lines are not answered" }

func (t55Codec) login(id string, _ uint16) []byte { return nmeaLine("PGID," + id) }

// position: RMC with time, validity, ddmm.mmmm N/S, dddmm.mmmm E/W, speed
// in knots, course, ddmmyy, no magnetic variation.
func (t55Codec) position(_ string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	lat, south := ddmm(f.Lat, 2)
	lon, west := ddmm(f.Lon, 3)
	return nmeaLine(fmt.Sprintf("GPRMC,%s.000,A,%s,%s,%s,%s,%.2f,%.2f,%s,,,A",
		t.Format("150405"), lat, hemisphere(south, "N", "S"), lon, hemisphere(west, "E", "W"),
		f.Speed*knotsPerKmh, math.Mod(f.Course, 360), t.Format("020106")))
}

// nmeaLine frames a sentence body: "$", the body, "*", the XOR of its
// bytes in two hex digits, CRLF.
func nmeaLine(body string) []byte {
	var sum byte
	for i := 0; i < len(body); i++ {
		sum ^= body[i]
	}
	return fmt.Appendf(nil, "$%s*%02X\r\n", body, sum)
}

// cut drops whatever arrives: the server sends nothing but commands.
func (t55Codec) cut(buf []byte, _ bool) reply { return reply{n: len(buf), serial: -1} }
