// Package trv implements the text protocol of IW/TRV kids' and senior
// watches and personal trackers (the "IW protocol"): messages
// "<maker><type>[<values>]#" where maker is "IW", "TRV" or another two
// letters, type four characters ("AP00" login, "AP01" position, "CP01"
// status...), and every message ends with '#'. The server answers with the
// type's first letter moved one on ("AP01" → "BP01").
package trv

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "trv"

// Protocol is the TRV codec. The maker prefix a device uses, which
// commands must repeat, lives in protocols.Conn.State.
type Protocol struct {
	// now stamps frames without a time, the login answer and command
	// journal numbers; tests pin it.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (p *Protocol) Name() string { return Name }

// session is kept in Conn.State: the maker prefix of the device's frames.
type session struct {
	maker string
}

func (p *Protocol) newPosition() *model.Position {
	return &model.Position{Protocol: Name, Attributes: model.Attributes{}}
}

// outdated is a position without a location, taken now: the ingest fills
// in the last known one.
func (p *Protocol) outdated() *model.Position {
	pos := p.newPosition()
	pos.Outdated = true
	pos.DeviceTime = p.now.Now()
	pos.FixTime = pos.DeviceTime
	return pos
}
