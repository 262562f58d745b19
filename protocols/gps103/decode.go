package gps103

import (
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Replies to the log-on request and to the heartbeat, sent without delimiter.
var (
	replyLogon     = []byte("LOAD")
	replyHeartbeat = []byte("ON")
)

// logonMaxLen tells the log-on `##,imei:<id>,A;` from a position frame that
// also carries "imei:".
const logonMaxLen = 30

// Decode implements protocols.Stream.
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	var res protocols.Result
	s := string(frame)
	if strings.Contains(s, imeiTag) && len(s) <= logonMaxLen {
		if res.UniqueID = logonID(s); res.UniqueID == "" {
			return res, model.Invalid("gps103: bad log-on %.30q", s)
		}
		res.Reply = replyLogon
		return res, nil
	}
	s = trimFrame(s)
	if s != "" && isDigit(s[0]) {
		res.Reply = replyHeartbeat
		i := strings.Index(s, imeiTag)
		if i < 0 {
			if allDigits(s) {
				res.UniqueID = s
			}
			return res, nil
		}
		s = s[i:]
	}
	if strings.HasSuffix(strings.TrimSpace(string(frame)), "*") {
		return res, model.Invalid("gps103: alternative '*' format is not supported")
	}
	f := strings.Split(s, ",")
	id, ok := strings.CutPrefix(f[0], imeiTag)
	if !ok || !allDigits(id) || len(f) < 2 {
		return res, model.Invalid("gps103: unrecognised frame %.40q", s)
	}
	if strings.HasPrefix(f[1], "OBD") {
		return res, model.Invalid("gps103: OBD frames are not supported")
	}
	pos, err := p.decodeRegular(f)
	if err != nil {
		return res, err
	}
	res.UniqueID = id
	res.Positions = []*model.Position{pos}
	if f[1] == "help me" {
		// Clears the SOS on the device, so it is sent once the alarm is stored.
		res.Ack = []byte("**,imei:" + id + ",E;")
	}
	return res, nil
}

// logonID extracts the IMEI of `##,imei:<id>,A;`, or "" if malformed.
func logonID(s string) string {
	_, rest, _ := strings.Cut(s, imeiTag)
	id, _, found := strings.Cut(rest, ",")
	if !found || !allDigits(id) {
		return ""
	}
	return id
}

// trimFrame drops the delimiter and surrounding white space.
func trimFrame(s string) string {
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ";"))
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
