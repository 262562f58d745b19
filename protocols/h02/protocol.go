// Package h02 implements the H02 tracker protocol (Sinotrack, many cheap
// car trackers): text frames "*HQ,<id>,<type>,...#" and fixed-length binary
// frames starting with '$'.
package h02

import (
	"errors"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Protocol is the H02 codec. It holds no per-connection state, so one value
// serves every connection.
type Protocol struct {
	// MessageLength fixes the length of '$' binary frames (Traccar's
	// h02.messageLength: 32, 42, 45, 47...). Zero detects 32 or 45.
	MessageLength int
	// now is the clock for replies, command times and frames without a date.
	now protocols.Clock
}

var _ protocols.Stream = (*Protocol)(nil)

// New returns the codec with binary frame length detection.
func New() *Protocol { return &Protocol{} }

// Name is the protocol name stored in positions.
func (p *Protocol) Name() string { return "h02" }

// newPosition returns a position of this protocol with an attribute map.
func (p *Protocol) newPosition() *model.Position {
	return &model.Position{Protocol: p.Name(), Attributes: model.Attributes{}}
}

// outdated returns a position without a location: the ingest fills in the
// last known one. deviceTime is when the device says the data was taken.
func (p *Protocol) outdated(deviceTime time.Time) *model.Position {
	pos := p.newPosition()
	pos.Outdated = true
	if deviceTime.IsZero() {
		deviceTime = p.now.Now()
	}
	pos.DeviceTime = deviceTime
	pos.FixTime = deviceTime
	return pos
}

// Decode decodes one frame returned by Split.
func (p *Protocol) Decode(c *protocols.Conn, frame []byte) (protocols.Result, error) {
	if len(frame) == 0 {
		return protocols.Result{}, errors.New("h02: empty frame")
	}
	switch frame[0] {
	case '*':
		return p.decodeText(frame)
	case '$':
		return p.decodeBinary(frame)
	default:
		// 'X' frames: no document describes them (Traccar drops them too).
		return protocols.Result{Unsupported: "X frame not decoded"}, nil
	}
}
