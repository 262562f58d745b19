package chunk

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/chunk/chunktest"
)

// stored is p as today's JSON store returns it.
func stored(t testing.TB, p *model.Position) *model.Position {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("position %d: %v", p.ID, err)
	}
	var q model.Position
	if err := json.Unmarshal(b, &q); err != nil {
		t.Fatalf("position %d: %v", p.ID, err)
	}
	return &q
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkRoundTrip encodes ps, decodes the chunk and compares each position's
// JSON with the JSON store's, and the header with ps; deep tells whether
// the Go values must be deeply equal too.
func checkRoundTrip(t testing.TB, ps []*model.Position, deep bool) []byte {
	t.Helper()
	data, err := Encode(ps)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if len(got) != len(ps) {
		t.Fatalf("decoded %d positions, want %d", len(got), len(ps))
	}
	for i, p := range ps {
		want := stored(t, p)
		if g, w := mustJSON(t, got[i]), mustJSON(t, want); !bytes.Equal(g, w) {
			t.Fatalf("position %d (#%d):\n got %s\nwant %s", p.ID, i, g, w)
		}
		if deep && !reflect.DeepEqual(got[i], want) {
			t.Fatalf("position %d (#%d): decoded %#v\nwant %#v", p.ID, i, got[i], want)
		}
	}
	h, err := ReadHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	first, last := stored(t, ps[0]), stored(t, ps[len(ps)-1])
	if h.Count != len(ps) || h.DeviceID != first.DeviceID || h.FirstID != first.ID || h.LastID != last.ID ||
		!h.FirstFix.Equal(first.FixTime) || !h.LastFix.Equal(last.FixTime) {
		t.Fatalf("header %+v, want %d positions of device %d, %d at %v to %d at %v",
			h, len(ps), first.DeviceID, first.ID, first.FixTime, last.ID, last.FixTime)
	}
	var n int
	if err := DecodeEach(data, func(p *model.Position) bool {
		if !bytes.Equal(mustJSON(t, p), mustJSON(t, got[n])) {
			t.Fatalf("DecodeEach position #%d differs from Decode's", n)
		}
		n++
		return n < len(ps)/2+1
	}); err != nil || n != len(ps)/2+1 {
		t.Fatalf("DecodeEach: %v after %d positions, want it to stop after %d", err, n, len(ps)/2+1)
	}
	return data
}

func str(s string) *string { return &s }

