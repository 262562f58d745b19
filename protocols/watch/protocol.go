// Package watch implements the protocol of 3G/4G kids' and senior smart
// watches (makers "3G", "SG", "ZJ", "CS"...): text frames
// "[SG*<id>*<len>*<type>,<values>]" where len is the content length in
// four hex digits.
package watch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Protocol is the watch codec. Per-connection state (the maker code and the
// index variant, which answers and commands must repeat, and the voice
// message being received) lives in protocols.Conn.State.
type Protocol struct {
	now protocols.Clock // for frames without a time of their own
}

var _ protocols.Stream = (*Protocol)(nil)

// New returns the codec.
func New() *Protocol { return &Protocol{} }

// Name is the protocol name stored in positions.
func (p *Protocol) Name() string { return "watch" }

// session is kept in Conn.State after the first frame. It is replaced, never
// mutated, so a value read by Encode stays consistent.
type session struct {
	maker    string
	hasIndex bool
	voice    voice // the chunked (JXTK) voice message being received
}

func (p *Protocol) newPosition() *model.Position {
	return &model.Position{Protocol: p.Name(), Attributes: model.Attributes{}}
}

// outdated returns a position without a location, taken now: the ingest
// fills in the last known one.
func (p *Protocol) outdated() *model.Position {
	pos := p.newPosition()
	pos.Outdated = true
	pos.DeviceTime = p.now.Now()
	pos.FixTime = pos.DeviceTime
	return pos
}

// frame returns "[maker*id*[index*]len*content]", as the device framed it.
func frame(maker, id, index, content string) []byte {
	if index != "" {
		index += "*"
	}
	return fmt.Appendf(nil, "[%s*%s*%s%04x*%s]", maker, id, index, len(content), content)
}

// message is one decoded frame: its header, type and values (after the
// first comma), unescaped.
type message struct {
	header
	typ, values string
}

// answer frames content as an answer to m.
func (m *message) answer(content string) []byte { return frame(m.maker, m.id, m.index, content) }

// Decode decodes one frame returned by Split.
func (p *Protocol) Decode(c *protocols.Conn, raw []byte) (protocols.Result, error) {
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return protocols.Result{}, errors.New("watch: not a frame")
	}
	h, st := parseHeader(raw)
	if st != headerOK || h.size > len(raw)-1 {
		return protocols.Result{}, errors.New("watch: bad frame header")
	}
	var s *session
	if c != nil {
		s, _ = c.State.(*session)
	}
	if s == nil {
		s = &session{}
		if c != nil {
			c.State = s
		}
	}
	s.maker, s.hasIndex = h.maker, h.index != ""
	m := &message{header: h}
	m.typ, m.values, _ = strings.Cut(string(unescape(raw[h.size:len(raw)-1])), ",")

	res, err := p.decode(c, s, m)
	res.UniqueID = h.id
	if err != nil {
		return res, fmt.Errorf("watch: %s from %s: %w", m.typ, h.id, err)
	}
	return res, nil
}

// decode answers and decodes m by its type.
func (p *Protocol) decode(c *protocols.Conn, s *session, m *message) (protocols.Result, error) {
	var res protocols.Result
	switch typ := m.typ; {
	case typ == "INIT":
		res.Reply = m.answer("INIT,1")
	case typ == "LK":
		// The watch reconnects unless every LK is answered; one that
		// carries steps and battery is answered once they are stored.
		if pos := p.decodeLink(m.values); pos != nil {
			res.Positions, res.Ack = []*model.Position{pos}, m.answer("LK")
		} else {
			res.Reply = m.answer("LK")
		}
	case typ == "TKQ" || typ == "TKQ2":
		// The watch asks for voice messages waiting for it: there are none.
		res.Reply = m.answer(typ)
	case typ == "TK":
		return p.decodeVoice(m)
	case typ == "JXTK":
		return p.decodeVoiceChunk(c, s, m)
	case strings.HasPrefix(typ, "AL"):
		// The watch repeats an alarm until it is answered, so the answer
		// waits until the alarm is stored.
		res.Positions, res.Ack = []*model.Position{p.decodeAlarm(m.values)}, m.answer("AL")
	case strings.HasPrefix(typ, "UD") || strings.HasPrefix(typ, "WT"):
		// Positions and weather requests (WT) are not answered: fleetd has
		// no weather to send.
		pos, err := p.decodePosition(m.values, false)
		if err != nil {
			return res, err
		}
		res.Positions = []*model.Position{pos}
	case typ == "CONFIG":
		// A report of the watch's functions (type, upload interval, feature
		// switches) that it repeats until answered; fleetd keeps none of it.
		res.Reply = m.answer("CONFIG,1")
	case typ == "img":
		return p.decodePicture(m)
	default:
		if h, ok := healthTypes[strings.ToLower(typ)]; ok {
			return p.decodeHealth(m, h)
		}
		if isCommandAnswer(typ) {
			res.CommandResult = typ
			if m.values != "" {
				res.CommandResult += "," + m.values
			}
			return res, nil
		}
		res.Unsupported = fmt.Sprintf("message type %.32q not decoded", typ)
	}
	return res, nil
}

// MaxFrameSize lets the listener accept the longest legal frame.
func (*Protocol) MaxFrameSize() int { return MaxFrameSize }
