// Package ruptela implements the Ruptela FM/Eco/Pro/Trace device protocol
// over TCP: every frame is `length (2) | IMEI (8) | command (1) | data |
// CRC-16/KERMIT (2)`, big-endian, the length counting IMEI through data.
// Command 1 carries records with 1-byte IO ids, command 68 extended records
// with 2-byte event and IO ids; IO elements get Traccar's attribute names
// (io.go). The server answers with `length (2) | 100+command (1) | content |
// CRC-16/KERMIT` (Ruptela protocol v1.84, "Server response").
package ruptela

import "github.com/fleetd/fleetd/protocols"

// Name is the protocol name stored in Position.Protocol.
const Name = "ruptela"

// kphToKnots converts the km/h speeds of records to knots.
const kphToKnots = 0.539957

// Protocol is the Ruptela codec; it holds no state and is safe for
// concurrent use.
type Protocol struct{}

var (
	_ protocols.Stream     = (*Protocol)(nil)
	_ protocols.Recognizer = (*Protocol)(nil)
)

// New returns the Ruptela protocol.
func New() *Protocol { return &Protocol{} }

// Name implements protocols.Stream.
func (*Protocol) Name() string { return Name }

// crcKermit is CRC-16/KERMIT: polynomial 0x1021 reflected (0x8408), initial
// value 0, no final XOR; Ruptela sends it big-endian.
func crcKermit(data []byte) uint16 {
	var crc uint16
	for _, b := range data {
		crc = crcStep(crc, b)
	}
	return crc
}

func crcStep(crc uint16, b byte) uint16 {
	crc ^= uint16(b)
	for range 8 {
		if crc&1 != 0 {
			crc = crc>>1 ^ 0x8408
		} else {
			crc >>= 1
		}
	}
	return crc
}
