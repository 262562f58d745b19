package gps103

import (
	"errors"
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
// also carries "imei:": as Traccar does, any short frame naming an IMEI is a
// log-on (the '*' variant's `imei:<id>,L,*` among them).
const logonMaxLen = 30

// Keywords that select another layout than the regular position frame.
const (
	keywordOBD   = "OBD" // OBD-II readings, no location
	keywordPhoto = "vr"  // one packet of a photo (or voice) as hex
)

// Decode implements protocols.Stream.
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	var res protocols.Result
	s := string(frame)
	if strings.Contains(s, imeiTag) && len(s) <= logonMaxLen {
		if res.UniqueID = logonID(s); res.UniqueID == "" {
			return protocols.Result{}, model.Invalid("gps103: bad log-on %.30q", s)
		}
		res.Reply = replyLogon
		return res, nil
	}
	// The '*'-terminated variant has its own layout.
	alternative := strings.HasSuffix(strings.TrimSpace(s), "*")
	s = trimFrame(s)
	if s != "" && isDigit(s[0]) {
		// A heartbeat (the bare IMEI), possibly glued to the frame after it.
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
	f := strings.Split(s, ",")
	id, ok := strings.CutPrefix(f[0], imeiTag)
	if !ok || !allDigits(id) || len(f) < 2 {
		return protocols.Result{}, model.Invalid("gps103: unrecognised frame %.40q", s)
	}
	res.UniqueID = id
	var (
		pos *model.Position
		err error
	)
	switch {
	case f[fKeyword] == keywordPhoto:
		// fleetd keeps no media: the device resends, the packet goes to the inbox.
		return protocols.Result{UniqueID: id, Unsupported: "photo data (vr) not decoded"}, nil
	case f[fKeyword] == keywordOBD:
		pos, err = p.decodeOBD(c, f)
	case alternative:
		pos, err = decodeAlternative(f)
	default:
		pos, err = p.decodeRegular(c, f)
	}
	var reason unsupported
	if errors.As(err, &reason) {
		return protocols.Result{UniqueID: id, Unsupported: string(reason)}, nil
	}
	if err != nil {
		return protocols.Result{}, err
	}
	res.Positions = []*model.Position{pos}
	switch keyword := f[fKeyword]; {
	case alternative:
	case keyword == "help me":
		// Clears the SOS on the device, so it is sent once the alarm is stored.
		res.Ack = []byte("**,imei:" + id + ",E;")
	case isCommandAnswer(keyword):
		res.CommandResult = keyword
	}
	return res, nil
}

// isCommandAnswer tells the device's answer to a server command: the
// command letter in lower case, then 't' when done or 'f' when refused
// ("jt": engine stopped, "lf": arming refused as the ignition is on).
// "vt<n>" announces a photo and is not one.
func isCommandAnswer(keyword string) bool {
	return len(keyword) == 2 && keyword[0] >= 'a' && keyword[0] <= 'z' && keyword[0] != 'v' &&
		(keyword[1] == 't' || keyword[1] == 'f')
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
