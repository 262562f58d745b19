package gt06

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
)

// FuzzSplitDecode feeds random bytes through the Split loop the listener
// runs and decodes every frame: nothing may panic, and Split must always
// advance or ask for more.
func FuzzSplitDecode(f *testing.F) {
	for _, s := range append(streamFrames, login2Frame) {
		f.Add(unhexNoT(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := New()
		conn := &protocols.Conn{}
		for _, atEOF := range []bool{false, true} {
			rest := data
			for len(rest) > 0 {
				adv, tok, err := p.Split(rest, atEOF)
				if err != nil {
					break
				}
				if adv < 0 || adv > len(rest) || len(tok) > adv {
					t.Fatalf("Split(%x) = %d, %d-byte token", rest, adv, len(tok))
				}
				if adv == 0 {
					if atEOF {
						t.Fatalf("Split made no progress at EOF on %x", rest)
					}
					break // asks for more input
				}
				if tok != nil {
					checkDecode(t, p, conn, tok)
				}
				rest = rest[adv:]
			}
		}
		checkDecode(t, p, conn, data) // Decode must also survive unsplit input
	})
}

func checkDecode(t *testing.T, p *Protocol, conn *protocols.Conn, frame []byte) {
	res, err := p.Decode(conn, frame)
	if err != nil {
		return
	}
	for _, pos := range res.Positions {
		if pos == nil || pos.Attributes == nil || pos.Protocol != Name {
			t.Fatalf("bad position %+v from %x", pos, frame)
		}
	}
}