// edge cases: each list is one device's positions in store order.
func edgeCases() map[string][]*model.Position {
	t0 := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	base := func(id int64, fix time.Time) *model.Position {
		return &model.Position{
			Base: model.Base{ID: id}, DeviceID: 7, Protocol: "gt06", FixTime: fix, DeviceTime: fix,
			ServerTime: fix.Add(1500 * time.Millisecond), Valid: true, Latitude: 48.1, Longitude: 11.5,
			Attributes: model.Attributes{"sat": 7},
		}
	}
	paris := time.FixedZone("CET", 3600)
	lmt := time.FixedZone("LMT", 561) // +00:09:21, Paris mean time
	cases := map[string][]*model.Position{}
	add := func(name string, ps ...*model.Position) { cases[name] = ps }

	add("one", base(1, t0))
	outdated := base(11, t0)
	outdated.Outdated, outdated.Valid = true, false
	outdated.ServerTime = t0.Add(3 * time.Hour)
	outdated.DeviceTime = t0.Add(3 * time.Hour)
	add("outdated", base(10, t0), outdated, base(12, t0.Add(time.Second)))

	a1, a2, a3, a4 := base(1, t0), base(2, t0.Add(10*time.Second)), base(3, t0.Add(20*time.Second)), base(4, t0.Add(30*time.Second))
	a1.Address, a2.Address, a3.Address = str("1 Rue de Rivoli, Paris"), str("1 Rue de Rivoli, Paris"), str("")
	add("address", a1, a2, a3, a4)

	g1, g2, g3, g4 := base(1, t0), base(2, t0.Add(10*time.Second)), base(3, t0.Add(20*time.Second)), base(4, t0.Add(30*time.Second))
	g1.GeofenceIDs, g2.GeofenceIDs, g3.GeofenceIDs = []int64{3, 1, 900}, []int64{3, 1, 900}, []int64{}
	g4.GeofenceIDs = []int64{-5, math.MaxInt64, math.MinInt64}
	add("geofences", g1, g2, g3, g4)

	add("equal fix times", base(5, t0), base(6, t0), base(900, t0), base(901, t0.Add(time.Second)), base(902, t0.Add(time.Second)))
	add("out-of-order ids", base(500, t0), base(20, t0.Add(time.Second)), base(19, t0.Add(2*time.Second)), base(1000, t0.Add(2*time.Second)))

	z1, z2, z3, z4, z5 := base(1, t0.In(paris)), base(2, t0.Add(time.Minute).In(time.Local)), base(3, t0.Add(2*time.Minute).In(lmt)), base(4, t0.Add(3*time.Minute)), base(5, t0.Add(4*time.Minute))
	z1.ServerTime = z1.ServerTime.In(time.FixedZone("", -5*3600-30*60))
	z4.ServerTime = time.Time{}
	z4.DeviceTime = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	z5.DeviceTime = time.Date(2000, 2, 29, 23, 59, 59, 999999999, time.UTC)
	z5.ServerTime = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", 23*3600+59*60))
	add("zones and far times", z1, z2, z3, z4, z5)

	n1, n2, n3 := base(1, t0.Add(123456789)), base(2, t0.Add(time.Second+987654321)), base(3, t0.Add(2*time.Second))
	n2.ServerTime = n2.FixTime.Add(-time.Hour) // server before fix
	add("nanoseconds", n1, n2, n3)

	v := base(1, t0)
	v.Attributes = model.Attributes{
		"int": 42, "int8": int8(-8), "int64": int64(-1 << 62), "uint64": uint64(math.MaxUint64), "uint8": uint8(255),
		"float32": float32(0.1), "negzero": math.Copysign(0, -1), "tiny": 5e-324, "huge": 1.7976931348623157e308,
		"third": 1.0 / 3, "pi": math.Pi, "decimal": 12.345, "neg": -0.5, "big": 1e21, "bigint": float64(1 << 60),
		"string": "héllo \"world\" <&>", "empty": "", "bad": "a\xffb\xfe", "null": nil, "true": true, "false": false,
		"number": json.Number("12.50"), "raw": json.RawMessage(`{"b":[1,2,{"c":null}],"a":"x"}`),
		"nested": map[string]any{"z": []any{1, "two", 3.5, nil, []any{}, map[string]any{}}, "a": model.Attributes{"x": int64(1)}},
		"list":   []map[string]any{{"k": 1}, {"k": 2.5}}, "ints": []int{1, 2, 3}, "struct": struct{ A int }{5},
		"time": t0.In(paris), "bytes": []byte{1, 2, 3}, "strs": map[string]string{"a": "b"},
	}
	v2 := base(2, t0.Add(time.Second))
	v2.Attributes = model.Attributes{"int": 43, "\xff": 1, "\xfe": 2, "pi": math.Pi, "decimal": 12.35, "string": "héllo \"world\" <&>"}
	v3 := base(3, t0.Add(2*time.Second))
	v3.Attributes = model.Attributes{}
	v4 := base(4, t0.Add(3*time.Second))
	v4.Attributes = nil
	v5 := base(5, t0.Add(4*time.Second))
	v5.Attributes = model.Attributes{"int": "now a string", "pi": nil, "decimal": true, "x": map[string]any{"y": 1}}
	v6 := base(6, t0.Add(5*time.Second))
	v6.Attributes = model.Attributes{"int": 1, "pi": 3.14, "decimal": 12.35, "x": map[string]any{"y": 1}}
	add("attribute values", v, v2, v3, v4, v5, v6)

	w1, w2, w3, w4 := base(1, t0), base(2, t0.Add(time.Second)), base(3, t0.Add(2*time.Second)), base(4, t0.Add(3*time.Second))
	w1.Network = map[string]any{"radioType": "lte", "cellTowers": []any{map[string]any{"cellId": 1, "lac": 2}}}
	w2.Network = map[string]any{"radioType": "lte", "cellTowers": []any{map[string]any{"cellId": 1, "lac": 2}}}
	w3.Network = map[string]any{"radioType": "lte", "wifiAccessPoints": []any{map[string]any{"macAddress": "aa:bb", "signalStrength": -70}}}
	w4.Network = "odd"
	add("network", w1, w2, w3, w4)

	c1, c2, c3 := base(1, t0), base(2, t0.Add(time.Second)), base(3, t0.Add(2*time.Second))
	c1.Latitude, c1.Longitude, c1.Altitude, c1.Speed, c1.Course, c1.Accuracy = -33.8688, 151.2093, -12.5, 0.1, 359.9, 0
	c2.Latitude, c2.Longitude, c2.Altitude, c2.Speed, c2.Course, c2.Accuracy = math.Copysign(0, -1), -0.0000001, 1/3.0, math.Pi, 0, 1e300
	c3.Latitude, c3.Longitude, c3.Protocol, c3.Valid = 90, -180, "teltonika", false
	add("coordinates and protocol", c1, c2, c3)

	s := base(1, t0)
	s.Protocol, s.Address = "g\xfft06", str("bad \xff address")
	add("invalid UTF-8 strings", s)
	return cases
}

