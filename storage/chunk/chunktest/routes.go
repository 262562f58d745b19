// Package chunktest makes positions shaped as the decoders and the ingest
// make them, for the chunk codec's and the store's tests and benchmarks:
// the same value types (ints from the decoders, float64 from conversions)
// and the same arithmetic (GT06 float64(raw)/1800000, km/h * 0.539957,
// Teltonika int32/1e7, the ingest's distance rounded to centimetres).
package chunktest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/fleetd/fleetd/app/geo"
	"github.com/fleetd/fleetd/app/model"
)

// KphToKnots converts as protocols/gt06 and protocols/teltonika do.
const KphToKnots = 0.539957

// Day is the day the routes start.
var Day = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

// Route is a vehicle driving: stops, town and road speeds, turns.
type Route struct {
	rng      *rand.Rand
	Lat, Lon float64
	Kmh      float64
	Course   float64
	stopLeft int
	Ign      bool
}

func NewRoute(seed uint64) *Route {
	return &Route{rng: rand.New(rand.NewPCG(seed, 7)), Lat: 48.8566, Lon: 2.3522, Course: 90, Ign: true}
}

// Next advances dt and returns the new state.
func (r *Route) Next(dt time.Duration) {
	switch {
	case r.stopLeft > 0:
		r.stopLeft--
		r.Kmh = 0
		if r.stopLeft == 0 {
			r.Ign = true
		}
	case r.rng.IntN(400) == 0: // park for 5 to 60 minutes
		r.stopLeft = 30 + r.rng.IntN(330)
		r.Kmh, r.Ign = 0, false
	case r.rng.IntN(30) == 0: // traffic light
		r.stopLeft = 2 + r.rng.IntN(6)
		r.Kmh = 0
	default:
		r.Kmh = math.Max(5, math.Min(130, r.Kmh+r.rng.NormFloat64()*6+2*(50-r.Kmh)/50))
		r.Course = math.Mod(r.Course+r.rng.NormFloat64()*8+360, 360)
		if r.rng.IntN(40) == 0 {
			r.Course = math.Mod(r.Course+90*float64(1+r.rng.IntN(3)), 360)
		}
	}
	m := r.Kmh / 3.6 * dt.Seconds()
	r.Lat += m * math.Cos(r.Course*math.Pi/180) / 111320
	r.Lon += m * math.Sin(r.Course*math.Pi/180) / (111320 * math.Cos(r.Lat*math.Pi/180))
}

// Enrich adds what the ingest adds: distance, totalDistance, motion.
func Enrich(p, prev *model.Position) {
	round2 := func(v float64) float64 { return math.Round(v*100) / 100 }
	distance, total := 0.0, 0.0
	if prev != nil {
		total = prev.Attributes["totalDistance"].(float64)
		if !p.Outdated {
			distance = geo.Distance(prev.Latitude, prev.Longitude, p.Latitude, p.Longitude)
		}
	}
	p.Attributes["distance"] = round2(distance)
	p.Attributes["totalDistance"] = round2(total + distance)
	if _, ok := p.Attributes["motion"]; !ok {
		p.Attributes["motion"] = p.Speed > 0.01
	}
}

// ServerTime is when a fix arrives: 0.3 to 3 s later, to the nanosecond.
func ServerTime(rng *rand.Rand, fix time.Time) time.Time {
	return fix.Add(300*time.Millisecond + time.Duration(rng.Int64N(int64(2700*time.Millisecond))))
}

// NextID is the store's sequence, shared with a fleet of ~100 devices.
func NextID(rng *rand.Rand, id int64) int64 { return id + 1 + rng.Int64N(200) }

// GT06Route is a day of a GT06 tracker reporting every 10 s (0x22 frames:
// GPS, serving cell, ACC tail), with the attributes its decoder and the
// ingest set, plus the battery and signal the status frames carry.
func GT06Route(n int, seed uint64) []*model.Position {
	r := NewRoute(seed)
	rng := rand.New(rand.NewPCG(seed, 99))
	ps := make([]*model.Position, 0, n)
	id, sat, cell, rssi, battery := int64(1_000_000), 9, 0xC3A1, 4, 100
	for i := range n {
		r.Next(10 * time.Second)
		fix := Day.Add(time.Duration(i) * 10 * time.Second)
		rawLat, rawLon := uint32(math.Round(math.Abs(r.Lat)*1800000)), uint32(math.Round(math.Abs(r.Lon)*1800000))
		lat, lon := float64(rawLat)/1800000, float64(rawLon)/1800000
		if r.Lat < 0 {
			lat = -lat
		}
		if r.Lon < 0 {
			lon = -lon
		}
		if rng.IntN(20) == 0 {
			sat = max(3, min(12, sat+rng.IntN(3)-1))
		}
		if rng.IntN(60) == 0 {
			cell += rng.IntN(9) - 4
		}
		if rng.IntN(50) == 0 {
			rssi = max(1, min(5, rssi+rng.IntN(3)-1))
		}
		if i%360 == 359 {
			battery = max(10, battery-1)
		}
		id = NextID(rng, id)
		p := &model.Position{
			Base: model.Base{ID: id}, DeviceID: 42, Protocol: "gt06",
			ServerTime: ServerTime(rng, fix), DeviceTime: fix, FixTime: fix,
			Valid: sat >= 4, Latitude: lat, Longitude: lon,
			Speed: float64(int(math.Round(r.Kmh))) * KphToKnots, Course: float64(int(math.Round(r.Course)) % 360),
			Network: map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{{
				"mobileCountryCode": 208, "mobileNetworkCode": 1, "locationAreaCode": 0x2B0C, "cellId": int64(cell),
			}}},
			Attributes: model.Attributes{
				"sat": sat, "ignition": r.Ign, "event": 0, "archive": false,
				"rssi": rssi, "batteryLevel": battery,
			},
		}
		if rng.IntN(2000) == 0 {
			p.Attributes["alarm"] = "sos"
		}
		var prev *model.Position
		if len(ps) > 0 {
			prev = ps[len(ps)-1]
		}
		Enrich(p, prev)
		ps = append(ps, p)
	}
	return ps
}

