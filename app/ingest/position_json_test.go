package ingest

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func typicalPosition() *model.Position {
	at := time.Date(2026, 11, 21, 10, 4, 5, 123456789, time.UTC)
	addr := "Main St 1, Springfield"
	return &model.Position{Base: model.Base{ID: 0}, DeviceID: 12, Protocol: "gt06", ServerTime: at, DeviceTime: at.Truncate(time.Second),
		FixTime: at.Truncate(time.Second), Valid: true, Latitude: 52.1234567, Longitude: -13.7654321, Altitude: 34.5,
		Speed: 23.4, Course: 181, Address: &addr, Accuracy: 0, GeofenceIDs: []int64{3, 1},
		Attributes: model.Attributes{"sat": 9, "ignition": true, "motion": true, "distance": 12.34, "totalDistance": 123456.78,
			"hours": int64(1234), "index": uint8(12), "batteryLevel": 80, "alarm": "sos", "io200": int32(-1), "adc1": uint16(3),
			"odometer": uint32(5), "mcc": uint64(262), "fuel": nil},
		// as the GT06 decoder makes it from the serving cell
		Network: map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{
			{"mobileCountryCode": 208, "mobileNetworkCode": 1, "locationAreaCode": 11020, "cellId": int64(50081)}}}}
}

// encodePosition must write what encoding/json writes, byte for byte,
// whether it takes the fast path or hands over.
func TestEncodePosition(t *testing.T) {
	tests := []struct {
		name string
		edit func(p *model.Position)
		fast bool // taken by the fast path
	}{
		{"typical", func(*model.Position) {}, true},
		{"empty", func(p *model.Position) { *p = model.Position{} }, true},
		{"nil slices and maps", func(p *model.Position) { p.GeofenceIDs, p.Attributes, p.Address = nil, nil, nil }, true},
		{"empty slices and maps", func(p *model.Position) { p.GeofenceIDs, p.Attributes = []int64{}, model.Attributes{} }, true},
		{"tiny and huge floats", func(p *model.Position) {
			p.Latitude, p.Longitude, p.Altitude, p.Speed, p.Course = 1e-7, -1e21, 1e20, 0.000001, -0.0000012345
			p.Attributes["f"] = 5e-324
		}, true},
		{"negative zero", func(p *model.Position) { p.Speed = math.Copysign(0, -1) }, true},
		{"time with an offset", func(p *model.Position) {
			p.FixTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 5*3600+30*60))
		}, true},
		{"unicode text", func(p *model.Position) { p.Attributes["driver"] = "Zoë Ünal 司机" }, true},
		{"text to escape", func(p *model.Position) { p.Attributes["note"] = `a "quote" & <tag>` }, false},
		{"control character", func(p *model.Position) { p.Attributes["raw"] = "a\nb" }, false},
		{"invalid UTF-8", func(p *model.Position) { p.Attributes["raw"] = "\xff\xfe" }, false},
		{"line separator", func(p *model.Position) { p.Attributes["raw"] = "a\u2028b" }, false},
		{"key to escape", func(p *model.Position) { p.Attributes["a&b"] = 1 }, false},
		{"network from JSON", func(p *model.Position) {
			p.Network = map[string]any{"wifiAccessPoints": []any{map[string]any{"macAddress": "00:14:22:01:23:45", "signalStrength": -80.0}}}
		}, true},
		{"nested attribute", func(p *model.Position) {
			p.Attributes["io"] = model.Attributes{"1": 2, "empty": []any{}, "none": []any(nil)}
		}, true},
		{"nested too deep", func(p *model.Position) {
			v := any(1)
			for range maxDepth + 1 {
				v = []any{v}
			}
			p.Attributes["deep"] = v
		}, false},
		{"map holding itself", func(p *model.Position) {
			m := map[string]any{}
			m["self"] = m
			p.Network = m
		}, false},
		{"network of another type", func(p *model.Position) { p.Network = struct{ A int }{1} }, false},
		{"float32 attribute", func(p *model.Position) { p.Attributes["v"] = float32(0.1) }, false},
		{"protocol to escape", func(p *model.Position) { p.Protocol = "<x>" }, false},
		{"year 10000", func(p *model.Position) { p.DeviceTime = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := typicalPosition()
			tc.edit(p)
			want, werr := json.Marshal(p)
			got, gerr := encodePosition(p)
			if (gerr != nil) != (werr != nil) || !bytes.Equal(got, want) {
				t.Fatalf("encodePosition =\n%s (%v)\nencoding/json =\n%s (%v)", got, gerr, want, werr)
			}
			if _, fast := appendPosition(nil, p); fast != tc.fast {
				t.Errorf("fast path taken = %v, want %v", fast, tc.fast)
			}
		})
	}
}

// Values encoding/json refuses are refused the same way.
func TestEncodePositionRefuses(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		p := typicalPosition()
		p.Attributes["bad"] = v
		if _, err := encodePosition(p); err == nil {
			t.Errorf("attribute %v encoded", v)
		}
		p = typicalPosition()
		p.Speed = v
		if _, err := encodePosition(p); err == nil {
			t.Errorf("speed %v encoded", v)
		}
	}
}

// FuzzEncodePosition: whatever the fields hold, the fast path writes
// exactly what encoding/json writes, or hands over.
func FuzzEncodePosition(f *testing.F) {
	f.Add(int64(1), "gt06", "sos", 52.5, -13.25, 1e-7, int64(1700000000123456789), int32(3600), true)
	f.Add(int64(-5), "ü\u2028", "\xff", math.Inf(1), 1e21, 0.0, int64(-62135596800000000), int32(-1), false)
	f.Fuzz(func(t *testing.T, id int64, protocol, text string, lat, lon, attr float64, nanos int64, offset int32, flag bool) {
		at := time.Unix(0, nanos).In(time.FixedZone("", int(offset%86400)))
		p := &model.Position{Base: model.Base{ID: id}, DeviceID: id, Protocol: protocol, ServerTime: at, DeviceTime: at, FixTime: at,
			Valid: flag, Latitude: lat, Longitude: lon, Address: &text, GeofenceIDs: []int64{id},
			Attributes: model.Attributes{text: attr, "flag": flag, "n": int(nanos), "s": protocol, "io": model.Attributes{text: []any{attr, text}}},
			Network:    map[string]any{"radioType": text, "cellTowers": []map[string]any{{"cellId": nanos, text: attr}}}}
		b, fast := appendPosition(nil, p)
		if !fast {
			return
		}
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("fast path encoded what encoding/json refuses (%v): %s", err, b)
		}
		if !bytes.Equal(b, want) {
			t.Fatalf("fast path =\n%s\nencoding/json =\n%s", b, want)
		}
	})
}

func BenchmarkEncodePosition(b *testing.B) {
	p := typicalPosition()
	b.Run("fast path", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodePosition(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
