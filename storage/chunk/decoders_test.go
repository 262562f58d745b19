package chunk

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/protocols"
	"github.com/fleetd/fleetd/protocols/catalog"
	"github.com/fleetd/fleetd/storage/chunk/chunktest"
)

// gt06Frame is a GT06 frame: 78 78, length, type, content, serial,
// CRC-16/X.25 over length..serial, 0D 0A (as protocols/simulate sends).
func gt06Frame(typ byte, content []byte, serial uint16) []byte {
	out := []byte{0x78, 0x78, byte(1 + len(content) + 4), typ}
	out = append(out, content...)
	out = binary.BigEndian.AppendUint16(out, serial)
	crc := uint16(0xFFFF)
	for _, b := range out[2:] {
		crc ^= uint16(b)
		for range 8 {
			if crc&1 == 1 {
				crc = crc>>1 ^ 0x8408
			} else {
				crc >>= 1
			}
		}
	}
	out = binary.BigEndian.AppendUint16(out, ^crc)
	return append(out, 0x0D, 0x0A)
}

// TestGT06Decoder round-trips positions made by fleetd's own GT06 decoder
// from 0x22 frames (GPS, serving cell, ACC tail) of a route, enriched as
// the ingest does.
func TestGT06Decoder(t *testing.T) {
	gt := stream(t, "gt06")
	const imei = "0123456789012345"
	conn := &protocols.Conn{}
	bcd, _ := hex.DecodeString(imei)
	if res, err := gt.Decode(conn, gt06Frame(0x01, bcd, 1)); err != nil || res.UniqueID == "" {
		t.Fatalf("login: %v %+v", err, res)
	}
	conn.UniqueID = imei[1:]
	r := chunktest.NewRoute(21)
	rng := rand.New(rand.NewPCG(21, 1))
	var ps []*model.Position
	id, cell := int64(1), 0xC3A1
	for i := range 2000 {
		r.Next(10 * time.Second)
		ts := chunktest.Day.Add(time.Duration(i) * 10 * time.Second)
		if rng.IntN(60) == 0 {
			cell += rng.IntN(9) - 4
		}
		b := []byte{byte(ts.Year() - 2000), byte(ts.Month()), byte(ts.Day()), byte(ts.Hour()), byte(ts.Minute()), byte(ts.Second()), 0xC9}
		b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(r.Lat)*1800000)))
		b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(r.Lon)*1800000)))
		b = append(b, byte(math.Round(r.Kmh)))
		flags := uint16(int(math.Round(r.Course))%360) | 1<<12 | 1<<13 | 1<<10
		b = binary.BigEndian.AppendUint16(b, flags)
		b = binary.BigEndian.AppendUint16(b, 208)
		b = append(b, 1)
		b = binary.BigEndian.AppendUint16(b, 0x2B0C)
		b = append(b, byte(cell>>16), byte(cell>>8), byte(cell))
		acc := byte(0)
		if r.Ign {
			acc = 1
		}
		b = append(b, acc, 0, 0)
		res, err := gt.Decode(conn, gt06Frame(0x22, b, uint16(i+2)))
		if err != nil || len(res.Positions) != 1 {
			t.Fatalf("frame %d: %v, %d positions", i, err, len(res.Positions))
		}
		p := res.Positions[0]
		id = chunktest.NextID(rng, id)
		p.ID, p.DeviceID, p.ServerTime = id, 42, chunktest.ServerTime(rng, p.FixTime)
		var prev *model.Position
		if len(ps) > 0 {
			prev = ps[len(ps)-1]
		}
		chunktest.Enrich(p, prev)
		ps = append(ps, p)
	}
	checkDecoded(t, ps)
}

// checkDecoded round-trips decoder-made positions and logs their size.
func checkDecoded(t *testing.T, ps []*model.Position) {
	data := checkRoundTrip(t, ps, false)
	t.Logf("%d positions: %.1f bytes a position in one chunk (JSON %d for the first)",
		len(ps), float64(len(data))/float64(len(ps)), len(mustJSON(t, ps[0])))
	for _, n := range []int{128, 512} {
		var size int
		for _, c := range encodeChunks(t, ps, n) {
			size += len(c)
		}
		t.Logf("chunks of %d: %.1f bytes a position", n, float64(size)/float64(len(ps)))
	}
}

