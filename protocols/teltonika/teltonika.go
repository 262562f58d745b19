// Package teltonika implements the Teltonika FM/FMB device protocol: the
// TCP stream (IMEI handshake, then AVL packets with CRC-16/IBM), UDP
// datagrams, AVL codecs 8, 8 Extended, 16 and 7 (GH3000), and codec
// 12/13/14 messages. IO elements get Traccar's attribute names; the names
// of some ids depend on the device family, told by Conn.Model (io.go).
package teltonika

import "github.com/fleetd/fleetd/protocols"

// Name is the protocol name stored in Position.Protocol.
const Name = "teltonika"

// kphToKnots converts the km/h speeds of AVL records to knots.
const kphToKnots = 0.539957

// Protocol is the Teltonika codec; it holds no state and is safe for
// concurrent use.
type Protocol struct{}

var (
	_ protocols.Stream   = (*Protocol)(nil)
	_ protocols.Datagram = (*Protocol)(nil)
)

// New returns the Teltonika protocol.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }
