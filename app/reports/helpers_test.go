package reports

import (
	"math"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// The drives are laid out on the equator, so a point m meters east of 0°,0°
// is exactly m meters (by Traccar's distance) from any other point of the
// line. Unless a test says otherwise, totalDistance is m: the drive goes
// one way along the line, as the ingest would add it up.

var t0 = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

func east(m float64) float64 { return m / (traccarRadius * math.Pi / 180) }

func mins(n float64) time.Duration { return time.Duration(n * float64(time.Minute)) }

// pos is position id at t0+at, m meters east, at speed knots; kv are
// attribute pairs that are added or override totalDistance.
func pos(id int64, at time.Duration, m, speed float64, kv ...any) *model.Position {
	p := &model.Position{
		Base: model.Base{ID: id}, DeviceID: 7,
		FixTime: t0.Add(at), Valid: true,
		Longitude: east(m), Speed: speed,
		Attributes: model.Attributes{"totalDistance": m},
	}
	for i := 0; i < len(kv); i += 2 {
		p.Attributes[kv[i].(string)] = kv[i+1]
	}
	return p
}

var device = &model.Device{Base: model.Base{ID: 7}, Name: "Van 7"}

func legacyConfig() Config {
	c := DefaultConfig()
	c.NewLogic = false
	return c
}

func detect(cfg Config, ps []*model.Position) ([]Trip, []Stop) {
	d := NewDetector(cfg, device, nil)
	for _, p := range ps {
		d.Add(p)
	}
	return d.Finish()
}

// span is what the tests check of a trip or stop: its end positions, its
// length in ms and meters, and its speeds in knots.
type span struct {
	from, to      int64
	duration      int64
	distance      float64
	maxSpeed, avg float64
}

func tripSpans(ts []Trip) []span {
	var r []span
	for _, t := range ts {
		r = append(r, span{t.StartPositionID, t.EndPositionID, t.Duration, t.Distance, t.MaxSpeed, t.AverageSpeed})
	}
	return r
}

// stopSpans needs the positions to name a stop's end, which a stop item
// carries only as a time.
func stopSpans(ss []Stop, ps []*model.Position) []span {
	var r []span
	for _, s := range ss {
		end := int64(0)
		for _, p := range ps {
			if p.FixTime.Equal(s.EndTime) {
				end = p.ID
				break
			}
		}
		r = append(r, span{from: s.PositionID, to: end, duration: s.Duration})
	}
	return r
}

func checkSpans(t *testing.T, what string, got, want []span) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got %d, want %d:\n got %+v\nwant %+v", what, len(got), len(want), got, want)
		return
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.from != w.from || g.to != w.to || g.duration != w.duration ||
			!near(g.distance, w.distance) || !near(g.maxSpeed, w.maxSpeed) || !near(g.avg, w.avg) {
			t.Errorf("%s %d:\n got %+v\nwant %+v", what, i, g, w)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// avg is Traccar's average speed: meters over milliseconds, in knots.
func avg(meters float64, ms int64) float64 { return meters * 1000 / float64(ms) * knotsPerMps }

func ptr[T any](v T) *T { return &v }
