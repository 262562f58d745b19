package catalog

import (
	"testing"

	"github.com/fleetd/fleetd/protocols"
)

// FuzzAutoPick: no input makes the shared port pick a protocol that then
// fails to take it (a misroute: the protocol recognising bytes that are
// another's would decode them wrong or not at all), and a recogniser
// never panics. Every protocol that says Mine is checked, not only the
// first, so the order of asking decides nothing.
func FuzzAutoPick(f *testing.F) {
	for _, s := range samples(f) {
		f.Add(s.data)
	}
	recs := recognizers()
	streams := map[string]protocols.Stream{}
	for _, e := range All() {
		if e.Stream != nil {
			streams[e.Name] = e.Stream
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, r := range recs {
			if r.datagram != nil && r.datagram(data) {
				res, err := streams[r.name].(protocols.Datagram).DecodeDatagram(&protocols.Conn{}, data)
				if err != nil || res.UniqueID == "" {
					t.Fatalf("%s recognises datagram %x but does not decode it: %v", r.name, data, err)
				}
			}
			if r.recognize(data) != protocols.Mine {
				continue
			}
			s, ok := streams[r.name]
			if !ok {
				continue // HTTP: the request line is checked whole by the HTTP reader
			}
			_, token, err := s.Split(data, false)
			if err != nil || token == nil {
				t.Fatalf("%s recognises %x but cuts no frame from it: %v", r.name, data, err)
			}
			if res, err := s.Decode(&protocols.Conn{}, token); err != nil || res.Unsupported != "" {
				t.Fatalf("%s recognises %x but does not take it: %v %s", r.name, data, err, res.Unsupported)
			}
		}
	})
}

// BenchmarkRecognize is what recognition costs one connection: every
// protocol asked about one opening frame of each protocol, in turn.
func BenchmarkRecognize(b *testing.B) {
	var opening [][]byte
	for _, s := range samples(b) {
		if s.kind == "open" {
			opening = append(opening, s.data)
		}
	}
	recs := recognizers()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		head := opening[i%len(opening)]
		i++
		for _, r := range recs {
			if r.recognize(head) == protocols.Mine {
				break
			}
		}
	}
}