func stream(t *testing.T, name string) protocols.Stream {
	for _, e := range catalog.All() {
		if e.Name == name && e.Stream != nil {
			return e.Stream
		}
	}
	t.Skipf("no %s in the catalog", name)
	return nil
}

// TestTeltonikaDecoder round-trips positions made by fleetd's own
// Teltonika decoder from codec 8 packets with an FMB's usual IO elements.
func TestTeltonikaDecoder(t *testing.T) {
	s := stream(t, "teltonika")
	const imei = "356307042441013"
	conn := &protocols.Conn{}
	if _, err := s.Decode(conn, append(binary.BigEndian.AppendUint16(nil, uint16(len(imei))), imei...)); err != nil {
		t.Fatalf("login: %v", err)
	}
	conn.UniqueID = imei
	r := chunktest.NewRoute(22)
	rng := rand.New(rand.NewPCG(22, 1))
	var ps []*model.Position
	id, odometer, trip, battery := int64(1), uint32(123_456_789), uint32(0), 4100
	for i := range 2000 {
		r.Next(10 * time.Second)
		ts := chunktest.Day.Add(time.Duration(i) * 10 * time.Second)
		odometer += uint32(math.Round(r.Kmh / 3.6 * 10))
		trip += uint32(math.Round(r.Kmh / 3.6 * 10))
		battery = max(3500, min(4200, battery+rng.IntN(21)-10))
		ign, moving := byte(0), byte(0)
		if r.Ign {
			ign = 1
		}
		if r.Kmh > 0 {
			moving = 1
		}
		d := []byte{0x08, 1}
		d = binary.BigEndian.AppendUint64(d, uint64(ts.UnixMilli()))
		d = append(d, 0)
		d = binary.BigEndian.AppendUint32(d, uint32(int32(math.Round(r.Lon*1e7))))
		d = binary.BigEndian.AppendUint32(d, uint32(int32(math.Round(r.Lat*1e7))))
		d = binary.BigEndian.AppendUint16(d, uint16(35+rng.IntN(3)))
		d = binary.BigEndian.AppendUint16(d, uint16(int(math.Round(r.Course))%360))
		d = append(d, byte(9+rng.IntN(3)))
		d = binary.BigEndian.AppendUint16(d, uint16(math.Round(r.Kmh)))
		d = append(d, 0, 17) // event IO, 17 elements
		d = append(d, 7, 239, ign, 240, moving, 21, 5, 69, 1, 200, 0, 1, ign, 179, 0)
		d = append(d, 7)
		for _, e := range [][2]int{{66, 12000 + 2400*int(ign) + rng.IntN(100)}, {67, battery}, {68, rng.IntN(50)},
			{181, 8 + rng.IntN(6)}, {182, 5 + rng.IntN(6)}, {205, 31_000 + i/300}, {206, 1017}} {
			d = append(d, byte(e[0]))
			d = binary.BigEndian.AppendUint16(d, uint16(e[1]))
		}
		d = append(d, 3, 16)
		d = binary.BigEndian.AppendUint32(d, odometer)
		d = append(d, 241)
		d = binary.BigEndian.AppendUint32(d, 24602)
		d = append(d, 199)
		d = binary.BigEndian.AppendUint32(d, trip)
		d = append(d, 0, 1) // no 8-byte IO, closing record count
		crc := uint16(0)
		for _, b := range d {
			crc ^= uint16(b)
			for range 8 {
				if crc&1 == 1 {
					crc = crc>>1 ^ 0xA001
				} else {
					crc >>= 1
				}
			}
		}
		frame := binary.BigEndian.AppendUint32(make([]byte, 4), uint32(len(d)))
		frame = binary.BigEndian.AppendUint32(append(frame, d...), uint32(crc))
		res, err := s.Decode(conn, frame)
		if err != nil || len(res.Positions) != 1 {
			t.Fatalf("packet %d: %v, %d positions", i, err, len(res.Positions))
		}
		p := res.Positions[0]
		id = chunktest.NextID(rng, id)
		p.ID, p.DeviceID, p.ServerTime = id, 43, chunktest.ServerTime(rng, p.FixTime)
		var prev *model.Position
		if len(ps) > 0 {
			prev = ps[len(ps)-1]
		}
		chunktest.Enrich(p, prev)
		ps = append(ps, p)
	}
	if len(ps[0].Attributes) < 20 {
		t.Errorf("the decoder made %d attributes: %v", len(ps[0].Attributes), ps[0].Attributes)
	}
	checkDecoded(t, ps)
}
