package simulate

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// replyKind classifies a message the server sends to a simulated device.
type replyKind int

const (
	replyOther replyKind = iota // command, heartbeat answer, non-durable reply
	replyLogin                  // the answer to the login frame
	replyAck                    // a position frame is durably stored
)

// reply is one server message cut from the start of the received bytes.
type reply struct {
	n      int // bytes consumed; 0 means more bytes are needed
	kind   replyKind
	serial int // serial number the ack echoes, -1 when the protocol has none
}

// codec is the device side of one TCP protocol: the inverse of the
// decoder in protocols/<name>.
type codec interface {
	// id is the device identifier the protocol carries for an IMEI.
	id(imei int64) string
	// login is the first frame after connecting; the server answers it
	// once it knows the device. nil: the protocol has none (the device id
	// is in every frame and nothing is answered).
	// once it knows the device. nil: the protocol has no login (every
	// frame carries the id), and positions go at once.
	login(id string, serial uint16) []byte
	// position is one position frame.
	position(id string, f Fix, serial uint16) []byte
	// noAck says why position frames get no answer after storage; "" when
	// the server acknowledges them once they are durable.
	noAck() string
	// cut reads one message at the start of buf (non-empty); loggedIn tells
	// whether the login answer has been seen.
	cut(buf []byte, loggedIn bool) reply
}

// silentLogin is implemented by codecs of protocols that never answer the
// identification (t55): the device sends its positions without waiting.
type silentLogin interface {
	// silentLogin says why the login gets no answer.
	silentLogin() string
}

// codecs are the TCP protocols; osmand, over HTTP, is handled apart.
var codecs = map[string]codec{
	"gl200":     gl200Codec{},
	"castel":    castelCodec{},
	"gps103":    gps103Codec{},
	"gt06":      gt06Codec{},
	"eelink":    eelinkCodec{},
	"h02":       h02Codec{},
	"meiligao":  meiligaoCodec{},
	"meitrack":  meitrackCodec{},
	"suntech":   suntechCodec{},
	"jt600":     jt600Codec{},
	"ruptela":   ruptelaCodec{},
	"jt808":     jt808Codec{},
	"t55":       t55Codec{},
	"teltonika": teltonikaCodec{},
	"tk103":     tk103Codec{},
	"trv":       trvCodec{},
	"watch":     watchCodec{},
	"wialon":    wialonCodec{},
}

const osmandName = "osmand"

// Protocols lists the protocols Run can simulate.
func Protocols() []string {
	names := []string{osmandName}
	for name := range codecs {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// MaxIMEI is the largest device number: GT06 packs 15 digits in BCD.
const MaxIMEI = 999_999_999_999_999

// UniqueID is the uniqueId a simulated device of protocol reports for imei:
// the 15-digit IMEI, except TK103 whose fixed-width id holds its last 12
// digits and JT600 whose id holds its last 10. Register devices under these ids (or enable auto-registration).
func UniqueID(protocol string, imei int64) (string, error) {
	if imei < 0 || imei > MaxIMEI {
		return "", fmt.Errorf("simulate: device number %d is not a 15-digit IMEI", imei)
	}
	if protocol == osmandName {
		return imeiText(imei), nil
	}
	c, ok := codecs[protocol]
	if !ok {
		return "", fmt.Errorf("simulate: unknown protocol %q (have %s)", protocol, strings.Join(Protocols(), ", "))
	}
	return c.id(imei), nil
}

func imeiText(imei int64) string { return fmt.Sprintf("%015d", imei) }

// knotsPerKmh converts the route's km/h to the knots some protocols carry.
const knotsPerKmh = 1 / 1.852

// ddmm formats |deg| as NMEA degrees and minutes, "ddmm.mmmm" with degDigits
// degree digits, and reports whether deg is negative (south or west). The
// minutes are rounded in whole units of 0.0001 so they never print as 60.
func ddmm(deg float64, degDigits int) (string, bool) {
	units := int64(math.Round(math.Abs(deg) * 60 * 10000))
	d, m := units/600000, units%600000
	return fmt.Sprintf("%0*d%02d.%04d", degDigits, d, m/10000, m%10000), deg < 0
}

// hemisphere picks the letter for a coordinate's sign.
func hemisphere(negative bool, pos, neg string) string {
	if negative {
		return neg
	}
	return pos
}

// clampRound rounds v to an integer within [lo, hi].
func clampRound(v float64, lo, hi int) int {
	return min(max(int(math.Round(v)), lo), hi)
}

// course is the fix's course as a whole degree in 0..359.
func course(f Fix) int { return clampRound(f.Course, 0, 360) % 360 }

// textReplies cuts the server's answers of a text protocol: messages end
// with end, the login answer contains loginMark and a position's ACK
// ackMark.
type textReplies struct {
	end       byte
	loginMark string
	ackMark   string // in the answer to a stored position; "" when there is none
}

func (t textReplies) cut(buf []byte) reply {
	i := slices.Index(buf, t.end)
	if i < 0 {
		if len(buf) > maxReply {
			return reply{n: len(buf), serial: -1} // not this protocol: drop
		}
		return reply{serial: -1}
	}
	r := reply{n: i + 1, serial: -1}
	switch msg := string(buf[:i+1]); {
	case strings.Contains(msg, t.loginMark):
		r.kind = replyLogin
	case t.ackMark != "" && strings.Contains(msg, t.ackMark):
		r.kind = replyAck
	}
	return r
}

// maxReply bounds a server message a device waits to complete.
const maxReply = 4096

// crc16 is a reflected CRC-16 (LSB first), the family the binary
// protocols use: X.25 (poly 0x8408, init and xorout 0xFFFF) for GT06 and
// Castel, ARC/IBM (poly 0xA001, init and xorout 0) for Teltonika and
// KERMIT (poly 0x8408, init and xorout 0) for Ruptela.
func crc16(data []byte, poly, init, xorout uint16) uint16 {
	crc := init
	for _, b := range data {
		crc ^= uint16(b)
		for range 8 {
			lsb := crc & 1
			crc >>= 1
			if lsb == 1 {
				crc ^= poly
			}
		}
	}
	return crc ^ xorout
}
