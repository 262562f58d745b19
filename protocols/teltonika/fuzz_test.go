package teltonika

import (
	"encoding/hex"
	"testing"

	"github.com/fleetd/fleetd/protocols"
)

func seeds(f *testing.F, frames ...string) {
	for _, s := range frames {
		b, err := hex.DecodeString(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzSplitDecode feeds random bytes through the Split loop the listener
// runs and decodes every frame: nothing may panic, and Split must always
// advance or ask for more.
func FuzzSplitDecode(f *testing.F) {
	seeds(f, append(streamFrames, "FF000F313233343536373839303132333435")...)
	f.Fuzz(func(t *testing.T, data []byte) {
		p := New()
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
					checkPositions(t, p.Decode, tok)
				}
				rest = rest[adv:]
			}
		}
		checkPositions(t, p.Decode, data) // Decode must also survive unsplit input
	})
}

// FuzzDatagram decodes random UDP packets.
func FuzzDatagram(f *testing.F) {
	seeds(f, udpPacket, "000ecafe01220002414208010000")
	f.Fuzz(func(t *testing.T, packet []byte) {
		checkPositions(t, New().DecodeDatagram, packet)
	})
}

func checkPositions(t *testing.T, decode func(*protocols.Conn, []byte) (protocols.Result, error), b []byte) {
	res, err := decode(&protocols.Conn{}, b)
	if err != nil {
		return
	}
	for _, p := range res.Positions {
		if p == nil || p.Attributes == nil || p.Protocol != Name {
			t.Fatalf("bad position %+v from %x", p, b)
		}
	}
}
