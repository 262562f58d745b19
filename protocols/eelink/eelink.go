// Package eelink implements the Eelink device protocol (TK116, TK119,
// GPT18 and other Eelink trackers): binary packets `67 67 | type | length
// | serial | content` over TCP, where the login packet names the device,
// and the same packets over UDP behind an "EL" header carrying the IMEI.
// It decodes the 1.x packets (login, GPS, heartbeat, alarm, state, SMS,
// OBD) and the 2.0 ones (location, warning, report, message, OBD data)
// after the "EELINK Device Protocol V2.0" and Traccar's decoder.
package eelink

import "github.com/fleetd/fleetd/protocols"

// Name is the protocol name stored in Position.Protocol.
const Name = "eelink"

// Protocol is the Eelink codec. It keeps no per-connection state: the
// listener remembers the device the login named.
type Protocol struct {
	// now stamps the login answer; tests pin it.
	now protocols.Clock
}

var (
	_ protocols.Stream             = (*Protocol)(nil)
	_ protocols.Datagram           = (*Protocol)(nil)
	_ protocols.Recognizer         = (*Protocol)(nil)
	_ protocols.DatagramRecognizer = (*Protocol)(nil)
	_ protocols.FrameLimiter       = (*Protocol)(nil)
)

// New returns the Eelink codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }

const kphToKnots = 1 / 1.852

// Packet types.
const (
	msgLogin     = 0x01
	msgGPS       = 0x02
	msgHeartbeat = 0x03
	msgAlarm     = 0x04
	msgState     = 0x05
	msgSMS       = 0x06
	msgOBD       = 0x07
	msgNormal    = 0x12
	msgWarning   = 0x14
	msgReport    = 0x15
	msgOBDCode   = 0x19 // the last of the 2.0 types sharing the location header
	msgDownlink  = 0x80
	msgData      = 0x81
)
