package jt808

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// BenchmarkDecode decodes a typical 0x0200 location: odometer, signal,
// satellites, power and a temperature item.
func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, prototest.Unhex(b, sharedFrames[6].wire))
}
