// Package gt06 implements the Concox GT06 binary protocol (and its many
// clones): 0x7878 frames with a 1-byte length and 0x7979 frames with a
// 2-byte length, both ending in 0D 0A and protected by CRC-16/X.25.
//
// Device times are taken as UTC (the login frame's time-zone extension is
// ignored). Data frames carry no device id: the listener attributes them to
// the IMEI learned from the login frame.
package gt06

import "github.com/fleetd/fleetd/protocols"

// Name is the protocol name stored in Position.Protocol.
const Name = "gt06"

// kphToKnots converts the km/h speeds GT06 devices report to knots.
const kphToKnots = 0.539957

// Protocol is the GT06 codec; it holds no state and is safe for concurrent use.
type Protocol struct {
	// now is the clock for the time-request (0x8A) answer; nil is the
	// system clock.
	now protocols.Clock
}

var _ protocols.Stream = (*Protocol)(nil)

// New returns the GT06 protocol.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }
