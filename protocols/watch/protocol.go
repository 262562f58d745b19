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
// index variant, which answers and commands must repeat) lives in
// protocols.Conn.State.
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

// Decode decodes one frame returned by Split.
func (p *Protocol) Decode(c *protocols.Conn, raw []byte) (protocols.Result, error) {
	if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
		return protocols.Result{}, errors.New("watch: not a frame")
	}
	h, st := parseHeader(raw)
	if st != headerOK || h.size > len(raw)-1 {
		return protocols.Result{}, errors.New("watch: bad frame header")
	}
	if c != nil {
		if s := (session{h.maker, h.index != ""}); c.State != s {
			c.State = s
		}
	}
	content := string(unescape(raw[h.size : len(raw)-1]))
	typ, values, _ := strings.Cut(content, ",")
	reply := func(content string) []byte { return frame(h.maker, h.id, h.index, content) }

	res := protocols.Result{UniqueID: h.id}
	switch {
	case typ == "INIT":
		res.Reply = reply("INIT,1")
	case typ == "LK":
		res.Reply = reply("LK")
		res.Positions = p.decodeLink(values)
	case typ == "TKQ" || typ == "TKQ2":
		res.Reply = reply(typ)
	case strings.HasPrefix(typ, "AL"):
		// The watch repeats an alarm until it is answered, so the answer
		// waits until the alarm is stored.
		res.Ack = reply("AL")
		if pos, err := p.decodePosition(values); err == nil {
			if _, ok := pos.Attributes["alarm"]; !ok {
				pos.Attributes["alarm"] = alarmGeneral
			}
			res.Positions = []*model.Position{pos}
		}
	case strings.HasPrefix(typ, "UD") || strings.HasPrefix(typ, "WT"):
		pos, err := p.decodePosition(values)
		if err != nil {
			return res, fmt.Errorf("watch: %s from %s: %w", typ, h.id, err)
		}
		res.Positions = []*model.Position{pos}
	default:
		res.Positions = p.decodeHealth(typ, values)
	}
	return res, nil
}

// MaxFrameSize lets the listener accept the longest legal frame.
func (*Protocol) MaxFrameSize() int { return MaxFrameSize }
