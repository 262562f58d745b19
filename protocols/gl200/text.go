package gl200

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// message is a text message split at its commas.
type message struct {
	text string   // without the '$' tail
	v    []string // v[0] is the head, "+RESP:GTFRI"
	kind string   // RESP, BUFF or ACK
	typ  string   // the report type after "GT": FRI, IGN, ...
	id   string   // the IMEI (or MEID)
	// model names the device, for the reports whose layout depends on it.
	model string
	sent  time.Time
	now   time.Time
}

// decodeText decodes a text message.
func (p *Protocol) decodeText(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	var res protocols.Result
	m, err := parseMessage(string(frame))
	if err != nil {
		return res, err
	}
	res.UniqueID = m.id
	if c != nil {
		m.model = deviceModel(c.Model, m.v[1])
	} else {
		m.model = deviceModel("", m.v[1])
	}
	m.now = p.now.Now()
	count := m.v[len(m.v)-1]
	if m.kind == "ACK" {
		if m.typ == "HBD" {
			// A heartbeat: answered at once with its version and count.
			res.Reply = []byte("+SACK:GTHBD," + m.v[1] + "," + count + "$")
			return res, nil
		}
		res.CommandResult = m.text
		res.Ack = []byte("+SACK:" + count + "$")
		return res, nil
	}
	if m.kind != "RESP" && m.kind != "BUFF" {
		res.Unsupported = "message kind +" + m.kind + " not decoded"
		return res, nil
	}
	positions, err := m.decode()
	if err != nil {
		return protocols.Result{UniqueID: m.id}, err
	}
	if len(positions) == 0 {
		res.Unsupported = "report GT" + m.typ + " not decoded"
		return res, nil
	}
	for _, pos := range positions {
		finish(pos, m.sent, m.now)
		pos.Attributes["type"] = m.typ
		if m.kind == "BUFF" {
			pos.Attributes["archive"] = true
		}
	}
	res.Positions = positions
	// The server acknowledgement (SACK) a device waits for when its SACK
	// mode is on; a device with it off ignores it. Sent once stored.
	res.Ack = []byte("+SACK:" + count + "$")
	return res, nil
}

// parseMessage checks a text message's frame: `+<kind>:GT<type>,` then
// fields, the IMEI among the first three, and a hex count number last.
func parseMessage(s string) (*message, error) {
	s = strings.TrimRight(s, "\r\n\x00")
	s = strings.TrimSuffix(s, "$")
	colon := strings.Index(s, ":GT")
	if !strings.HasPrefix(s, "+") || colon < 0 || colon > 5 || len(s) < colon+6 {
		return nil, model.Invalid("gl200: not an @Track message: %.24q", s)
	}
	m := &message{text: s, kind: s[1:colon], typ: s[colon+3 : colon+6], v: strings.Split(s, ",")}
	if !allOf(m.kind, isUpper) || !allOf(m.typ, isUpperAlnum) || m.v[0] != s[:colon+6] || len(m.v) < 4 {
		return nil, model.Invalid("gl200: bad message head %.24q", s)
	}
	// The count number is 4 hex digits; some firmware sends more.
	if count := m.v[len(m.v)-1]; len(count) < 4 || len(count) > 16 || !allOf(count, isHex) {
		return nil, model.Invalid("gl200: message without a count number: %.24q", s)
	}
	switch {
	case validID(m.v[2]):
		m.id = m.v[2]
	case validID(m.v[1]):
		// Early GL100-era reports have no protocol version.
		m.id = m.v[1]
		m.v = append([]string{m.v[0], ""}, m.v[1:]...)
	default:
		return nil, model.Invalid("gl200: no IMEI in %.40q", s)
	}
	m.sent = sentTime(m.v)
	return m, nil
}

func isUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

func isUpperAlnum(b byte) bool { return isUpper(b) || isDigit(b) }

// validID reports whether s is an IMEI (15 digits) or a CDMA MEID (14 hex
// digits), the unique ids @Track devices send.
func validID(s string) bool {
	return len(s) == 15 && allOf(s, isDigit) || len(s) == 14 && allOf(s, isHex)
}

// decode decodes a report by its type. Types without a layout of their own
// go to the generic decoder, which finds the location by its shape.
func (m *message) decode() ([]*model.Position, error) {
	var decoder func() ([]*model.Position, error)
	switch m.typ {
	case "INF":
		decoder = m.inf
	case "OBD":
		decoder = m.obd
	case "CAN":
		decoder = m.can
	case "CTN", "FRI", "GEO", "RTL", "DOG", "STR":
		decoder = m.fri
	case "ERI":
		decoder = m.eri
	case "IGN", "IGF", "VGN", "VGF":
		decoder = m.ign
	case "LSW", "TSW":
		decoder = m.lsw
	case "IDA":
		decoder = m.ida
	case "WIF":
		decoder = m.wif
	case "GSM":
		decoder = m.gsm
	case "VER":
		decoder = m.ver
	case "PNA", "PFA":
		decoder = m.pna
	case "DAR":
		decoder = m.dar
	case "DTT":
		decoder = m.dtt
	case "BAA", "BID":
		decoder = m.baa
	case "LSA":
		decoder = m.lsa
	case "LBS":
		decoder = m.lbs
	case "DAT":
		decoder = m.dat
	}
	if decoder != nil {
		ps, err := decoder()
		if err != nil || len(ps) > 0 {
			return ps, err
		}
	}
	return m.basic()
}
