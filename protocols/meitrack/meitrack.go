// Package meitrack implements the Meitrack GPRS protocol (MVT/T1/T3/MT90/
// TC68 and later models): "$$<flag><length>,<imei>,<type>,<data>*<sum>\r\n"
// frames over TCP and UDP. Text AAA/AFF reports carry one position each;
// CCC and CCE frames carry batches of binary records; D00/D03 frames move
// a picture; AAC asks for an acknowledgement. Layouts follow MEITRACK GPRS
// Protocol V1.6 and the frames Traccar's decoder tests hold.
package meitrack

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in Position.Protocol.
const Name = "meitrack"

// kphToKnots converts the km/h speeds Meitrack reports.
const kphToKnots = 1 / 1.852

// Protocol is the Meitrack codec. It keeps no state between frames, so one
// value serves every connection.
type Protocol struct {
	// now is the clock for positions without a time of their own.
	now protocols.Clock
}

var (
	_ protocols.Stream       = (*Protocol)(nil)
	_ protocols.Datagram     = (*Protocol)(nil)
	_ protocols.Recognizer   = (*Protocol)(nil)
	_ protocols.FrameLimiter = (*Protocol)(nil)
)

// New returns the Meitrack protocol.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }

// MaxFrameSize implements protocols.FrameLimiter: a frame's length field
// has at most five digits.
func (*Protocol) MaxFrameSize() int { return MaxFrame }

func newPosition() *model.Position {
	return &model.Position{Protocol: Name, Attributes: model.Attributes{}}
}

// setTime sets both the fix and the device time.
func setTime(p *model.Position, t time.Time) {
	p.FixTime, p.DeviceTime = t, t
}
