package watch

import (
	"testing"

	"github.com/fleetd/fleetd/protocols/prototest"
)

// BenchmarkDecode reports the cost of decoding one frame of each kind.
func BenchmarkDecode(b *testing.B) {
	for _, bc := range []struct{ name, frame string }{
		{"UD", frameUD},
		{"LK", frameLK3},
		{"UD_LTE_wifi", "[3G*2104326058*00E9*UD_LTE,300621,135101,A,32.162652,N,34.888748,E,30.84,265.158,65.621,18,100,83,0,0,00000000,1,1,425,01,10223,8012811,100,3,ES4104,22:74:1d:39:64:ff,-46,metropoline-wifi,a8:3f:a1:e0:66:ba,-89,Egged.co.il,00:0c:42:51:cf:cd,-81,1.7055488]"},
	} {
		b.Run(bc.name, func(b *testing.B) { prototest.BenchDecode(b, New().Decode, []byte(bc.frame)) })
	}
}
