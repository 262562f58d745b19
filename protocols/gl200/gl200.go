// Package gl200 implements Queclink's @Track protocol (GL200, GL300, GV300,
// GV500, GMT100 and their kin; Traccar's "gl200"): comma-separated text
// reports `+RESP:GTxxx,...$` (live), `+BUFF:GTxxx,...$` (buffered while the
// device was offline) and `+ACK:GTxxx,...$` (command answers, heartbeats),
// and the binary form of the same reports (`+RSP`, `+EVT`, `+INF`, ... and
// the newer frames with a zero second byte), over TCP and UDP.
package gl200

import (
	"github.com/fleetd/fleetd/protocols"
)

// Name is the protocol name stored in positions.
const Name = "gl200"

// knotsPerKph converts the km/h speeds of reports to knots.
const knotsPerKph = 1 / 1.852

// Protocol is the @Track codec. It keeps no per-connection state: every
// message carries the IMEI.
type Protocol struct {
	// now stamps positions whose message carries no time; tests pin it.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Datagram   = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the @Track codec.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }
