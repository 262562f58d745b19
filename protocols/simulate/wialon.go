package simulate

import "fmt"

// Wialon IPS 2.0 lines "#<type>#<message>;<CRC-16/ARC>\r\n". The login
// "#L#2.0;<imei>;NA;<crc>" is answered "#AL#1"; each "#D#" extended data
// packet "#AD#1" once stored.
type wialonCodec struct{}

func (wialonCodec) id(imei int64) string { return imeiText(imei) }

func (wialonCodec) noAck() string { return "" }

// withCRC appends the CRC of msg (which ends with ';') and the line end.
func withCRC(typ, msg string) []byte {
	return fmt.Appendf(nil, "#%s#%s%04X\r\n", typ, msg, crc16([]byte(msg), 0xA001, 0, 0))
}

func (wialonCodec) login(id string, _ uint16) []byte { return withCRC("L", "2.0;"+id+";NA;") }

// position: ddmmyy;hhmmss, ddmm.mmmm N/S, dddmm.mmmm E/W, km/h, course,
// altitude, satellites, hdop, inputs (bit 0 ignition), outputs, no ADC or
// iButton, and the odometer in metres as a decimal parameter.
func (wialonCodec) position(_ string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	lat, south := ddmm(f.Lat, 2)
	lon, west := ddmm(f.Lon, 3)
	return withCRC("D", fmt.Sprintf("%s;%s;%s;%s;%s;%s;%.2f;%.2f;NA;%d;1.0;%d;0;NA;NA;odometer:2:%.1f;",
		t.Format("020106"), t.Format("150405"), lat, hemisphere(south, "N", "S"), lon, hemisphere(west, "E", "W"),
		f.Speed, f.Course, satellites, boolByte(f.Ignition), f.Odometer))
}

var wialonReplies = textReplies{end: '\n', loginMark: "#AL#1", ackMark: "#AD#1"}

func (wialonCodec) cut(buf []byte, _ bool) reply { return wialonReplies.cut(buf) }
