// Package castel implements the Sinocastel (Castel) OBD tracker protocol
// of the IDD-213 family and its relatives, over TCP and UDP. A frame is
// `@@ | length (2, LE, whole frame) | version (1) | device id (20 ASCII,
// NUL-padded) | type (2, big-endian) | body | CRC-16/X-25 (2, LE) | \r\n`;
// numbers in the body are little-endian. Versions 3 and 4 are the "SC"
// OBD family, other versions the "CC" family; the "MPIP" form starts with
// `$$` and has no version byte. (Sinocastel "OBD Smart Communication
// Samples" V4.21; Traccar's CastelProtocolDecoder for the CC and MPIP
// forms, which have no public document.)
package castel

import "github.com/fleetd/fleetd/protocols"

// Name is the protocol name stored in Position.Protocol.
const Name = "castel"

// Protocol is the Castel codec; it holds no state and is safe for
// concurrent use.
type Protocol struct {
	// now is the clock of the login answer, which tells the device the
	// server's time; nil is the system clock.
	now protocols.Clock
}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Datagram   = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the Castel protocol.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }

// crcX25 is CRC-16/X-25: polynomial 0x1021 reflected (0x8408), initial
// value and final XOR 0xFFFF.
func crcX25(data []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, b := range data {
		crc ^= uint16(b)
		for range 8 {
			if crc&1 != 0 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	return ^crc
}
