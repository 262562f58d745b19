// Package gps103 implements the GPS103 / Coban text protocol (TK103-2,
// GPS-103, TK-106 and clones): `imei:<id>,<keyword>,...;` position, alarm
// and command-answer frames (GPS fix or serving cell), `imei:<id>,OBD,...;`
// OBD-II readings, the '*'-terminated variant, a `##,imei:<id>,A;` log-on
// answered with "LOAD" and a bare IMEI heartbeat answered with "ON". Only
// the SOS ("help me") is acknowledged, once stored, with
// `**,imei:<id>,E;`; photo packets ("vr") are not decoded.
package gps103

import (
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "gps103"

// Protocol is the GPS103 codec. It keeps no per-connection state.
type Protocol struct {
	// now stamps positions whose frame carries no usable time; tests pin it.
	now protocols.Clock
}

var _ protocols.Stream = (*Protocol)(nil)

// New returns the GPS103 codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (p *Protocol) Name() string { return Name }
