// Package jt600 implements the Jointech JT600 family protocol (JT600,
// JT701, JT707, GP6000): binary `$` location frames in a short and a long
// layout, and text `( … )` frames (W01, U01–U06, P45 lock events and WLNET
// peripheral records). Every frame carries the device id; there is no
// login. Layouts follow "The protocol of JT600 V1.8", the GP6000 manual
// V1.7 and "The Protocol of JT701 Product V3.6" (Shenzhen Joint
// Technology), as Traccar decodes them.
package jt600

import "github.com/fleetd/fleetd/protocols"

// Name is the protocol name stored in Position.Protocol.
const Name = "jt600"

// Protocol is the JT600 codec; it keeps no per-connection state.
type Protocol struct{}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the JT600 codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }

// Conversions of the device units to knots.
const (
	kphToKnots = 1 / 1.852
	mphToKnots = 1609.344 / 1852
)
