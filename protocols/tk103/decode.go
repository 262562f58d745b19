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
	now := p.now.Now()
	var pos *model.Position
	switch h.typ {
	case "BP00":
		// Handshake: answered at once, nothing stored.
		res.Reply = []byte("(" + h.id + "AP01HSO)")
		return res, nil
	case "BP05":
		res.Reply = []byte("(" + h.id + "AP05)")
		pos, err = decodeLocation(&h)
	case "BZ00":
		pos, err = decodeCell(h, now)
	case "BV00":
		if len(h.body) != vinLen {
			return res, invalid(h, "VIN")
		}
		pos = outdated(now)
		pos.Attributes["vin"] = h.body
	case "ZC20":
		pos, err = decodeBattery(h, now)
	case "ZC03":
		res.CommandResult, err = commandResult(h)
		return res, err
	default:
		pos, err = decodeLocation(&h)
	}
	if err != nil {
		return protocols.Result{}, err
	}
	if h.typ == "BO01" && h.data != "" {
		// The device repeats an alarm until the server confirms it.
		res.Ack = []byte("(" + h.id + "AS01" + h.data[:1] + ")")
	}
	res.Positions = []*model.Position{pos}
	return res, nil
}

// vinLen is the length of a vehicle identification number (BV00).
const vinLen = 17

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

// parseHeader splits `<id12><type4><body>` or `<id>,<type4>,<body>`. A comma
// before the 17th byte can only belong to the comma form.
func parseHeader(s string) (header, error) {
	var h header
	if i := strings.IndexByte(s, ','); i >= 0 && i < 16 {
		h.comma = true
		h.id, s = s[:i], s[i+1:]
	} else if len(s) >= 16 {
		h.id, s = s[:12], s[12:]
	}
	if len(s) < 4 || !validID(h.id) {
		return h, model.Invalid("tk103: bad frame header %.20q", s)
	}
	h.typ, h.body = s[:4], s[4:]
	if h.comma {
		h.body = strings.TrimPrefix(h.body, ",")
	}
	return h, nil
}

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
