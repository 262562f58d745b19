package simulate

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Queclink @Track text reports "+RESP:GTFRI,...,<count>$" in the GV300
// layout. The heartbeat +ACK:GTHBD serves as the login (the server answers
// +SACK:GTHBD once the device is known); each report is acknowledged with
// +SACK:<count>$ once stored, and the count is the frame's serial.
type gl200Codec struct{}

// gl200Version is a GV300 protocol version: the layout the server reads
// follows the device type (06).
const gl200Version = "060100"

func (gl200Codec) id(imei int64) string { return imeiText(imei) }

func (gl200Codec) noAck() string { return "" }

func (gl200Codec) login(id string, serial uint16) []byte {
	return fmt.Appendf(nil, "+ACK:GTHBD,%s,%s,,20260101000000,%04X$", gl200Version, id, serial)
}

// position: external power mV, report id and type, one point (accuracy,
// speed km/h, azimuth, altitude, longitude, latitude, fix time, cell),
// odometer km, hour meter and analog inputs empty, battery %, the device
// status (ignition in its high byte: 0x22 on, 0x12 off), send time and
// count.
func (gl200Codec) position(id string, f Fix, serial uint16) []byte {
	t := f.Time.UTC().Format("20060102150405")
	status := "120000"
	if f.Ignition {
		status = "220000"
	}
	return fmt.Appendf(nil, "+RESP:GTFRI,%s,%s,,12500,10,1,1,%.1f,%d,0.0,%.6f,%.6f,%s,0460,0000,18d8,6141,00,%.1f,,,,100,%s,,,,%s,%04X$",
		gl200Version, id, min(f.Speed, 999.9), course(f), f.Lon, f.Lat, t, f.Odometer/1000, status, t, serial)
}

// cut reads one answer ending in '$': the heartbeat answer is the login,
// "+SACK:<count>$" a report's acknowledgement.
func (gl200Codec) cut(buf []byte, _ bool) reply {
	i := bytes.IndexByte(buf, '$')
	if i < 0 {
		if len(buf) > maxReply {
			return reply{n: len(buf), serial: -1}
		}
		return reply{serial: -1}
	}
	r := reply{n: i + 1, serial: -1}
	msg := string(buf[:i])
	if strings.HasPrefix(msg, "+SACK:GTHBD,") {
		r.kind = replyLogin
	} else if count, ok := strings.CutPrefix(msg, "+SACK:"); ok {
		if n, err := strconv.ParseUint(count, 16, 16); err == nil {
			r.kind, r.serial = replyAck, int(n)
		}
	}
	return r
}
