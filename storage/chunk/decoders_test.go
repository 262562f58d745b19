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
	var stream protocols.Stream
	for _, e := range catalog.All() {
		if e.Name == "gt06" {
			stream = e.Stream
		}
	}
	if stream == nil {
		t.Skip("no gt06 in the catalog")
	}
	const imei = "0123456789012345"
	conn := &protocols.Conn{}
	bcd, _ := hex.DecodeString(imei)
	if res, err := stream.Decode(conn, gt06Frame(0x01, bcd, 1)); err != nil || res.UniqueID == "" {
		t.Fatalf("login: %v %+v", err, res)
	}
	conn.UniqueID = imei[1:]
	r := newRoute(21)
	rng := rand.New(rand.NewPCG(21, 1))
	var ps []*model.Position
	id, cell := int64(1), 0xC3A1
	for i := range 2000 {
		r.next(10 * time.Second)
		ts := day.Add(time.Duration(i) * 10 * time.Second)
		if rng.IntN(60) == 0 {
			cell += rng.IntN(9) - 4
		}
		b := []byte{byte(ts.Year() - 2000), byte(ts.Month()), byte(ts.Day()), byte(ts.Hour()), byte(ts.Minute()), byte(ts.Second()), 0xC9}
		b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(r.lat)*1800000)))
		b = binary.BigEndian.AppendUint32(b, uint32(math.Round(math.Abs(r.lon)*1800000)))
		b = append(b, byte(math.Round(r.kmh)))
		flags := uint16(int(math.Round(r.course))%360) | 1<<12 | 1<<13 | 1<<10
		b = binary.BigEndian.AppendUint16(b, flags)
		b = binary.BigEndian.AppendUint16(b, 208)
		b = append(b, 1)
		b = binary.BigEndian.AppendUint16(b, 0x2B0C)
		b = append(b, byte(cell>>16), byte(cell>>8), byte(cell))
		acc := byte(0)
		if r.ign {
			acc = 1
		}
		b = append(b, acc, 0, 0)
		res, err := stream.Decode(conn, gt06Frame(0x22, b, uint16(i+2)))
		if err != nil || len(res.Positions) != 1 {
			t.Fatalf("frame %d: %v, %d positions", i, err, len(res.Positions))
		}
		p := res.Positions[0]
		id = nextID(rng, id)
		p.ID, p.DeviceID, p.ServerTime = id, 42, serverTime(rng, p.FixTime)
		var prev *model.Position
		if len(ps) > 0 {
			prev = ps[len(ps)-1]
		}
		enrich(p, prev)
		ps = append(ps, p)
	}
	data := checkRoundTrip(t, ps, false)
	t.Logf("%d positions from the GT06 decoder: %.1f bytes a position (JSON %d for the first)",
		len(ps), float64(len(data))/float64(len(ps)), len(mustJSON(t, ps[0])))
	for _, n := range []int{128, 512} {
		var size int
		for _, c := range encodeChunks(t, ps, n) {
			size += len(c)
		}
		t.Logf("chunks of %d: %.1f bytes a position", n, float64(size)/float64(len(ps)))
	}
}
