package h02

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// BenchmarkDecode reports the cost of decoding one frame of each kind.
func BenchmarkDecode(b *testing.B) {
	for _, bc := range []struct {
		name  string
		frame []byte
	}{
		{"V1", []byte(textV1)},
		{"NBR", []byte("*HQ,4109179024,NBR,103732,722,310,0,6,8106,32010,23,8101,22007,25,8106,12010,23,8106,22105,22,8101,22012,16,8106,42010,5,100217,FFFFFBFF,5#")},
		{"binary", prototest.Unhex(b, bin45)},
	} {
		b.Run(bc.name, func(b *testing.B) { prototest.BenchDecode(b, New().Decode, bc.frame) })
	}
}
