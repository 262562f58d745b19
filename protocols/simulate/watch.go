package simulate

import (
	"fmt"
	"math"
)

// Watch frames "[3G*<id>*<len hex>*<content>]". The link frame LK is the
// login (answered with LK once the device is known); UD positions get no
// answer.
type watchCodec struct{}

// Watch status word: no alarm bits; bit 4 is set while stationary (the
// makers' documents), and decodes to motion false.
const watchStationary = 1 << 4

func (watchCodec) id(imei int64) string { return imeiText(imei) }

func (watchCodec) noAck() string { return "watch UD positions are not answered" }

func (watchCodec) login(id string, _ uint16) []byte { return watchFrame(id, "LK") }

func (watchCodec) position(id string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	status := 0
	if f.Speed == 0 {
		status |= watchStationary
	}
	// date, time, validity, lat, N/S, lon, E/W, speed km/h, course,
	// altitude, satellites, rssi, battery %, steps, tumbles, status, cells.
	content := fmt.Sprintf("UD,%s,%s,A,%.6f,%s,%.6f,%s,%.2f,%.1f,0,%d,80,90,0,0,%08X,0",
		t.Format("020106"), t.Format("150405"),
		math.Abs(f.Lat), hemisphere(f.Lat < 0, "N", "S"), math.Abs(f.Lon), hemisphere(f.Lon < 0, "E", "W"),
		f.Speed, f.Course, satellites, status)
	return watchFrame(id, content)
}

func watchFrame(id, content string) []byte {
	return fmt.Appendf(nil, "[3G*%s*%04X*%s]", id, len(content), content)
}

var watchReplies = textReplies{end: ']', loginMark: "*LK]"}

func (watchCodec) cut(buf []byte, _ bool) reply { return watchReplies.cut(buf) }