// TeltonikaRoute is a day of an FMB920-like tracker (codec 8) every 10 s:
// priority, sat, event, a dozen IO elements, the network from IO 205/206.
func TeltonikaRoute(n int, seed uint64) []*model.Position {
	r := NewRoute(seed)
	rng := rand.New(rand.NewPCG(seed, 98))
	ps := make([]*model.Position, 0, n)
	id, sat, odometer, power, battery := int64(5_000_000), 11, int64(123_456_789), 12400, 4100
	altitude := 35
	for i := range n {
		r.Next(10 * time.Second)
		fix := Day.Add(time.Duration(i) * 10 * time.Second)
		if rng.IntN(20) == 0 {
			sat = max(0, min(20, sat+rng.IntN(3)-1))
		}
		if rng.IntN(5) == 0 {
			altitude += rng.IntN(3) - 1
		}
		power = 12000 + rng.IntN(2400)*r.b2i() + rng.IntN(100)
		battery = max(3500, min(4200, battery+rng.IntN(21)-10))
		odometer += int64(math.Round(r.Kmh / 3.6 * 10))
		id = NextID(rng, id)
		p := &model.Position{
			Base: model.Base{ID: id}, DeviceID: 43, Protocol: "teltonika",
			ServerTime: ServerTime(rng, fix), DeviceTime: fix, FixTime: fix,
			Valid:    sat != 0,
			Latitude: float64(int32(math.Round(r.Lat*1e7))) / 1e7, Longitude: float64(int32(math.Round(r.Lon*1e7))) / 1e7,
			Altitude: float64(int16(altitude)), Course: float64(uint16(math.Round(r.Course)) % 360),
			Speed: float64(uint16(math.Round(r.Kmh))) * KphToKnots,
			Network: map[string]any{"radioType": "gsm", "considerIp": false, "cellTowers": []map[string]any{{
				"mobileCountryCode": 246, "mobileNetworkCode": 2, "locationAreaCode": 1017, "cellId": int64(31_000 + i/300),
			}}},
			Attributes: model.Attributes{
				"priority": 0, "sat": sat, "event": 0,
				"ignition": r.Ign, "motion": r.Kmh > 0, "rssi": int64(5), "gpsStatus": int64(1),
				"sleepMode": int64(0), "power": float64(power) / 1000, "battery": float64(battery) / 1000,
				"batteryCurrent": float64(rng.IntN(50)) / 1000, "odometer": odometer,
				"pdop": float64(8+rng.IntN(6)) / 10, "hdop": float64(5+rng.IntN(6)) / 10,
				"operator": int64(24602), "io205": int64(31_000 + i/300), "io206": int64(1017),
				"out1": false, "in1": r.Ign, "io200": int64(0),
			},
		}
		var prev *model.Position
		if len(ps) > 0 {
			prev = ps[len(ps)-1]
		}
		Enrich(p, prev)
		ps = append(ps, p)
	}
	return ps
}

func (r *Route) b2i() int {
	if r.Ign {
		return 1
	}
	return 0
}

// OsmAndRoute is a phone with the Traccar Client: decimal text fields
// parsed to float64, accuracy, battery, every 30 s.
func OsmAndRoute(n int, seed uint64) []*model.Position {
	r := NewRoute(seed)
	rng := rand.New(rand.NewPCG(seed, 97))
	ps := make([]*model.Position, 0, n)
	id, battery := int64(9_000_000), 96.0
	for i := range n {
		r.Next(30 * time.Second)
		fix := Day.Add(time.Duration(i)*30*time.Second + time.Duration(rng.IntN(1000))*time.Millisecond)
		parse := func(format string, v float64) float64 {
			var f float64
			fmt.Sscanf(fmt.Sprintf(format, v), "%g", &f)
			return f
		}
		if i%40 == 39 {
			battery--
		}
		id = NextID(rng, id)
		p := &model.Position{
			Base: model.Base{ID: id}, DeviceID: 44, Protocol: "osmand",
			ServerTime: ServerTime(rng, fix), DeviceTime: fix, FixTime: fix, Valid: true,
			Latitude: parse("%.6f", r.Lat), Longitude: parse("%.6f", r.Lon),
			Altitude: parse("%.1f", 30+rng.Float64()*5), Speed: parse("%.2f", r.Kmh*KphToKnots),
			Course: parse("%.1f", r.Course), Accuracy: parse("%.1f", 3+rng.Float64()*20),
			Attributes: model.Attributes{"batteryLevel": battery, "charge": false},
		}
		var prev *model.Position
		if len(ps) > 0 {
			prev = ps[len(ps)-1]
		}
		Enrich(p, prev)
		ps = append(ps, p)
	}
	return ps
}
