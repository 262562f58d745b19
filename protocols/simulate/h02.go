package simulate

import "fmt"

// H02 text frames "*HQ,<id>,<type>,...#". The heartbeat HTBT serves as the
// login (the server answers it once the device is known); V1 positions are
// answered with V4 once they are stored.
type h02Codec struct{}

// h02Status is the status word: active-low alarm bits all clear (no
// alarm); bit 10 is the ignition, set when on.
const h02Status, h02IgnitionBit = 0xFFFFFFFF, 1 << 10

func (h02Codec) id(imei int64) string { return imeiText(imei) }

func (h02Codec) noAck() string { return "" }

func (h02Codec) login(id string, _ uint16) []byte { return []byte("*HQ," + id + ",HTBT#") }

func (h02Codec) position(id string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	lat, south := ddmm(f.Lat, 2)
	lon, west := ddmm(f.Lon, 3)
	status := uint32(h02Status)
	if !f.Ignition {
		status &^= h02IgnitionBit
	}
	return fmt.Appendf(nil, "*HQ,%s,V1,%s,A,%s,%s,%s,%s,%06.2f,%03d,%s,%08X#",
		id, t.Format("150405"), lat, hemisphere(south, "N", "S"), lon, hemisphere(west, "E", "W"),
		f.Speed*knotsPerKmh, course(f), t.Format("020106"), status)
}

var h02Replies = textReplies{end: '#', loginMark: ",HTBT#", ackMark: ",V4,V1,"}

func (h02Codec) cut(buf []byte, _ bool) reply { return h02Replies.cut(buf) }
