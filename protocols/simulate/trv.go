package simulate

import "fmt"

// TRV/IW frames "<maker><type>...#". The IW login AP00 is answered with
// BP00 and the server's time once the device is known; AP01 positions are
// answered with BP01 once stored.
type trvCodec struct{}

func (trvCodec) id(imei int64) string { return imeiText(imei) }

func (trvCodec) noAck() string { return "" }

func (trvCodec) login(id string, _ uint16) []byte { return []byte("IWAP00" + id + "#") }

// position: yyMMdd, validity, ddmm.mmmm N/S, dddmm.mmmm E/W, speed km/h (5
// chars), HHmmss, course (6 chars), GSM signal, satellites, battery %, ACC
// (1 on, 2 off), arming and working mode, then the serving cell.
func (trvCodec) position(_ string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	lat, south := ddmm(f.Lat, 2)
	lon, west := ddmm(f.Lon, 3)
	acc := 2
	if f.Ignition {
		acc = 1
	}
	return fmt.Appendf(nil, "IWAP01%sA%s%s%s%s%05.1f%s%06.2f%03d%03d090%d0000,460,0,9520,3671#",
		t.Format("060102"), lat, hemisphere(south, "N", "S"), lon, hemisphere(west, "E", "W"),
		min(f.Speed, 999.9), t.Format("150405"), f.Course, 80, satellites, acc)
}

var trvReplies = textReplies{end: '#', loginMark: "BP00", ackMark: "BP01"}

func (trvCodec) cut(buf []byte, _ bool) reply { return trvReplies.cut(buf) }
