// Package t55 implements the NMEA-based text protocol Traccar names "t55":
// one sentence a line, "$GPRMC"/"$GPGGA"/"$GPGLL"/"$GPRMA" positions,
// Traccar Client's "$TRCCR", "$GPIOP" inputs and a few vendor forms,
// after an identification line ("$PGID,<id>*XX", "IMEI <id>", a bare hex
// id...) or with the id in front of the sentence ("<id>,$GPRMC..."). It
// runs over TCP and UDP; the server never answers.
package t55

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "t55"

// Protocol is the T55 codec. A connection's state (protocols.Conn.State)
// holds a position sent before any identification, which Maxon devices
// name afterwards with "$GPFID".
type Protocol struct {
	// now dates sentences that carry a time of day only, and stamps those
	// without a time; tests pin it.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Datagram   = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (p *Protocol) Name() string { return Name }

// held is kept in Conn.State: the last position decoded before the
// connection named its device.
type held struct {
	pos *model.Position
}

// CommandTypes implements protocols.Stream: the devices of this protocol
// take no commands over the connection (Traccar has no encoder for it).
func (p *Protocol) CommandTypes() []string { return nil }

// Encode implements protocols.Stream: every command is refused.
func (p *Protocol) Encode(*protocols.Conn, *model.Command) ([]byte, error) {
	return nil, model.Invalid("t55 devices take no commands")
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
