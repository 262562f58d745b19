// Package t55 implements the NMEA-based text protocol Traccar names "t55":
// one sentence a line, "$GPRMC"/"$GPGGA"/"$GPGLL"/"$GPRMA" positions,
// Traccar Client's "$TRCCR", "$GPIOP" inputs and a few vendor forms,
// after an identification line ("$PGID,<id>*XX", "IMEI <id>", a bare hex
// id...) or with the id in front of the sentence ("<id>,$GPRMC..."). It
// runs over TCP and UDP; the server never answers.
package t55

import (
	"strings"

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

// CommandTypes implements protocols.Stream. Traccar has no encoder for
// these devices; "custom" sends a line of the operator's text (a vendor's
// configuration sentence).
func (p *Protocol) CommandTypes() []string { return []string{"custom"} }

// Encode implements protocols.Stream: attributes.data as one line, ended
// by "\r\n".
func (p *Protocol) Encode(_ *protocols.Conn, cmd *model.Command) ([]byte, error) {
	text, err := protocols.CommandText(cmd, nil)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(text, "\r\n") || len(text) > maxLine {
		return nil, model.Invalid("t55: custom command must be one line of at most %d bytes", maxLine)
	}
	return []byte(text + "\r\n"), nil
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
