// Package meiligao implements the Meiligao GPRS protocol (GT30i, GT60,
// VT300, VT310, VT400 and clones) over TCP and UDP: binary frames
// "$$ <length> <id> <command> <data> <CRC> \r\n" whose position data is
// GPRMC-like text, as Meiligao GPRS Communication Protocol V2.2 describes
// them and as the frames in Traccar's decoder tests show.
package meiligao

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in Position.Protocol.
const Name = "meiligao"

// Protocol is the Meiligao codec. It keeps no state between frames, so
// one value serves every connection.
type Protocol struct {
	// now is the clock for positions without a time of their own.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Datagram   = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the Meiligao protocol.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }

func newPosition() *model.Position {
	return &model.Position{Protocol: Name, Attributes: model.Attributes{}}
}

// outdated is a position without a location of its own: the ingest gives
// it the device's last one.
func (p *Protocol) outdated() *model.Position {
	pos := newPosition()
	pos.Outdated = true
	pos.FixTime = p.now.Now()
	pos.DeviceTime = pos.FixTime
	return pos
}
