package reports

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// dayOfSeconds is a day of 1 s positions as the ingest stores them: parks
// of 5 to 90 minutes with the fix wandering a few meters, and drives of 5
// to 45 minutes at up to 60 kn with a course that changes now and then.
func dayOfSeconds() []*model.Position {
	rng := rand.New(rand.NewPCG(7, 7))
	ps := make([]*model.Position, 0, 86400)
	lat, lon, total, hours := 54.7, 25.3, 0.0, 0
	course := 0.0
	driving, left := false, 0
	for i := range 86400 {
		if left == 0 {
			driving = !driving
			if driving {
				left = 300 + rng.IntN(2400)
			} else {
				left = 300 + rng.IntN(5100)
			}
		}
		left--
		speed := 0.0
		plat, plon := lat, lon
		if driving {
			speed = 10 + 50*rng.Float64()
			if rng.IntN(30) == 0 {
				course = 2 * math.Pi * rng.Float64()
			}
			step := speed / knotsPerMps // meters in this second
			lat += step * math.Cos(course) / 111320
			lon += step * math.Sin(course) / 111320 / math.Cos(lat*math.Pi/180)
			hours += 1000
		} else {
			lat += (rng.Float64() - 0.5) * 4 / 111320
			lon += (rng.Float64() - 0.5) * 4 / 111320
		}
		d := distance(ptr(place(plat, plon)), ptr(place(lat, lon)))
		total += d
		ps = append(ps, &model.Position{
			Base: model.Base{ID: int64(i + 1)}, DeviceID: 7, Protocol: "teltonika",
			FixTime: t0.Add(time.Duration(i) * time.Second), Valid: true,
			Latitude: lat, Longitude: lon, Speed: speed,
			Attributes: model.Attributes{
				"distance": d, "totalDistance": total, "motion": speed > 0.01,
				"ignition": driving, "hours": float64(hours), "sat": 9, "power": 12.6,
			},
		})
	}
	return ps
}

// BenchmarkTrips runs trips and stops over a day of 1 s positions, with
// each detector; docs/reports.md quotes its ns/position.
func BenchmarkTrips(b *testing.B) {
	ps := dayOfSeconds()
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"current", DefaultConfig()}, {"legacy", legacyConfig()}} {
		b.Run(c.name, func(b *testing.B) {
			var trips int
			for b.Loop() {
				d := NewDetector(c.cfg, device, nil)
				for _, p := range ps {
					d.Add(p)
				}
				t, _ := d.Finish()
				trips = len(t)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ps)), "ns/position")
			b.ReportMetric(float64(trips), "trips")
		})
	}
}

// BenchmarkSummary is the daily summary over the same day.
func BenchmarkSummary(b *testing.B) {
	ps := dayOfSeconds()
	for b.Loop() {
		s := NewSummary(DefaultConfig(), device, t0, time.UTC)
		for _, p := range ps {
			s.Add(p)
		}
		s.Finish()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ps)), "ns/position")
}
