package chunk

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk/chunktest"
)

// source hands out fuzz bytes; zeros once they run out.
type source struct{ b []byte }

func (s *source) u8() byte {
	if len(s.b) == 0 {
		return 0
	}
	c := s.b[0]
	s.b = s.b[1:]
	return c
}

func (s *source) u64() uint64 {
	var x [8]byte
	n := copy(x[:], s.b)
	s.b = s.b[n:]
	return binary.LittleEndian.Uint64(x[:])
}

func (s *source) small() int64 { return int64(int8(s.u8())) }

// float is one of the kinds of float64 positions hold.
func (s *source) float() float64 {
	switch s.u8() % 6 {
	case 0:
		return float64(s.small())
	case 1:
		return float64(int64(s.u64()%2e9)-1e9) / 1e7
	case 2:
		return float64(int64(s.u64()%4e8)-2e8) / 1800000
	case 3:
		return float64(s.u8()) * chunktest.KphToKnots
	case 4:
		return float64(s.small()) / math.Pow10(int(s.u8()%18))
	}
	if v := math.Float64frombits(s.u64()); !math.IsNaN(v) && !math.IsInf(v, 0) {
		return v
	}
	return 0
}

var fuzzStrings = []string{"", "gt06", "sos", "a\xffb", "\xfe", "é", "teltonika", "\u2028<&>\"\\"}

func (s *source) string() string {
	if c := s.u8(); c < 200 {
		return fuzzStrings[int(c)%len(fuzzStrings)]
	}
	n := int(s.u8() % 8)
	out := make([]byte, 0, n)
	for range n {
		out = append(out, s.u8())
	}
	return string(out)
}

func (s *source) value(depth int) any {
	switch c := s.u8() % 12; {
	case c == 0:
		return nil
	case c == 1:
		return s.u8()&1 == 1
	case c == 2:
		return s.string()
	case c == 3:
		return int(s.small())
	case c == 4:
		return s.u64()
	case c == 5 && depth < 4:
		a := make([]any, s.u8()%4)
		for i := range a {
			a[i] = s.value(depth + 1)
		}
		return a
	case c == 6 && depth < 4:
		m := map[string]any{}
		for range s.u8() % 4 {
			m[s.string()] = s.value(depth + 1)
		}
		return m
	case c == 7:
		return float32(s.float())
	}
	return s.float()
}

var fuzzZones = []*time.Location{time.UTC, time.UTC, time.UTC, time.FixedZone("", 3600), time.FixedZone("", -9000), time.FixedZone("LMT", 561), time.Local}

func (s *source) zone() *time.Location { return fuzzZones[int(s.u8())%len(fuzzZones)] }

// positions builds one device's positions in store order from the bytes.
func (s *source) positions() []*model.Position {
	n := 1 + int(s.u8()%16)
	fix := time.Unix(int64(1_700_000_000+s.u64()%1e9), int64(s.u64()%1e9))
	id := int64(s.u64()>>1) - 1<<62
	var attrs model.Attributes
	ps := make([]*model.Position, 0, n)
	for range n {
		step := time.Duration(s.u8()%4) * time.Duration(int64(1)<<(s.u8()%40))
		fix = fix.Add(step)
		if step == 0 || s.u8()&1 == 0 {
			id += 1 + int64(s.u8())
		} else {
			id -= int64(s.u8())
		}
		p := &model.Position{
			Base: model.Base{ID: id}, DeviceID: 9, Protocol: s.string(),
			FixTime: fix.In(s.zone()), DeviceTime: fix.Add(time.Duration(s.small()) * time.Second).In(s.zone()),
			ServerTime: fix.Add(time.Duration(s.u64() % (1 << 50))).In(s.zone()),
			Outdated:   s.u8()&1 == 1, Valid: s.u8()&1 == 1,
			Latitude: s.float(), Longitude: s.float(), Altitude: s.float(),
			Speed: s.float(), Course: s.float(), Accuracy: s.float(),
		}
		if c := s.u8(); c&1 == 1 {
			p.ServerTime = time.Time{}
		}
		if c := s.u8(); c < 40 {
			a := s.string()
			p.Address = &a
		}
		if c := s.u8(); c < 40 {
			p.GeofenceIDs = []int64{}
			for range c % 4 {
				p.GeofenceIDs = append(p.GeofenceIDs, s.small())
			}
		}
		if c := s.u8(); c < 60 {
			p.Network = s.value(0)
		}
		// Attributes change a little from one position to the next.
		switch c := s.u8(); {
		case c < 20:
			attrs = nil
		case c < 40 || attrs == nil:
			attrs = model.Attributes{}
		}
		if attrs != nil {
			next := model.Attributes{}
			for k, v := range attrs {
				next[k] = v
			}
			for range s.u8() % 4 {
				next[s.string()] = s.value(0)
			}
			attrs = next
		}
		p.Attributes = attrs
		ps = append(ps, p)
	}
	return ps
}

func FuzzChunkRoundTrip(f *testing.F) {
	for _, ps := range edgeCases() {
		if data, err := Encode(ps); err == nil {
			f.Add(data)
		}
	}
	for _, ps := range [][]*model.Position{chunktest.GT06Route(5, 1), chunktest.TeltonikaRoute(5, 2), chunktest.OsmAndRoute(5, 3)} {
		data, err := Encode(ps)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte{})
	f.Add([]byte{Version, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Arbitrary bytes: an error or positions, never a panic; positions
		// decoded re-encode to the same.
		if ps, err := Decode(data); err == nil {
			again, err := Encode(ps)
			if err == nil {
				got, err := Decode(again)
				if err != nil {
					t.Fatalf("re-encoded chunk: %v", err)
				}
				for i := range ps {
					if g, w := mustJSON(t, got[i]), mustJSON(t, stored(t, ps[i])); !bytes.Equal(g, w) {
						t.Fatalf("re-encoded position #%d:\n got %s\nwant %s", i, g, w)
					}
				}
			}
		}
		_ = DecodeEach(data, func(*model.Position) bool { return true })

		// The bytes as positions: they round-trip.
		ps := (&source{b: data}).positions()
		for _, p := range ps {
			if _, err := json.Marshal(p); err != nil {
				if _, err := Encode(ps); err == nil {
					t.Fatalf("Encode takes a position json.Marshal refuses: %v", err)
				}
				return
			}
		}
		checkRoundTrip(t, ps, false)
	})
}
