package reports

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// abDrive is parked at A (0 m), drives to B (1,800 m), parks, and drives on
// to 3,100 m. One position a minute.
func abDrive() []*model.Position {
	return []*model.Position{
		pos(1, mins(0), 0, 0),
		pos(2, mins(1), 0, 0),
		pos(3, mins(2), 0, 0),
		pos(4, mins(3), 300, 25),
		pos(5, mins(4), 900, 20),
		pos(6, mins(5), 1500, 20),
		pos(7, mins(6), 1800, 5),
		pos(8, mins(7), 1800, 0),
		pos(9, mins(8), 1800, 0),
		pos(10, mins(9), 1800, 0),
		pos(11, mins(10), 1800, 0),
		pos(12, mins(11), 1800, 0),
		pos(13, mins(12), 1800, 0),
		pos(14, mins(13), 1800, 0),
		pos(15, mins(14), 2400, 15),
		pos(16, mins(15), 3000, 10),
		pos(17, mins(16), 3100, 3),
	}
}

// gapDrive drives 600 m a minute for ten minutes, stops reporting for two
// hours (reappearing 50 km further on), drives eight more minutes and
// parks for ten.
func gapDrive() []*model.Position {
	var ps []*model.Position
	for i := 0; i <= 10; i++ { // ids 1-11, 00:00-00:10
		ps = append(ps, pos(int64(i+1), mins(float64(i)), float64(600*i), 20))
	}
	ps = append(ps, pos(12, mins(130), 56000, 18, "distance", 50000.0))
	for i := 1; i <= 8; i++ { // ids 13-20, 02:11-02:18
		ps = append(ps, pos(int64(12+i), mins(float64(130+i)), float64(56000+600*i), 20))
	}
	for i := 1; i <= 11; i++ { // ids 21-31, 02:19-02:29, parked
		ps = append(ps, pos(int64(20+i), mins(float64(138+i)), 60800, 0))
	}
	return ps
}

// shortHop moves 180 m in two minutes and parks again.
func shortHop() []*model.Position {
	ps := []*model.Position{
		pos(1, mins(0), 0, 0),
		pos(2, mins(1), 0, 0),
		pos(3, mins(2), 100, 5),
		pos(4, mins(3), 180, 5),
	}
	for i := int64(5); i <= 10; i++ {
		ps = append(ps, pos(i, mins(float64(i-1)), 180, 0))
	}
	return ps
}

// jitter is an hour parked at 0 m, a position every 30 s, with the fix
// wandering up to 60 m and every fourth position showing 2 kn (above the
// motion threshold). The wandering adds up in totalDistance, as the ingest
// would count it.
func jitter() []*model.Position {
	offsets := []float64{0, 30, -20, 45, -50, 10, 60, -35}
	var ps []*model.Position
	total, prev := 0.0, 0.0
	for i := 0; i <= 120; i++ {
		m := offsets[i%len(offsets)]
		speed := 0.0
		if i%4 == 3 {
			speed = 2
		}
		d := m - prev
		if d < 0 {
			d = -d
		}
		total += d
		prev = m
		ps = append(ps, pos(int64(i+1), mins(float64(i)/2), m, speed, "totalDistance", total))
	}
	return ps
}

