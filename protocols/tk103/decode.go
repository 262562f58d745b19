package tk103

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Decode implements protocols.Stream.
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	var res protocols.Result
	s, ok := strings.CutPrefix(string(frame), "(")
	if s, ok = strings.CutSuffix(s, ")"); !ok {
		return res, model.Invalid("tk103: frame not in parentheses")
	}
	h, err := parseHeader(s)
	if err != nil {
		return res, err
	}
	res.UniqueID = h.id
	pos, err := p.decodeBody(&h, &res)
	if err != nil {
		return protocols.Result{UniqueID: h.id}, err
	}
	if pos != nil {
		res.Positions = []*model.Position{pos}
	}
	return res, nil
}

// decodeBody decodes what follows the header by message type. It fills
// res's reply, ack, command result or unsupported reason, and returns the
// position to store, if any.
func (p *Protocol) decodeBody(h *header, res *protocols.Result) (*model.Position, error) {
	now := p.now.Now()
	switch h.typ {
	case "BP00":
		// Handshake: answered at once, nothing stored.
		res.Reply = []byte("(" + h.id + "AP01HSO)")
		return nil, nil
	case "BP05":
		// Login: the answer stops the device repeating it, so it goes
		// once the position it carries is stored.
		res.Ack = []byte("(" + h.id + "AP05)")
		if strings.Contains(h.body, "{") {
			return decodeCellList(*h, now)
		}
		return decodeLocation(h)
	case "BO01":
		pos, err := decodeLocation(h)
		if err == nil && h.data != "" {
			// The device repeats an alarm until the server confirms it.
			res.Ack = []byte("(" + h.id + "AS01" + h.data[:1] + ")")
		}
		return pos, err
	case "BP04", "BR00", "BR01", "BR02", "BR03", "BO02", "BQ81":
		return decodeLocation(h)
	case "BP02":
		// An answer to a parameter setting, or a position on some firmware.
		if h.body == "" {
			res.CommandResult = h.typ
			return nil, nil
		}
		return decodeLocation(h)
	case "BZ00":
		if strings.Contains(h.body, "{") {
			return decodeCellList(*h, now)
		}
		return decodeCells(*h, now)
	case "BV00":
		if isVIN(h.body) {
			pos := outdated(now)
			pos.Attributes["vin"] = h.body
			return pos, nil
		}
		res.CommandResult = h.typ + h.body
		return nil, nil
	case "BS50":
		return decodeBMSBinary(*h, now)
	case "BS51":
		return decodeBMSPairs(*h, now)
	case "ZC20":
		return decodeBattery(*h)
	case "ZC03":
		text, err := commandResult(*h)
		res.CommandResult = text
		return nil, err
	case "BP01":
		// The firmware version, the answer to getVersion.
		res.CommandResult = h.body
		if h.body == "" {
			res.CommandResult = h.typ
		}
		return nil, nil
	}
	if answerTypes[h.typ] {
		res.CommandResult = h.typ + h.body
		return nil, nil
	}
	if h.comma && (strings.HasPrefix(h.typ, "ZC") || strings.HasPrefix(h.typ, "DW")) {
		switch {
		case gpsShape(h.body):
			return decodeLocation(h)
		case strings.HasPrefix(h.typ, "DW"):
			return decodeLBS(*h)
		}
	}
	res.Unsupported = "message type " + h.typ + " not decoded"
	return nil, nil
}

// answerTypes are the device's answers to server commands that carry no
// data worth storing: the answer text goes to the command result.
var answerTypes = map[string]bool{
	"BP03": true,               // operating status / APN set
	"BP12": true,               // speed limits set (AP12)
	"BP16": true, "BP17": true, // group numbers set, cancelled
	"BR05": true, "BR06": true, // ACC on/off report intervals set
	"BS04": true, "BS05": true, "BS06": true, "BS08": true, "BS09": true,
	"BS20": true, "BS21": true, "BS23": true,
	"BT00": true, // restart (AT00)
	"BU00": true, // geofence set
	"BV01": true, // oil control (AV01)
	"BV02": true, // one-key settings
}

// isVIN reports whether s is a 17-character vehicle identification number
// (BV00 of OBD firmware; the same type answers circuit control elsewhere).
func isVIN(s string) bool {
	if len(s) != vinLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isUpperAlnum(s[i]) {
			return false
		}
	}
	return true
}

// vinLen is the length of a vehicle identification number.
const vinLen = 17

// gpsShape reports whether a comma-form body starts `<ddMMyy>,<A|V>,`.
func gpsShape(body string) bool {
	return len(body) >= 9 && body[6] == ',' && (body[7] == 'A' || body[7] == 'V') && body[8] == ','
}

// header is the part every frame shares.
type header struct {
	id, typ string
	// body is what follows the type, without the comma of the comma form.
	body string
	// comma is the comma-separated variant (dates are ddMMyy there).
	comma bool
	// data is the digits a type carries before the date (BO01 alarm code,
	// BP05 IMEI, BQ81 alarm kind); set by decodeLocation.
	data string
}

// parseHeader splits `<id><type4><body>` or `<id>,<type4>,<body>`. The id is
// 12 characters in the protocol document, but devices send shorter and
// longer numeric ids: a type code (two capital letters and two capitals or
// digits) right after the 12th character wins, else the id is the leading
// digit run.
func parseHeader(s string) (header, error) {
	var h header
	if i := strings.IndexByte(s, ','); i > 0 && i+5 <= len(s) && isType(s[i+1:i+5]) &&
		(i+5 == len(s) || s[i+5] == ',') && validID(s[:i]) {
		h.comma = true
		h.id, h.typ, h.body = s[:i], s[i+1:i+5], strings.TrimPrefix(s[i+5:], ",")
		return h, nil
	}
	n := 12
	if len(s) < 16 || !isType(s[12:16]) || !validID(s[:12]) {
		n = 0
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		if n < minIDLen || n > maxIDLen || len(s) < n+4 || !isType(s[n:n+4]) {
			return h, model.Invalid("tk103: bad frame header %.20q", s)
		}
	}
	h.id, h.typ, h.body = s[:n], s[n:n+4], s[n+4:]
	return h, nil
}

// The bounds of a numeric device id without the 12-character layout.
const (
	minIDLen = 6
	maxIDLen = 20
)

// isType reports whether s is a message type code such as BR00 or DW3B.
func isType(s string) bool {
	return len(s) == 4 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' && isUpperAlnum(s[2]) && isUpperAlnum(s[3])
}

func isUpperAlnum(b byte) bool { return isDigit(b) || b >= 'A' && b <= 'Z' }

func validID(id string) bool {
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return id != ""
}

// outdated is a position without a location: the ingest copies the last
// known one into it.
func outdated(t time.Time) *model.Position {
	return &model.Position{Protocol: Name, Outdated: true, DeviceTime: t, FixTime: t, Attributes: model.Attributes{}}
}
