// Package reports computes Traccar's trips, stops and summary reports from
// one device's positions, by the rules of Traccar's "slow" report path
// (src/main/java/org/traccar/reports/common/ReportUtils.java and
// SummaryReportProvider.java). docs/reports.md gives each rule its source.
//
// Positions are fed one at a time in fixTime order and are not kept, so a
// report's memory does not grow with its range.
package reports

import (
	"math"

	"github.com/fleetd/fleetd/app/model"
)

// Detector finds a device's trips and stops. Both come from one run of the
// motion detector, so every trip lies between two stops.
type Detector struct {
	cfg        Config
	build      builder
	driverName func(uniqueID string) string

	started   bool
	pos, last point // the position being added and the one before
	// maxSpeed is the highest speed since the last motion event. Traccar
	// resets it at every event, so a trip's maxSpeed covers the positions
	// from the one that confirmed the trip to the one that confirmed its
	// end, not those between its start and its confirmation.
	maxSpeed float64
	// The open trip or stop: set at the event that starts it, or at the
	// first position if that position's motion says it is one.
	tripStart, stopStart *point

	current current // Traccar's default detector
	legacy  legacy  // the older one

	trips []Trip
	stops []Stop
}

// NewDetector starts a detection for device (its id, name and fuelCapacity
// attribute are used). driverName, when not nil, names a driver by unique
// id ("" when there is none); Traccar looks it up in its drivers.
func NewDetector(cfg Config, device *model.Device, driverName func(uniqueID string) string) *Detector {
	d := &Detector{cfg: cfg, build: newBuilder(cfg, device), driverName: driverName,
		trips: []Trip{}, stops: []Stop{}}
	d.current.emit, d.legacy.emit = d.event, d.event
	d.current.minTerm = term(cfg.MinDistance)
	return d
}

// Add feeds the next position. Positions must come in fixTime order, as
// Traccar reads them (between from and to, both inclusive).
func (d *Detector) Add(p *model.Position) {
	d.pos = snapshot(p, d.cfg.SpeedThreshold)
	pt := &d.pos
	var prev *point // Traccar's lastPosition: none for the first
	if d.started {
		prev = &d.last
	} else {
		// The range's first position opens a trip or a stop by its
		// motion attribute alone.
		d.started = true
		first := *pt
		if pt.motion {
			d.tripStart, d.maxSpeed = &first, pt.speed
		} else {
			d.stopStart = &first
		}
		d.current.init(pt)
		d.legacy.init(pt.motion)
	}
	d.maxSpeed = math.Max(d.maxSpeed, pt.speed)
	var n int
	if d.cfg.NewLogic {
		n = d.current.update(&d.cfg, pt)
	} else {
		n = d.legacy.update(&d.cfg, prev, pt)
	}
	if n > 0 {
		d.maxSpeed = 0
	}
	d.last = d.pos
}

// event applies a motion event at position at: a "moving" event starts a
// trip and ends the open stop, a "stopped" one the reverse. The maxSpeed
// of the position that raised the event goes to every event it raised.
func (d *Detector) event(moving bool, at *point) {
	pt := *at // the event's position outlives the detector's buffers
	if moving {
		if d.stopStart != nil {
			d.stops = append(d.stops, d.build.stop(d.stopStart, &pt))
			d.stopStart = nil
		}
		d.tripStart = &pt
	} else {
		if d.tripStart != nil {
			d.trips = append(d.trips, d.build.trip(d.tripStart, &pt, d.maxSpeed, d.driverName))
			d.tripStart = nil
		}
		d.stopStart = &pt
	}
}

// Finish ends the open trip or stop at the last position and returns the
// trips and stops in time order (empty, not nil, when there are none).
func (d *Detector) Finish() ([]Trip, []Stop) {
	if d.tripStart != nil {
		d.trips = append(d.trips, d.build.trip(d.tripStart, &d.last, d.maxSpeed, d.driverName))
		d.tripStart = nil
	}
	if d.stopStart != nil {
		d.stops = append(d.stops, d.build.stop(d.stopStart, &d.last))
		d.stopStart = nil
	}
	return d.trips, d.stops
}