func TestTrips(t *testing.T) {
	cases := []struct {
		name      string
		cfg       Config
		positions []*model.Position
		trips     []span
		stops     []span
	}{{
		// Traccar's default detector, defaults 200 m / 180 s.
		//  - 4 is 300 m from where the device was first seen (1): a trip.
		//    It starts back at 3, the last position before the run of
		//    moving legs (3→4 moves; 2→3 does not).
		//  - From 8 on no position is 200 m from the window's others, but
		//    only at 11 does the window (7..10) span 180 s: the trip ends at
		//    11, four minutes after the van stopped at 7.
		//  - 15 is 600 m from 11, the last event: a trip from 14.
		//  - maxSpeed restarts at every event: 4 raised the first trip's
		//    start, so its 25 kn is not the trip's maxSpeed (20 kn, of 5
		//    and 6); 15 raised the second's, so its 15 kn is dropped too.
		//  - The second trip is still open at the end: it ends at 17.
		name: "A to B, current", cfg: DefaultConfig(), positions: abDrive(),
		trips: []span{
			{3, 11, 480000, 1800, 20, avg(1800, 480000)},
			{14, 17, 180000, 1300, 10, avg(1300, 180000)},
		},
		stops: []span{{from: 1, to: 3, duration: 120000}, {from: 11, to: 14, duration: 180000}},
	}, {
		// The older detector, defaults 500 m / 300 s / 300 s.
		//  - 4 turns motion on: a candidate start; at 5 it has gone 600 m
		//    (≥ 500) since 4, so the trip starts at 4.
		//  - 8 turns motion off; at 13 it has been off for 300 s, so the
		//    stop starts at 8, which ends the trip.
		//  - 15 turns motion on; at 16 it has gone 600 m: a trip from 15.
		//  - maxSpeed restarts at every event: the first trip's is that of
		//    6..13 (20 kn: 4's 25 went to the event at 5); the second's is
		//    17's 3 kn alone, 15 and 16 having gone to the event at 16.
		name: "A to B, legacy", cfg: legacyConfig(), positions: abDrive(),
		trips: []span{
			{4, 8, 240000, 1500, 20, avg(1500, 240000)},
			{15, 17, 120000, 700, 3, avg(700, 120000)},
		},
		stops: []span{{from: 1, to: 4, duration: 180000}, {from: 8, to: 15, duration: 420000}},
	}, {
		// No fix is 200 m from the first one: no trip, one stop.
		name: "parked jitter, current", cfg: DefaultConfig(), positions: jitter(),
		trips: nil,
		stops: []span{{from: 1, to: 121, duration: 3600000}},
	}, {
		// Each 2 kn fix turns motion on for one position only, far from
		// 300 s and 500 m: the candidate start is dropped each time.
		name: "parked jitter, legacy", cfg: legacyConfig(), positions: jitter(),
		trips: nil,
		stops: []span{{from: 1, to: 121, duration: 3600000}},
	}, {
		// A 2 h gap (> stopGap 3600 s) covered at 50 km / 2 h (faster than
		// 200 m / 180 s) while moving raises three events at once:
		// stopped at 11, moving at 11 and stopped at 12. So the trip ends
		// at 11, a zero-length stop follows, the gap is a trip 11→12 and a
		// stop starts at 12. All three take maxSpeed 20 (1..12).
		//  - 13 is 600 m from 12: a trip from 13 (not back to 12, which is
		//    the last event).
		//  - Parked at 20's place from 02:18: 24 is the first whose window
		//    (20..23) spans 180 s and lies within 200 m: the stop is at 24.
		name: "gap, current", cfg: DefaultConfig(), positions: gapDrive(),
		trips: []span{
			{1, 11, 600000, 6000, 20, avg(6000, 600000)},
			{11, 12, 7200000, 50000, 20, avg(50000, 7200000)},
			{13, 24, 660000, 4200, 20, avg(4200, 660000)},
		},
		stops: []span{
			{from: 11, to: 11, duration: 0},
			{from: 12, to: 13, duration: 60000},
			{from: 24, to: 31, duration: 420000},
		},
	}, {
		// The first position moves, so a trip is open from 1. 12 comes 2 h
		// after 11 (≥ minimalNoDataDuration 3600 s): the trip ends at 11,
		// and 12 itself is not looked at. 13 turns motion on, 14 confirms
		// it (600 m): a trip from 13. 21 parks; 300 s later (26) the stop
		// is confirmed at 21.
		//  - The first trip's maxSpeed includes 12 (18 kn), read before the
		//    gap was seen; the 20 kn of 1..11 is higher anyway.
		name: "gap, legacy", cfg: legacyConfig(), positions: gapDrive(),
		trips: []span{
			{1, 11, 600000, 6000, 20, avg(6000, 600000)},
			{13, 21, 480000, 4200, 20, avg(4200, 480000)},
		},
		stops: []span{
			{from: 11, to: 13, duration: 7260000},
			{from: 21, to: 31, duration: 600000},
		},
	}, {
		// 180 m is short of minDistance (200 m): no trip.
		name: "short hop, current", cfg: DefaultConfig(), positions: shortHop(),
		stops: []span{{from: 1, to: 10, duration: 540000}},
	}, {
		// Motion was on for 60 s (3 to 4) and 80 m of totalDistance: short
		// of both minimalTripDuration and minimalTripDistance, so when it
		// turns off at 5 the candidate is dropped.
		name: "short hop, legacy", cfg: legacyConfig(), positions: shortHop(),
		stops: []span{{from: 1, to: 10, duration: 540000}},
	}, {
		// Lower thresholds make the same hop a trip: 4 is 180 m (≥ 150)
		// from 1. The trip starts at 2: the legs 2→3 (100 m in 60 s) and
		// 3→4 move faster than 150 m / 120 s, 1→2 does not. At 6 the
		// window (3..5) spans 180 s (≥ 120 s) and lies within 150 m of 6:
		// the trip ends at 6. maxSpeed restarted at 4's event: 0.
		name: "short hop, current, 150 m", positions: shortHop(),
		cfg:   func() Config { c := DefaultConfig(); c.MinDistance = 150; c.MinDuration = 120e9; return c }(),
		trips: []span{{2, 6, 240000, 180, 0, avg(180, 240000)}},
		stops: []span{{from: 1, to: 2, duration: 60000}, {from: 6, to: 10, duration: 240000}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trips, stops := detect(c.cfg, c.positions)
			checkSpans(t, "trips", tripSpans(trips), c.trips)
			checkSpans(t, "stops", stopSpans(stops, c.positions), c.stops)
		})
	}
}
