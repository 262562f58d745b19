package prototest

import (
	"errors"
	"testing"

	"github.com/fleetd/fleetd/protocols"
)

// DecodeFunc is a protocol's Decode or DecodeDatagram method.
type DecodeFunc func(c *protocols.Conn, frame []byte) (protocols.Result, error)

// DecodeRejects checks that decode fails on every frame, on a fresh
// connection, with an error matching target (errors.Is) when target is not
// nil, and that a failed decode yields nothing to store or send.
func DecodeRejects(t testing.TB, decode DecodeFunc, target error, frames ...string) {
	t.Helper()
	for _, frame := range frames {
		res, err := decode(&protocols.Conn{}, []byte(frame))
		if err == nil || target != nil && !errors.Is(err, target) {
			t.Errorf("%q: err %v, want %v", frame, err, target)
		}
		if len(res.Positions) != 0 || res.Reply != nil || res.Ack != nil {
			t.Errorf("%q: error result carries data: %+v", frame, res)
		}
	}
}

// BenchDecode reports the cost of decoding frame into one position; it
// fails b when the frame does not decode to exactly one.
func BenchDecode(b *testing.B, decode DecodeFunc, frame []byte) {
	b.Helper()
	conn := &protocols.Conn{}
	b.ReportAllocs()
	for b.Loop() {
		if res, err := decode(conn, frame); err != nil || len(res.Positions) != 1 {
			b.Fatal(res, err)
		}
	}
}
