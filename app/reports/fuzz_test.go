package reports

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// fuzzDrive turns bytes into a drive as the ingest would store it: fix
// times that never go back (with gaps of up to 9 h), moves of up to a few
// hundred meters, and distance, totalDistance, odometer and hours that
// only grow. The first byte picks the configuration.
func fuzzDrive(data []byte) (Config, []*model.Position) {
	cfg := DefaultConfig()
	if len(data) == 0 {
		return cfg, nil
	}
	c := data[0]
	cfg.NewLogic = c&1 == 0
	cfg.UseIgnition = c&2 != 0
	cfg.IgnoreOdometer = c&4 != 0
	if c&8 != 0 { // small thresholds, so short drives reach them
		cfg.MinDistance, cfg.MinDuration = 50, 30*time.Second
		cfg.MinimalTripDistance, cfg.MinimalTripDuration = 80, 40*time.Second
		cfg.MinimalParkingDuration, cfg.MinimalNoDataDuration = 30*time.Second, 10*time.Minute
		cfg.StopGap = 10 * time.Minute
	}
	var ps []*model.Position
	at := t0
	lat, lon, total := 54.7, 25.3, 0.0
	hours := 0
	for i := 1; i+5 <= len(data); i += 5 {
		dt, dx, dy, speed, f := data[i], int8(data[i+1]), int8(data[i+2]), data[i+3], data[i+4]
		if dt < 200 {
			at = at.Add(time.Duration(dt) * time.Second)
		} else {
			at = at.Add(time.Duration(dt-200) * 10 * time.Minute)
		}
		plat, plon := lat, lon
		lat += float64(dy) * 3 / 111320
		lon += float64(dx) * 3 / 111320 / math.Cos(lat*math.Pi/180)
		d := distance(ptr(place(plat, plon)), ptr(place(lat, lon)))
		if i == 1 {
			d = 0
		}
		total += d
		p := &model.Position{
			Base: model.Base{ID: int64(i)}, FixTime: at, Latitude: lat, Longitude: lon,
			Speed: float64(speed) / 4,
			Attributes: model.Attributes{
				"distance": d, "totalDistance": total, "ignition": f&1 != 0, "hours": hours,
			},
		}
		if f&2 != 0 { // a motion attribute the device sent, against the speed
			p.Attributes["motion"] = f&4 != 0
		}
		if f&8 != 0 {
			p.Attributes["odometer"] = 1e6 + 1.01*total
		}
		if f&16 != 0 {
			p.Attributes["driverUniqueId"] = "D"
		}
		if f&1 != 0 {
			hours += int(dt) * 1000
		}
		ps = append(ps, p)
	}
	return cfg, ps
}

func FuzzTrips(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 60, 100, 0, 40, 1})
	f.Add([]byte{9, 10, 0, 0, 0, 0, 10, 90, 0, 80, 3, 10, 90, 0, 80, 3, 10, 0, 0, 0, 0, 250, 50, 50, 0, 0, 10, 0, 0, 0, 0})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 8; i++ {
		b := make([]byte, 1+5*200)
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, ps := fuzzDrive(data)
		trips, stops := detect(cfg, ps)
		checkAlternation(t, cfg, ps, trips, stops)

		vilnius, _ := time.LoadLocation("Europe/Vilnius")
		items := summarize(cfg, t0, vilnius, ps)
		for i, it := range items {
			if it.StartTime.After(it.EndTime) || it.Distance < 0 ||
				i > 0 && it.StartTime.Before(items[i-1].EndTime) {
				t.Fatalf("summary item %d out of order or negative: %+v", i, it)
			}
			day := func(tm time.Time) time.Time {
				l := tm.In(vilnius)
				return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, vilnius)
			}
			if end := it.EndTime; !day(it.StartTime).Equal(day(end)) && !day(end).Equal(end) {
				t.Fatalf("summary item %d spans days: %+v", i, it)
			}
		}
	})
}

// checkAlternation checks what holds for any drive: trips and stops
// alternate, each starting where the one before ended, from the first
// position to the last, and none has a negative length or distance.
func checkAlternation(t *testing.T, cfg Config, ps []*model.Position, trips []Trip, stops []Stop) {
	t.Helper()
	if len(ps) == 0 {
		if len(trips)+len(stops) != 0 {
			t.Fatalf("items without positions")
		}
		return
	}
	type item struct{ start, end time.Time }
	var tr, st []item
	for _, x := range trips {
		if x.Duration != x.EndTime.UnixMilli()-x.StartTime.UnixMilli() || x.Duration < 0 ||
			x.Distance < 0 || x.AverageSpeed < 0 || x.MaxSpeed < 0 {
			t.Fatalf("bad trip %+v", x)
		}
		tr = append(tr, item{x.StartTime, x.EndTime})
	}
	for _, x := range stops {
		if x.Duration != x.EndTime.UnixMilli()-x.StartTime.UnixMilli() || x.Duration < 0 {
			t.Fatalf("bad stop %+v", x)
		}
		st = append(st, item{x.StartTime, x.EndTime})
	}
	// The first position's motion decides which list starts.
	a, b := st, tr
	if snapshot(ps[0], cfg.SpeedThreshold).motion {
		a, b = tr, st
	}
	var seq []item
	for i := range a {
		seq = append(seq, a[i])
		if i < len(b) {
			seq = append(seq, b[i])
		}
	}
	if len(a) < len(b) || len(a) > len(b)+1 {
		t.Fatalf("%d trips and %d stops do not alternate", len(trips), len(stops))
	}
	if !seq[0].start.Equal(ps[0].FixTime) || !seq[len(seq)-1].end.Equal(ps[len(ps)-1].FixTime) {
		t.Fatalf("items do not cover the drive: %v..%v", seq[0].start, seq[len(seq)-1].end)
	}
	for i := 1; i < len(seq); i++ {
		if !seq[i].start.Equal(seq[i-1].end) {
			t.Fatalf("item %d starts at %v, the one before ended at %v\ntrips %+v\nstops %+v", i, seq[i].start, seq[i-1].end, tr, st)
		}
	}
}