func TestRoundTripEdgeCases(t *testing.T) {
	for name, ps := range edgeCases() {
		t.Run(name, func(t *testing.T) { checkRoundTrip(t, ps, true) })
	}
}

func TestRoundTripRoutes(t *testing.T) {
	for name, ps := range map[string][]*model.Position{
		"gt06":      chunktest.GT06Route(2000, 1),
		"teltonika": chunktest.TeltonikaRoute(2000, 2),
		"osmand":    chunktest.OsmAndRoute(1000, 3),
	} {
		t.Run(name, func(t *testing.T) {
			for _, n := range []int{1, 2, 128, len(ps)} {
				data := checkRoundTrip(t, ps[:n], false)
				t.Logf("%d positions: %d bytes, %.1f a position", n, len(data), float64(len(data))/float64(n))
			}
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	p := func(id, device int64, fix time.Time) *model.Position {
		return &model.Position{Base: model.Base{ID: id}, DeviceID: device, FixTime: fix}
	}
	nan := p(1, 1, t0)
	nan.Latitude = math.NaN()
	inf := p(1, 1, t0)
	inf.Attributes = model.Attributes{"x": math.Inf(1)}
	year := p(1, 1, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))
	cyclic := p(1, 1, t0)
	m := map[string]any{}
	m["self"] = m
	cyclic.Network = m
	for name, c := range map[string]struct {
		ps    []*model.Position
		order bool
	}{
		"empty":         {nil, false},
		"nil":           {[]*model.Position{nil}, false},
		"NaN":           {[]*model.Position{nan}, false},
		"infinity":      {[]*model.Position{inf}, false},
		"year 10000":    {[]*model.Position{year}, false},
		"cyclic":        {[]*model.Position{cyclic}, false},
		"two devices":   {[]*model.Position{p(1, 1, t0), p(2, 2, t0.Add(time.Second))}, true},
		"time order":    {[]*model.Position{p(1, 1, t0.Add(time.Second)), p(2, 1, t0)}, true},
		"id order":      {[]*model.Position{p(2, 1, t0), p(1, 1, t0)}, true},
		"duplicate ids": {[]*model.Position{p(2, 1, t0), p(2, 1, t0)}, true},
	} {
		_, err := Encode(c.ps)
		if err == nil || errors.Is(err, ErrOrder) != c.order {
			t.Errorf("%s: Encode error %v", name, err)
		}
	}
}

// TestDecodeCorrupt decodes every truncation and many single-byte
// changes of chunks, raw and compressed: an error or positions, never a
// panic.
func TestDecodeCorrupt(t *testing.T) {
	for _, d := range [][]byte{nil, {}, {Version}, {2, 1}} {
		if _, err := Decode(d); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Decode(%x) = %v, want ErrCorrupt", d, err)
		}
	}
	cases := edgeCases()
	for _, ps := range [][]*model.Position{cases["attribute values"], cases["zones and far times"], chunktest.GT06Route(300, 5)} {
		data, err := Encode(ps)
		if err != nil {
			t.Fatal(err)
		}
		h, _ := ReadHeader(data)
		_, body, _ := readHeader(data)
		t.Logf("%d positions, body %d (%d bytes)", h.Count, body[0], len(data))
		for n := range len(data) {
			if _, err := Decode(data[:n]); err == nil {
				t.Errorf("Decode of %d of %d bytes: no error", n, len(data))
			}
		}
		for i := range data {
			for _, x := range []byte{1, 0x80, 0xff} {
				c := bytes.Clone(data)
				c[i] ^= x
				Decode(c)
				DecodeEach(c, func(*model.Position) bool { return true })
			}
		}
	}
}

// TestLocalZone: a time whose offset is the local zone's comes back in
// time.Local, as encoding/json parses it.
func TestLocalZone(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.FixedZone("CET", 3600)
	t0 := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	var ps []*model.Position
	for i, loc := range []*time.Location{time.Local, time.UTC, time.FixedZone("", 3600), time.FixedZone("", 7200)} {
		fix := t0.Add(time.Duration(i) * time.Second).In(loc)
		ps = append(ps, &model.Position{Base: model.Base{ID: int64(i + 1)}, DeviceID: 1, FixTime: fix, DeviceTime: fix, ServerTime: fix})
	}
	checkRoundTrip(t, ps, true)
	got, _ := Decode(mustEncode(t, ps))
	if got[0].FixTime.Location() != time.Local || got[2].FixTime.Location() != time.Local {
		t.Errorf("zones %v, %v, want Local", got[0].FixTime.Location(), got[2].FixTime.Location())
	}
}

func mustEncode(t testing.TB, ps []*model.Position) []byte {
	t.Helper()
	data, err := Encode(ps)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestConcurrentDecode shares the zstd decoder between goroutines.
func TestConcurrentDecode(t *testing.T) {
	data := mustEncode(t, chunktest.GT06Route(600, 8))
	want, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := mustJSON(t, want)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := Decode(data)
			if err == nil && !bytes.Equal(mustJSON(t, got), wantJSON) {
				err = errors.New("decoded differently")
			}
			if err == nil {
				_, err = Encode(got)
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestHighlyCompressible: positions that differ only by a second a time
// compress to less than a byte each; the header and the decoders take the
// chunk all the same (they once refused a count above the chunk's length).
func TestHighlyCompressible(t *testing.T) {
	ps := make([]*model.Position, 512)
	for i := range ps {
		at := time.Unix(1_700_000_000+int64(i), 0).UTC()
		ps[i] = &model.Position{Base: model.Base{ID: int64(i + 1)}, DeviceID: 1, Protocol: "gt06",
			FixTime: at, DeviceTime: at, ServerTime: at, Attributes: model.Attributes{}}
	}
	data, err := Encode(ps)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) >= len(ps) {
		t.Fatalf("%d bytes for %d positions: not the case this test is for", len(data), len(ps))
	}
	if h, err := ReadHeader(data); err != nil || h.Count != len(ps) {
		t.Fatalf("ReadHeader = %+v, %v", h, err)
	}
	got, err := Decode(data)
	if err != nil || len(got) != len(ps) {
		t.Fatalf("Decode: %d positions, %v", len(got), err)
	}
}
