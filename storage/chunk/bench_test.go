package chunk

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk/chunktest"
)

// dayPositions is a day at one fix every 10 s.
const dayPositions = 8640

func routes() map[string][]*model.Position {
	return map[string][]*model.Position{
		"gt06":      chunktest.GT06Route(dayPositions, 11),
		"teltonika": chunktest.TeltonikaRoute(dayPositions, 12),
		"osmand":    chunktest.OsmAndRoute(dayPositions/3, 13),
	}
}

// encodeChunks encodes ps in chunks of n.
func encodeChunks(t testing.TB, ps []*model.Position, n int) [][]byte {
	var out [][]byte
	for i := 0; i < len(ps); i += n {
		data, err := Encode(ps[i:min(i+n, len(ps))])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// TestBytesPerPosition measures a day's route against its JSON, in chunks
// of several sizes; the aim of issue 14 is 100 bytes a position at most.
func TestBytesPerPosition(t *testing.T) {
	for name, ps := range routes() {
		var jsonSize int
		for _, p := range ps {
			b, _ := json.Marshal(p)
			jsonSize += len(b)
		}
		line := fmt.Sprintf("%-9s %5d positions: JSON %4.0f B", name, len(ps), float64(jsonSize)/float64(len(ps)))
		for _, n := range []int{128, 512, 1024, len(ps)} {
			var size int
			for _, c := range encodeChunks(t, ps, n) {
				size += len(c)
			}
			per := float64(size) / float64(len(ps))
			line += fmt.Sprintf(", chunks of %d %5.1f B", n, per)
			if per > 100 {
				t.Errorf("%s in chunks of %d: %.1f bytes a position", name, n, per)
			}
		}
		t.Log(line)
	}
}

func BenchmarkEncode(b *testing.B) {
	for name, ps := range routes() {
		for _, n := range []int{128, 512, 1024} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				var size int
				for b.Loop() {
					size = 0
					for _, c := range encodeChunks(b, ps, n) {
						size += len(c)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/position")
				b.ReportMetric(float64(size)/float64(len(ps)), "B/position")
			})
		}
	}
}

// BenchmarkDecodeDay reads a day's route (8,640 positions for GT06 and
// Teltonika) stored in chunks of n.
func BenchmarkDecodeDay(b *testing.B) {
	for name, ps := range routes() {
		for _, n := range []int{128, 512, 1024} {
			chunks := encodeChunks(b, ps, n)
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, c := range chunks {
						if _, err := Decode(c); err != nil {
							b.Fatal(err)
						}
					}
				}
				perPos := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(ps))
				b.ReportMetric(perPos, "ns/position")
				b.ReportMetric(1e9/perPos, "positions/s")
			})
		}
	}
}

// BenchmarkDecodeEach streams a day's route and drops each position, as a
// report over a year of one tracker would read.
func BenchmarkDecodeEach(b *testing.B) {
	for name, ps := range routes() {
		chunks := encodeChunks(b, ps, 512)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range chunks {
					if err := DecodeEach(c, func(*model.Position) bool { return true }); err != nil {
						b.Fatal(err)
					}
				}
			}
			perPos := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(ps))
			b.ReportMetric(perPos, "ns/position")
			b.ReportMetric(1e9/perPos, "positions/s")
		})
	}
}

// BenchmarkDecodeJSON is today's read, for comparison: json.Unmarshal of
// each position.
func BenchmarkDecodeJSON(b *testing.B) {
	ps := chunktest.GT06Route(dayPositions, 11)
	var stored [][]byte
	for _, p := range ps {
		data, _ := json.Marshal(p)
		stored = append(stored, data)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range stored {
			var p model.Position
			if err := json.Unmarshal(data, &p); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/position")
}
