package simulate

import "fmt"

// TK103 frames "(<12-char id><type><body>)". The handshake BP00 is the
// login (answered with AP01 once the device is known); BR00 positions get
// no answer.
type tk103Codec struct{}

// id is the IMEI's last 12 digits: the fixed-width header has no room for 15.
func (tk103Codec) id(imei int64) string { return fmt.Sprintf("%012d", imei%1_000_000_000_000) }

func (tk103Codec) noAck() string { return "tk103 BR00 positions are not acknowledged" }

func (tk103Codec) login(id string, _ uint16) []byte { return []byte("(" + id + "BP00HSO)") }

// position: yyMMdd, validity, ddmm.mmmm N/S, dddmm.mmmm E/W, speed km/h (5
// chars), HHmmss, course (6 chars), status flags (charging, ignition, I/O,
// fuel), L and the odometer in hex meters.
func (tk103Codec) position(id string, f Fix, _ uint16) []byte {
	t := f.Time.UTC()
	lat, south := ddmm(f.Lat, 2)
	lon, west := ddmm(f.Lon, 3)
	return fmt.Appendf(nil, "(%sBR00%sA%s%s%s%s%05.1f%s%06.2f0%d000000L%08X)",
		id, t.Format("060102"), lat, hemisphere(south, "N", "S"), lon, hemisphere(west, "E", "W"),
		min(f.Speed, 999.9), t.Format("150405"), f.Course, boolByte(f.Ignition), clampRound(f.Odometer, 0, 1<<31-1))
}

var tk103Replies = textReplies{end: ')', loginMark: "AP01"}

func (tk103Codec) cut(buf []byte, _ bool) reply { return tk103Replies.cut(buf) }