// current is Traccar's default detector
// (src/main/java/org/traccar/session/state/NewMotionProcessor.java): it
// looks at where the device goes, not at its speed.
type current struct {
	emit   func(moving bool, at *point)
	streak bool // moving
	// The last event's position; before any, the range's first position.
	event point
	// minTerm is MinDistance as a haversine term (see apart).
	minTerm float64
	// window holds the latest positions: all but its oldest are less than
	// MinDuration older than its newest.
	window deque
}

func (c *current) init(first *point) {
	c.streak = first.motion
	c.event = *first
}

// update runs one position through the detector, reports its events to
// emit in order and returns how many there were.
func (c *current) update(cfg *Config, p *point) int {
	n := c.detect(cfg, p)
	c.window.push(*p)
	minDuration := cfg.MinDuration.Milliseconds()
	for c.window.len() > 1 && c.window.back(0).ms-c.window.front(1).ms >= minDuration {
		c.window.pop()
	}
	return n
}

func (c *current) detect(cfg *Config, p *point) int {
	if c.window.len() == 0 {
		return 0
	}
	n := 0
	event := func(moving bool, at *point) {
		c.emit(moving, at)
		c.event = *at
		n++
	}
	// m per ms; +Inf or NaN when MinDuration is 0, as in Java.
	minAverage := cfg.MinDistance / float64(cfg.MinDuration.Milliseconds())

	// A long enough gap covered fast enough is a trip from the position
	// before it to the one after it.
	last := c.window.back(0)
	gap := p.ms - last.ms
	gapAverage := math.NaN()
	if gap > 0 {
		gapAverage = p.distance / float64(gap)
	}
	if gap > cfg.StopGap.Milliseconds() && p.distance >= cfg.MinDistance && gapAverage > minAverage {
		if c.streak {
			event(false, last)
		}
		event(true, last)
		event(false, p)
		c.streak = false
		return n
	}

	if c.streak {
		// Still moving while any position of the window is MinDistance
		// away; stopped once the window spans MinDuration without one.
		for i := 0; i < c.window.len(); i++ {
			if apart(c.window.back(i), p, cfg.MinDistance, c.minTerm) {
				return n
			}
		}
		if p.ms-c.window.front(0).ms >= cfg.MinDuration.Milliseconds() {
			c.streak = false
			event(false, p)
		}
		return n
	}

	if apart(&c.event, p, cfg.MinDistance, c.minTerm) {
		// The trip starts back at the first position of the run of
		// moving legs that leads here, but not before the last stop.
		c.streak = true
		start := p
		for i := 0; i < c.window.len(); i++ {
			cand := c.window.back(i)
			legDuration := start.ms - cand.ms
			legMoving := legDuration > 0 && distance(cand, start)/float64(legDuration) > minAverage
			if cand.ms <= c.event.ms || start != p && !legMoving {
				break
			}
			start = cand
		}
		event(true, start)
	}
	return n
}

// legacy is Traccar's older detector
// (src/main/java/org/traccar/session/state/MotionProcessor.java): it
// follows the positions' motion attribute.
type legacy struct {
	emit   func(moving bool, at *point)
	streak bool // the confirmed state: moving
	state  bool // the last position's motion
	// The position where the state last turned against the streak: the
	// start of the next trip or stop if the turn is confirmed.
	candidate *point
}

func (l *legacy) init(motion bool) { l.streak, l.state = motion, motion }

