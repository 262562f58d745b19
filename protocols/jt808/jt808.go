// Package jt808 implements JT/T 808, the Chinese road-transport terminal
// protocol most 4G trackers and dashcams speak (Traccar's "jt808", formerly
// "huabao"). A frame is 7E | message id (2) | attributes (2) | [version (1)]
// | terminal id (6 or 10 BCD bytes) | serial (2) | body | XOR check | 7E,
// with 7E and 7D inside escaped as 7D 02 and 7D 01.
//
// Every frame names its terminal, so there is no session to open. Device
// times are read as GMT+8, the zone JT/T 808 terminals keep (Traccar's
// default as well).
package jt808

import (
	"time"

	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in Position.Protocol.
const Name = "jt808"

// kphToKnots converts the km/h speeds of JT/T 808 to knots.
const kphToKnots = 1 / 1.852

// deviceZone is the terminals' clock: China standard time.
var deviceZone = time.FixedZone("GMT+8", 8*3600)

// Protocol is the JT/T 808 codec; it holds no state and is safe for
// concurrent use.
type Protocol struct {
	// now is the clock for the time-sync answers; nil is the system clock.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the JT/T 808 protocol.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }
