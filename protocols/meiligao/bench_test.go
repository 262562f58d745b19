package meiligao

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// BenchmarkDecode reports the cost of a typical 0x9955 position.
func BenchmarkDecode(b *testing.B) {
	prototest.BenchDecode(b, New().Decode, prototest.Unhex(b, pos7))
}