func (l *legacy) update(cfg *Config, last, p *point) int {
	// A gap of minimalNoDataDuration ends a trip at the position before it.
	// The position after the gap is not looked at.
	if last != nil && p.ms-last.ms >= cfg.MinimalNoDataDuration.Milliseconds() && l.streak {
		l.streak, l.state, l.candidate = false, false, nil
		l.emit(false, last)
		return 1
	}
	if l.state != p.motion {
		// The state turns: against the streak, p may start the next trip
		// or stop; back to the streak, the candidate is dropped.
		l.state = p.motion
		l.candidate = nil
		if l.streak != p.motion {
			c := *p
			l.candidate = &c
		}
		return 0
	}
	if l.candidate == nil {
		return 0
	}
	elapsed := p.ms - l.candidate.ms
	var confirmed bool
	if p.motion {
		confirmed = elapsed >= cfg.MinimalTripDuration.Milliseconds() ||
			p.totalDistance-l.candidate.totalDistance >= cfg.MinimalTripDistance
	} else {
		confirmed = elapsed >= cfg.MinimalParkingDuration.Milliseconds() ||
			cfg.UseIgnition && p.hasIgnition && !p.ignition
	}
	if !confirmed {
		return 0
	}
	at := l.candidate
	l.streak, l.candidate = p.motion, nil
	l.emit(p.motion, at)
	return 1
}

// deque is a ring buffer of points: the current detector's window.
type deque struct {
	buf        []point
	head, size int
}

func (q *deque) len() int { return q.size }

// front(i) is the i-th oldest point, back(i) the i-th newest.
func (q *deque) front(i int) *point { return &q.buf[(q.head+i)%len(q.buf)] }
func (q *deque) back(i int) *point  { return q.front(q.size - 1 - i) }

func (q *deque) push(p point) {
	if q.size == len(q.buf) {
		grown := make([]point, max(16, 2*len(q.buf)))
		for i := 0; i < q.size; i++ {
			grown[i] = *q.front(i)
		}
		q.buf, q.head = grown, 0
	}
	q.buf[(q.head+q.size)%len(q.buf)] = p
	q.size++
}

func (q *deque) pop() {
	q.buf[q.head] = point{} // drop its address and driver strings
	q.head = (q.head + 1) % len(q.buf)
	q.size--
}

// traccarRadius is the earth radius of Traccar's DistanceCalculator (the
// equatorial one). geo.Distance uses the mean radius, 0.11% less: enough
// to move a 200 m threshold by 22 cm, so the detector computes its own.
const traccarRadius = 6378137.0

const degToRad = math.Pi / 180 // the same double as Java's Math.PI / 180

// place is a point at lat, lon with the cosine of its latitude, which
// every distance from it needs.
func place(lat, lon float64) point {
	return point{lat: lat, lon: lon, cosLat: math.Cos(lat * degToRad)}
}

// haversine is the haversine term of the distance from a to b, computed in
// the same order as Traccar's so that comparisons at the thresholds come
// out the same.
func haversine(a, b *point) float64 {
	sinDlat := math.Sin((b.lat - a.lat) * degToRad / 2)
	sinDlon := math.Sin((b.lon - a.lon) * degToRad / 2)
	return sinDlat*sinDlat + a.cosLat*b.cosLat*sinDlon*sinDlon
}

// distance is Traccar's distance in meters.
func distance(a, b *point) float64 {
	h := haversine(a, b)
	return traccarRadius * 2 * math.Atan2(math.Sqrt(h), math.Sqrt(1-h))
}

// term is the haversine term of a distance of meters, or NaN where apart
// should not use it.
func term(meters float64) float64 {
	if !(meters > 0 && meters < 1e7) {
		return math.NaN()
	}
	s := math.Sin(meters / traccarRadius / 2)
	return s * s
}

// apart reports whether distance(a, b) >= meters. The haversine term grows
// with the distance, so away from the threshold's term (minTerm) it decides
// alone; within a relative 1e-9 of it, far beyond rounding, the distance
// itself does. This saves most of the detector's trigonometry.
func apart(a, b *point, meters, minTerm float64) bool {
	h := haversine(a, b)
	switch {
	case h > minTerm*(1+1e-9):
		return true
	case h < minTerm*(1-1e-9):
		return false
	}
	return traccarRadius*2*math.Atan2(math.Sqrt(h), math.Sqrt(1-h)) >= meters
}
