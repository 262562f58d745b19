package meitrack

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// BenchmarkDecode reports the cost of a typical AAA report and a CCE record.
func BenchmarkDecode(b *testing.B) {
	b.Run("AAA", func(b *testing.B) { prototest.BenchDecode(b, New().Decode, []byte(aaaK157)) })
	b.Run("CCE", func(b *testing.B) { prototest.BenchDecode(b, New().Decode, wire(b, cce1)) })
}
