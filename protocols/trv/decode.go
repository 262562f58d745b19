package trv

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// commandAnswers are the types by which a device answers a server command
// (BP12 SOS numbers, BP14 contacts, BP33 working mode, BP40 message,
// BP84... switches): they echo the command's journal number and are not
// answered again.
var commandAnswers = map[string]bool{
	"AP12": true, "AP14": true, "AP33": true, "AP34": true, "AP40": true, "AP76": true,
	"AP77": true, "AP84": true, "AP85": true, "AP86": true, "AP87": true,
}

// message is one frame without its '#': maker, type and what follows.
type message struct {
	maker, typ, values string
}

// answer is the reply header: the type's first letter moved one on.
func (m *message) answer() string {
	return m.maker + string(m.typ[0]+1) + m.typ[1:]
}

// isJournalEcho tells a bare ",<six digits>" (a command's journal
// number, echoed when the device carried it out).
func isJournalEcho(values string) bool {
	if len(values) != 7 || values[0] != ',' {
		return false
	}
	for _, c := range values[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Decode implements protocols.Stream. The '#' ending the frame is
// optional (captures often lack it).
func (p *Protocol) Decode(c *protocols.Conn, raw []byte) (protocols.Result, error) {
	text := strings.TrimSuffix(string(raw), "#")
	maker, typ, st := parseHeader([]byte(text))
	if st != headerOK {
		return protocols.Result{}, errors.New("trv: not a frame")
	}
	m := &message{maker: maker, typ: typ, values: text[len(maker)+len(typ):]}
	if c != nil {
		if s, _ := c.State.(session); s.maker != maker {
			c.State = session{maker: maker}
		}
	}
	res, err := p.decode(m)
	if err != nil {
		return protocols.Result{}, fmt.Errorf("trv: %s%s: %w", maker, typ, err)
	}
	return res, nil
}

var errFields = errors.New("unexpected fields")

func (p *Protocol) decode(m *message) (protocols.Result, error) {
	var res protocols.Result
	switch {
	case m.typ == "AP00":
		id, _, _ := strings.Cut(m.values, ",")
		if !validID(id) {
			return res, errors.New("bad device id")
		}
		res.UniqueID = id
		if m.maker == "IW" {
			// IW watches set their clock from the answer: UTC, zone 0.
			res.Reply = fmt.Appendf(nil, "%s,%s,0#", m.answer(), p.now.Now().Format("20060102150405"))
		} else {
			res.Reply = []byte(m.answer() + "#")
		}
		return res, nil
	case m.typ == "AP14" && m.maker != "IW":
		// TRV trackers ask the server for a location it resolved (by
		// cells); fleetd resolves none and sends Traccar's empty answer.
		res.Reply = []byte(m.answer() + ",0.000,0.000#")
		return res, nil
	case commandAnswers[m.typ] || isJournalEcho(m.values):
		res.CommandResult = m.typ + m.values
		return res, nil
	}
	var pos *model.Position
	var err error
	switch m.typ {
	case "AP01", "AP10", "YP03", "YP14":
		pos, err = p.decodePosition(m.values)
	case "CP01":
		pos, err = p.decodeStatus(m.values)
	case "AP02":
		pos, err = p.decodeCells(m.values)
	case "AP03":
		pos, err = p.decodeHeartbeat(m.values)
	case "AP49", "APHT", "APHP", "AP50":
		pos, err = p.decodeHealth(m.typ, m.values)
	default:
		res.Unsupported = fmt.Sprintf("message type %s not decoded", m.typ)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	// Every data message is answered; the device resends it until then.
	res.Positions, res.Ack = []*model.Position{pos}, []byte(m.answer()+"#")
	return res, nil
}

// validID accepts the IMEI (or serial) of a login: 1 to 20 letters or
// digits.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 20 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !isUpperOrDigit(id[i]) && (id[i] < 'a' || id[i] > 'z') {
			return false
		}
	}
	return true
}
