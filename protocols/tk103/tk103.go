// Package tk103 implements the TK103 text protocol (Xexun/Coban "TK103"
// family and its clones): frames `(<12-char id><4-char type><body>)`, and
// the comma-separated variant `(<imei>,<type>,...)`.
package tk103

import (
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "tk103"

// Protocol is the TK103 codec. It keeps no per-connection state.
type Protocol struct {
	// now stamps positions whose frame carries no time; tests pin it.
	now protocols.Clock
}

var _ protocols.Stream = (*Protocol)(nil)

// New returns the TK103 codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (p *Protocol) Name() string { return Name }
