package reports

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Summary totals a device's positions over a range, or per day of it
// (src/main/java/org/traccar/reports/SummaryReportProvider.java).
type Summary struct {
	build builder
	loc   *time.Location // nil: one item for the whole range

	// cur is the period being filled, from start to end (ms, both
	// included). prev is the period before it while positions exactly at
	// start still arrive: those count in both.
	cur, prev *period
	start     int64
	end       time.Time
	items     []SummaryItem
}

type period struct {
	first, last point
	maxSpeed    float64
}

// NewSummary starts a summary for device over the range beginning at from.
// With daily set, the range is cut at each midnight of that zone (Traccar
// uses the user's "timezone" attribute, else the server's, else the
// system's), as Traccar's java.time arithmetic places it.
func NewSummary(cfg Config, device *model.Device, from time.Time, daily *time.Location) *Summary {
	s := &Summary{build: newBuilder(cfg, device), loc: daily, items: []SummaryItem{}}
	if daily != nil {
		s.start, s.end = from.UnixMilli(), nextDay(from, daily)
	}
	return s
}

// Add feeds the next position; positions must come in fixTime order.
func (s *Summary) Add(p *model.Position) {
	pt := snapshot(p, 0) // motion is not used here
	if s.loc == nil {
		s.cur = s.cur.add(&pt)
		return
	}
	if s.prev != nil && pt.ms > s.start {
		s.flush(&s.prev)
	}
	if pt.ms > s.end.UnixMilli() {
		s.flush(&s.cur)
		for pt.ms > s.end.UnixMilli() {
			s.start, s.end = s.end.UnixMilli(), nextDay(s.end, s.loc)
		}
	}
	if s.prev != nil {
		s.prev.add(&pt)
	}
	s.cur = s.cur.add(&pt)
	if pt.ms == s.end.UnixMilli() {
		// Traccar's periods include both ends: pt opens the next one too.
		s.prev, s.cur = s.cur, nil
		s.start, s.end = s.end.UnixMilli(), nextDay(s.end, s.loc)
		s.cur = s.cur.add(&pt)
	}
}

// add counts p in the period, which it starts if pd is nil.
func (pd *period) add(p *point) *period {
	if pd == nil {
		pd = &period{first: *p}
	}
	// Traccar compares with '>' from 0: negative and NaN speeds never count.
	if p.speed > pd.maxSpeed {
		pd.maxSpeed = p.speed
	}
	pd.last = *p
	return pd
}

// nextDay is where the period starting at b ends, as Traccar computes it:
// b's day truncated to midnight, plus one day, in java.time's rules. When
// midnight falls in a DST gap, truncation gives 01:00 and the day after
// ends at 01:00 too; Traccar counts that hour in the day before.
func nextDay(b time.Time, loc *time.Location) time.Time {
	l := b.In(loc)
	_, off := l.Zone()
	day := javaLocal(l.Year(), l.Month(), l.Day(), 0, 0, 0, loc, off).In(loc)
	_, off = day.Zone()
	next := javaLocal(day.Year(), day.Month(), day.Day()+1, day.Hour(), day.Minute(), day.Second(), loc, off)
	if !next.After(b) { // cannot happen with real zone data; never loop on it
		next = b.Add(24 * time.Hour)
	}
	return next
}

// javaLocal is the instant of a wall clock time in loc as java.time's
// ZonedDateTime.ofLocal picks it (Go's time.Date leaves gaps and overlaps
// unspecified): the one instant if there is one; in an overlap the one
// with the preferred offset (seconds east), else the earlier; in a gap,
// the wall clock moved on by the gap's length.
func javaLocal(y int, m time.Month, d, hh, mm, ss int, loc *time.Location, preferred int) time.Time {
	wall := time.Date(y, m, d, hh, mm, ss, 0, time.UTC)
	var found, pastEnd time.Time // pastEnd: the last zone's candidate, if after its end
	// The zones in force within 15 h either side hold every offset that
	// can read as this wall clock; walk them oldest first.
	for t := wall.Add(-15 * time.Hour).In(loc); ; {
		_, off := t.Zone()
		start, end := t.ZoneBounds()
		at := wall.Add(-time.Duration(off) * time.Second)
		switch {
		case (start.IsZero() || !at.Before(start)) && (end.IsZero() || at.Before(end)):
			if found.IsZero() || off == preferred {
				found = at
			}
		case !pastEnd.IsZero() && at.Before(start) && found.IsZero():
			return pastEnd // a gap: the offset before it, read past the gap
		}
		pastEnd = time.Time{}
		if !end.IsZero() && !at.Before(end) {
			pastEnd = at
		}
		if end.IsZero() || end.After(wall.Add(15*time.Hour)) {
			break
		}
		t = end.In(loc)
	}
	if found.IsZero() {
		found = pastEnd
	}
	return found
}

// flush turns *pd into an item, if there is one, and clears it.
func (s *Summary) flush(pd **period) {
	if *pd == nil {
		return
	}
	first, last := &(*pd).first, &(*pd).last
	r := SummaryItem{Base: s.build.base(first, last)}
	r.Distance = r.EndOdometer - r.StartOdometer
	r.MaxSpeed = (*pd).maxSpeed
	if first.hasHours && last.hasHours {
		r.StartHours, r.EndHours = first.hours, last.hours
		r.EngineHours = r.EndHours - r.StartHours
		// The average is over engine hours, not the period: without an
		// "hours" attribute it stays 0, as in Traccar.
		if r.EngineHours > 0 {
			r.AverageSpeed = r.Distance * 1000 / float64(r.EngineHours) * knotsPerMps
		}
	}
	s.items = append(s.items, r)
	*pd = nil
}

// Finish returns one item per period that had positions, in time order
// (empty, not nil, when there were none).
func (s *Summary) Finish() []SummaryItem {
	s.flush(&s.prev)
	s.flush(&s.cur)
	return s.items
}
