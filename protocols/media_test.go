package protocols_test

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
)

// Parts are kept only on an identified connection, within a file's bound
// and the budget all connections share, and given back when the file is
// taken or dropped and when the connection ends.
func TestParts(t *testing.T) {
	base := protocols.MediaHeld()
	held := func() int64 { return protocols.MediaHeld() - base }
	if (&protocols.Conn{}).Parts() != nil {
		t.Fatal("a connection whose device is not known keeps parts")
	}
	const mib = 1 << 20
	chunk := make([]byte, mib)
	c := &protocols.Conn{UniqueID: "1"}
	p := c.Parts()
	if !p.Add(chunk[:10], 20) || !p.Add(chunk[:10], 20) || held() != 20 {
		t.Fatalf("two adds within the bound: %d held", held())
	}
	p.Cut(5)
	if len(p.Bytes()) != 15 || held() != 15 {
		t.Fatalf("after a cut: %d, %d held", len(p.Bytes()), held())
	}
	if p.Add(chunk[:6], 20) || len(p.Bytes()) != 0 || held() != 0 {
		t.Fatalf("past the file's bound: %d kept, %d held", len(p.Bytes()), held())
	}
	if !p.Add(chunk[:3], 20) || len(p.Take()) != 3 || held() != 0 {
		t.Fatalf("take: %d held", held())
	}

	// Fill the shared budget from many connections: the one past it keeps
	// nothing; a connection that ends makes room.
	var conns []*protocols.Conn
	for range protocols.MediaBudget / mib {
		c := &protocols.Conn{UniqueID: "1"}
		if !c.Parts().Add(chunk, 2*mib) {
			t.Fatalf("refused with %d held", held())
		}
		conns = append(conns, c)
	}
	over := &protocols.Conn{UniqueID: "1"}
	if over.Parts().Add(chunk, 2*mib) || len(over.Parts().Bytes()) != 0 || held() != protocols.MediaBudget {
		t.Fatalf("past the budget: kept %d, %d held", len(over.Parts().Bytes()), held())
	}
	conns[0].Release()
	if !over.Parts().Add(chunk, 2*mib) {
		t.Fatal("no room after a connection ended")
	}
	over.Release()
	for _, c := range conns[1:] {
		c.Release()
	}
	if held() != 0 {
		t.Errorf("%d bytes held after every connection ended", held())
	}
}
