// Package calendar reads the iCalendar documents of Traccar's calendars
// and answers when they are active: a notification or geofence linked to a
// calendar applies only at moments inside one of its events' occurrences,
// as Traccar's Calendar.checkMoment decides.
package calendar

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"
)

// MaxSize bounds a calendar's document: a schedule is a few events, and
// every check of a notification reads all of them.
const MaxSize = 256 << 10

// maxEvents bounds the events of one calendar for the same reason.
const maxEvents = 1000

// Calendar is a parsed iCalendar document.
type Calendar struct {
	events []*event
}

// event is one VEVENT: its first occurrence and length and, when it
// repeats, its rule with the exceptions and extra dates.
type event struct {
	start  time.Time
	length time.Duration
	rule   *rrule.RRule // nil: the event happens once
	except map[int64]bool
	extra  []time.Time // sorted

	// The occurrences are walked forward from the rule's start, once: a
	// check at each position of a live stream costs the occurrences since
	// the previous check, not all of them since the start. A check of an
	// earlier moment (a buffered upload) starts a new walk.
	mu     sync.Mutex
	walked time.Time                // the moment the walk has reached
	next   func() (time.Time, bool) // the walk's rule iterator
	peek   time.Time                // its first occurrence after walked; zero: none
	last   time.Time                // the latest one, not excepted, at or before walked
}

// Parse reads an iCalendar document (CRLF or bare LF lines, as Traccar's
// web app writes). Times without a zone and all-day dates are read as
// UTC, as Traccar reads them; a TZID must name an IANA zone.
func Parse(data []byte) (*Calendar, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("calendar data is over %d KiB", MaxSize>>10)
	}
	doc, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("calendar data is not iCalendar: %v", clean(err))
	}
	events := doc.Events()
	if len(events) > maxEvents {
		return nil, fmt.Errorf("calendar has over %d events", maxEvents)
	}
	c := &Calendar{}
	for i, ev := range events {
		e, err := readEvent(ev)
		if err != nil {
			return nil, fmt.Errorf("calendar event %d: %v", i+1, clean(err))
		}
		c.events = append(c.events, e)
	}
	return c, nil
}

// decode runs the library's decoder, which panics on some malformed
// parameters (a "0;0=" line): that is a refused document, not a crash.
func decode(data []byte) (doc *ical.Calendar, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("malformed line (%v)", r)
		}
	}()
	return ical.NewDecoder(bytes.NewReader(data)).Decode()
}

func readEvent(ev ical.Event) (*event, error) {
	if ev.Props.Get(ical.PropDateTimeStart) == nil {
		return nil, errors.New("no DTSTART")
	}
	start, err := ev.DateTimeStart(time.UTC)
	if err != nil {
		return nil, err
	}
	// DTEND, else DTSTART plus DURATION, else a day for a date and nothing
	// for a moment (RFC 5545 3.6.1).
	end, err := ev.DateTimeEnd(time.UTC)
	if err != nil {
		return nil, err
	}
	if end.Before(start) {
		return nil, errors.New("it ends before it starts")
	}
	// The recurrence library panics on some dates far from ours (year 0),
	// and a walk from long ago costs every occurrence since.
	if start.Year() < 2000 || start.Year() > 2200 {
		return nil, fmt.Errorf("it starts in %d, not between 2000 and 2200", start.Year())
	}
	e := &event{start: start, length: end.Sub(start)}
	opt, err := ev.Props.RecurrenceRule()
	if err != nil || opt == nil {
		return e, err
	}
	// A rule by the minute or second is a walk of millions of occurrences
	// for a check a year on: not a schedule, and too costly to answer.
	if opt.Freq > rrule.HOURLY {
		return nil, errors.New("it repeats more often than hourly")
	}
	opt.Dtstart = start
	if e.rule, err = rrule.NewRRule(*opt); err != nil {
		return nil, err
	}
	// EXDATE and RDATE may each list several times, comma-separated.
	e.except = map[int64]bool{}
	for _, p := range ev.Props.Values(ical.PropExceptionDates) {
		if err := eachTime(p, start.Location(), func(t time.Time) { e.except[t.UnixNano()] = true }); err != nil {
			return nil, err
		}
	}
	for _, p := range ev.Props.Values(ical.PropRecurrenceDates) {
		if err := eachTime(p, start.Location(), func(t time.Time) { e.extra = append(e.extra, t) }); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(e.extra, time.Time.Compare)
	return e, nil
}

// eachTime calls fn with each of a date list property's values, read in
// loc unless they carry their own zone.
func eachTime(p ical.Prop, loc *time.Location, fn func(time.Time)) error {
	for _, v := range strings.Split(p.Value, ",") {
		one := p
		one.Value = strings.TrimSpace(v)
		t, err := one.DateTime(loc)
		if err != nil {
			return err
		}
		fn(t)
	}
	return nil
}

// Contains reports whether t is inside an occurrence of one of the
// calendar's events: from its start, inclusive, to its end, exclusive.
// It is safe for concurrent use.
func (c *Calendar) Contains(t time.Time) bool {
	for _, e := range c.events {
		if start := e.latestStart(t); !start.IsZero() && !t.Before(start) &&
			(t.Before(start.Add(e.length)) || (e.length == 0 && t.Equal(start))) {
			return true
		}
	}
	return false
}

// latestStart is the start of the event's latest occurrence at or before
// t, or zero.
func (e *event) latestStart(t time.Time) time.Time {
	if e.rule == nil {
		if t.Before(e.start) {
			return time.Time{}
		}
		return e.start
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.next == nil || t.Before(e.walked) {
		e.next, e.last = e.rule.Iterator(), time.Time{}
		e.peek, _ = e.next()
	}
	for !e.peek.IsZero() && !e.peek.After(t) {
		if !e.except[e.peek.UnixNano()] {
			e.last = e.peek
		}
		e.peek, _ = e.next()
	}
	e.walked = t
	latest := e.last
	// The extra dates: the latest one at or before t, if later.
	if i, _ := slices.BinarySearchFunc(e.extra, t, func(x, t time.Time) int {
		if x.After(t) {
			return 1
		}
		return -1
	}); i > 0 && e.extra[i-1].After(latest) {
		latest = e.extra[i-1]
	}
	return latest
}

// clean drops the library's prefix from its messages.
func clean(err error) string { return strings.TrimPrefix(err.Error(), "ical: ") }

// Period is one occurrence of an event: from Start, inclusive, to End.
type Period struct {
	Start, End time.Time
}

// Ended lists the occurrences that end in (after, upTo], sorted by end: a
// scheduled report runs for each period of its calendar as it ends.
func (c *Calendar) Ended(after, upTo time.Time) []Period {
	var out []Period
	for _, e := range c.events {
		starts := []time.Time{e.start}
		if e.rule != nil {
			starts = starts[:0]
			for _, s := range e.rule.Between(after.Add(-e.length), upTo.Add(-e.length), true) {
				if !e.except[s.UnixNano()] {
					starts = append(starts, s)
				}
			}
			starts = append(starts, e.extra...)
		}
		for _, s := range starts {
			if end := s.Add(e.length); end.After(after) && !end.After(upTo) {
				out = append(out, Period{Start: s, End: end})
			}
		}
	}
	slices.SortFunc(out, func(a, b Period) int { return a.End.Compare(b.End) })
	return out
}
