package chunk

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk/chunktest"
)

// TestRecordRoundTrip: a record reads back as the JSON round trip of the
// position, for the routes of every fixture and the edge cases.
func TestRecordRoundTrip(t *testing.T) {
	sets := [][]*model.Position{chunktest.GT06Route(300, 1), chunktest.TeltonikaRoute(300, 2), chunktest.OsmAndRoute(300, 3)}
	for _, ps := range edgeCases() {
		sets = append(sets, ps)
	}
	for _, ps := range sets {
		for _, p := range ps {
			checkRecord(t, p)
		}
	}
}

// checkRecord encodes p as a record and checks what it decodes to.
func checkRecord(t *testing.T, p *model.Position) {
	t.Helper()
	data, err := AppendRecord(nil, p)
	if err != nil {
		if _, jerr := json.Marshal(p); jerr == nil {
			t.Fatalf("AppendRecord refused what JSON takes: %v", err)
		}
		return
	}
	got, err := DecodeRecord(data)
	if err != nil {
		t.Fatalf("DecodeRecord: %v", err)
	}
	got.ID, got.DeviceID = p.ID, p.DeviceID
	if g, w := mustJSON(t, got), mustJSON(t, stored(t, p)); !bytes.Equal(g, w) {
		t.Fatalf("record of position %d:\n got %s\nwant %s", p.ID, g, w)
	}
}

func FuzzRecordRoundTrip(f *testing.F) {
	for _, p := range chunktest.GT06Route(3, 1) {
		data, _ := AppendRecord(nil, p)
		f.Add(data)
	}
	f.Add([]byte{RecordVersion})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Arbitrary bytes: an error or a position, never a panic.
		if p, err := DecodeRecord(data); err == nil {
			checkRecord(t, p)
		}
		// The bytes as positions: each round-trips.
		s := &source{b: data}
		for _, p := range s.positions() {
			checkRecord(t, p)
		}
	})
}

func BenchmarkRecord(b *testing.B) {
	ps := chunktest.GT06Route(1000, 3)
	var size int
	b.Run("encode", func(b *testing.B) {
		var buf []byte
		for i := range b.N {
			buf, _ = AppendRecord(buf[:0], ps[i%len(ps)])
			size = len(buf)
		}
		b.ReportMetric(float64(size), "bytes")
	})
	recs := make([][]byte, len(ps))
	for i, p := range ps {
		recs[i], _ = AppendRecord(nil, p)
	}
	b.Run("decode", func(b *testing.B) {
		for i := range b.N {
			DecodeRecord(recs[i%len(recs)])
		}
	})
}
