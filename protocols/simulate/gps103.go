package simulate

import (
	"bytes"
	"fmt"
)

// GPS103 (Coban) text frames ending in ';'. The log-on "##,imei:<id>,A;" is
// answered with "LOAD"; "tracker" positions get no answer.
type gps103Codec struct{}

var gps103Loaded = []byte("LOAD")

func (gps103Codec) id(imei int64) string { return imeiText(imei) }

func (gps103Codec) noAck() string { return "gps103 positions are not answered" }

func (gps103Codec) login(id string, _ uint16) []byte { return []byte("##,imei:" + id + ",A;") }

// position: local stamp (sent as UTC), F for a GPS fix, UTC time, validity,
// coordinates, speed in knots, course, then altitude, ACC and door.
func (gps103Codec) position(id string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	lat, south := ddmm(f.Lat, 2)
	lon, west := ddmm(f.Lon, 3)
	return fmt.Appendf(nil, "imei:%s,tracker,%s,,F,%s.000,A,%s,%s,%s,%s,%.2f,%.2f,,%d,0;",
		id, t.Format("060102150405"), t.Format("150405"),
		lat, hemisphere(south, "N", "S"), lon, hemisphere(west, "E", "W"),
		f.Speed*knotsPerKmh, f.Course, boolByte(f.Ignition))
}

// cut: the answers have no delimiter; only "LOAD" matters, anything else
// ("ON", commands) is dropped.
func (gps103Codec) cut(buf []byte, _ bool) reply {
	switch {
	case bytes.HasPrefix(buf, gps103Loaded):
		return reply{n: len(gps103Loaded), kind: replyLogin, serial: -1}
	case bytes.HasPrefix(gps103Loaded, buf):
		return reply{serial: -1}
	}
	return reply{n: len(buf), serial: -1}
}
