package t55

import (
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

var (
	errNotSentence = errors.New("t55: not a sentence")
	errFields      = errors.New("unexpected fields")
)

// Decode implements protocols.Stream: one line. A position decoded before
// the connection named its device is kept, and released by a later
// "$GPFID" (Maxon devices identify after their first sentence).
func (p *Protocol) Decode(c *protocols.Conn, raw []byte) (protocols.Result, error) {
	known := c != nil && c.UniqueID != ""
	res, err := p.decode(c, raw)
	if err != nil || c == nil {
		return res, err
	}
	if len(res.Positions) > 0 && res.UniqueID == "" && !known {
		c.State = held{pos: res.Positions[len(res.Positions)-1]}
	}
	return res, nil
}

// DecodeDatagram implements protocols.Datagram: one sentence a packet. A
// sentence that names no device is taken as from the device whose id is
// the sender's IP address, as Traccar does.
func (p *Protocol) DecodeDatagram(c *protocols.Conn, packet []byte) (protocols.Result, error) {
	res, err := p.decode(nil, packet)
	if err == nil && res.UniqueID == "" && c != nil {
		if host, _, err := net.SplitHostPort(c.Remote); err == nil {
			res.UniqueID = host
		}
	}
	return res, err
}

func (p *Protocol) decode(c *protocols.Conn, raw []byte) (protocols.Result, error) {
	var res protocols.Result
	line := strings.TrimSpace(string(raw))
	if line == "" || !printable([]byte(line)) {
		return res, errNotSentence
	}
	id, s := splitID(line)
	if id != "" && !validID(id) {
		return res, fmt.Errorf("t55: bad device id %.32q", id)
	}
	res.UniqueID = id
	if valid, present := checksum(s); present && !valid {
		res.ChecksumError = true
	}
	if id, ok := identification(s); ok {
		if !validID(id) {
			return res, fmt.Errorf("t55: bad device id %.32q", id)
		}
		res.UniqueID = id
		if h, ok := stateOf(c); ok && strings.HasPrefix(s, "$GPFID") {
			res.Positions = []*model.Position{h.pos}
			c.State = nil
		}
		return res, nil
	}
	decode, name := p.sentence(s)
	if decode == nil {
		if s[0] == '$' && len(s) > 2 && isAlnum(s[1]) {
			res.Unsupported = fmt.Sprintf("sentence %.12s not decoded", data(s)[0])
			return res, nil
		}
		return res, errNotSentence
	}
	pos, deviceID, err := decode(s)
	if err != nil {
		return protocols.Result{}, fmt.Errorf("t55: %s: %w", name, err)
	}
	if deviceID != "" {
		if !validID(deviceID) {
			return protocols.Result{}, fmt.Errorf("t55: bad device id %.32q", deviceID)
		}
		res.UniqueID = deviceID
	}
	res.Positions = []*model.Position{pos}
	return res, nil
}

func stateOf(c *protocols.Conn) (held, bool) {
	if c == nil {
		return held{}, false
	}
	h, ok := c.State.(held)
	return h, ok && h.pos != nil
}

// splitID separates an id written before the sentence: "<id>$GPRMC...",
// "<id>,$GPRMC..." or "<n>/<id>/$GPRMC...".
func splitID(line string) (id, sentence string) {
	i := strings.IndexByte(line, '$')
	if i <= 0 {
		return "", line
	}
	id = line[:i]
	if trimmed, ok := strings.CutSuffix(id, ","); ok {
		id = trimmed
	} else if trimmed, ok := strings.CutSuffix(id, "/"); ok {
		_, id, _ = strings.Cut(trimmed, "/")
	}
	return id, line[i:]
}

// validID accepts an id of 1 to 64 printable bytes without the separators
// of the sentences around it.
func validID(id string) bool {
	return len(id) > 0 && len(id) <= 64 && !strings.ContainsAny(id, ",*$/") && strings.TrimSpace(id) == id
}

// identification returns the id an identification line names.
func identification(s string) (string, bool) {
	untilStar := func(v string) string { v, _, _ = strings.Cut(v, "*"); return v }
	untilComma := func(v string) string { v, _, _ = strings.Cut(v, ","); return v }
	for _, form := range []struct {
		prefix string
		id     func(string) string
	}{
		{"$PGID,", untilStar},
		{"$DEVID,", untilStar},
		{"$PSIWMDID,", untilStar},
		{"$GPFID,", untilStar},
		{"$PCPTI,", untilComma},
		{"$CONNECT,", untilComma},
		{"$IMEI=", untilStar},
		{"IMEI ", untilStar},
	} {
		if rest, ok := strings.CutPrefix(s, form.prefix); ok {
			return form.id(rest), true
		}
	}
	if isHex(s) {
		return s, true // a bare id line
	}
	return "", false
}

// isHex accepts 6 to 20 digits and capital hex letters.
func isHex(s string) bool {
	if len(s) < 6 || len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// sentenceFunc decodes one sentence into a position and, for sentences that
// carry it, the device id.
type sentenceFunc func(s string) (*model.Position, string, error)

// sentence picks the decoder of s by its type.
func (p *Protocol) sentence(s string) (sentenceFunc, string) {
	if len(s) > 7 && s[0] == '$' && s[1] == 'G' && strings.IndexByte("PLN", s[2]) >= 0 && s[6] == ',' {
		switch s[3:6] {
		case "RMC":
			return p.rmc, "RMC"
		case "GGA":
			return p.gga, "GGA"
		case "GLL":
			return p.gll, "GLL"
		}
	}
	for _, t := range []struct {
		prefix string
		decode sentenceFunc
	}{
		{"$GPRMA,", p.rma}, {"$TRCCR,", p.trccr}, {"$GPIOP,", p.iop}, {"QZE,", p.qze},
		{"$PUBX,", p.pubx}, {"$GPTXT,", p.txt}, {"$ID,", p.wmcs},
	} {
		if strings.HasPrefix(s, t.prefix) {
			return t.decode, strings.Trim(t.prefix, "$,")
		}
	}
	return nil, ""
}
