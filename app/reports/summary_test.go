package reports

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

type sumWant struct {
	first, last  time.Time
	distance     float64
	maxSpeed     float64
	engineHours  int64
	averageSpeed float64
}

func summarize(cfg Config, from time.Time, loc *time.Location, ps []*model.Position) []SummaryItem {
	s := NewSummary(cfg, device, from, loc)
	for _, p := range ps {
		s.Add(p)
	}
	return s.Finish()
}

func TestSummary(t *testing.T) {
	vilnius, err := time.LoadLocation("Europe/Vilnius") // UTC+2 in January
	if err != nil {
		t.Fatal(err)
	}
	utc := func(day, h, m int) time.Time { return time.Date(2024, 1, day, h, m, 0, 0, time.UTC) }
	at := func(id int64, when time.Time, total, speed float64, hours int) *model.Position {
		p := pos(id, when.Sub(t0), total, speed, "hours", hours)
		return p
	}
	// 20:30, 23:00, 00:00 (exactly), 01:30 and 03:00 in Vilnius.
	night := []*model.Position{
		at(1, utc(15, 18, 30), 1000, 10, 100000),
		at(2, utc(15, 21, 0), 5000, 30, 200000),
		at(3, utc(15, 22, 0), 6000, 12, 250000),
		at(4, utc(15, 23, 30), 9000, 25, 400000),
		at(5, utc(16, 1, 0), 9500, 0, 500000),
	}
	from := utc(15, 18, 0) // 20:00 in Vilnius
	cases := []struct {
		name string
		loc  *time.Location
		from time.Time
		ps   []*model.Position
		want []sumWant
	}{{
		// One period: distance is last minus first totalDistance, the
		// average is over engine hours (last minus first "hours").
		name: "whole range", ps: night, from: from,
		want: []sumWant{{utc(15, 18, 30), utc(16, 1, 0), 8500, 30, 400000, avg(8500, 400000)}},
	}, {
		// Days in Vilnius: [from, 16 Jan 00:00] and [00:00, to], both ends
		// included, so 3 (at 00:00 local) ends the first day and starts the
		// second.
		name: "daily, Vilnius", loc: vilnius, ps: night, from: from,
		want: []sumWant{
			{utc(15, 18, 30), utc(15, 22, 0), 5000, 30, 150000, avg(5000, 150000)},
			{utc(15, 22, 0), utc(16, 1, 0), 3500, 25, 250000, avg(3500, 250000)},
		},
	}, {
		// The same positions by UTC days: only 5 is on the 16th.
		name: "daily, UTC", loc: time.UTC, ps: night, from: from,
		want: []sumWant{
			{utc(15, 18, 30), utc(15, 23, 30), 8000, 30, 300000, avg(8000, 300000)},
			{utc(16, 1, 0), utc(16, 1, 0), 0, 0, 0, 0},
		},
	}, {
		// A position at a midnight after from ends the day before even
		// when that day had nothing else: Traccar's query for that day
		// finds it alone.
		name: "midnight only", loc: vilnius, ps: night[2:4], from: utc(15, 10, 0),
		want: []sumWant{
			{utc(15, 22, 0), utc(15, 22, 0), 0, 12, 0, 0},
			{utc(15, 22, 0), utc(15, 23, 30), 3000, 25, 150000, avg(3000, 150000)},
		},
	}, {
		// At from itself it starts the first day only.
		name: "midnight is from", loc: vilnius, ps: night[2:4], from: utc(15, 22, 0),
		want: []sumWant{{utc(15, 22, 0), utc(15, 23, 30), 3000, 25, 150000, avg(3000, 150000)}},
	}, {
		// Two positions at the same midnight both count in both days.
		name: "two at midnight", loc: vilnius, from: from, ps: []*model.Position{
			at(1, utc(15, 21, 0), 1000, 5, 0),
			at(2, utc(15, 22, 0), 1200, 7, 0),
			at(3, utc(15, 22, 0), 1300, 9, 0),
			at(4, utc(15, 23, 0), 2000, 3, 0),
		},
		want: []sumWant{
			{utc(15, 21, 0), utc(15, 22, 0), 300, 9, 0, 0},
			{utc(15, 22, 0), utc(15, 23, 0), 800, 9, 0, 0},
		},
	}, {
		// A day without positions has no item.
		name: "empty day", loc: time.UTC, from: utc(14, 0, 0), ps: []*model.Position{
			at(1, utc(14, 12, 0), 0, 5, 0),
			at(2, utc(16, 12, 0), 100, 5, 0),
		},
		want: []sumWant{
			{utc(14, 12, 0), utc(14, 12, 0), 0, 5, 0, 0},
			{utc(16, 12, 0), utc(16, 12, 0), 0, 5, 0, 0},
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items := summarize(DefaultConfig(), c.from, c.loc, c.ps)
			if len(items) != len(c.want) {
				t.Fatalf("got %d items, want %d: %+v", len(items), len(c.want), items)
			}
			for i, w := range c.want {
				g := items[i]
				got := sumWant{g.StartTime, g.EndTime, g.Distance, g.MaxSpeed, g.EngineHours, g.AverageSpeed}
				if !got.first.Equal(w.first) || !got.last.Equal(w.last) || !near(got.distance, w.distance) ||
					got.maxSpeed != w.maxSpeed || got.engineHours != w.engineHours || !near(got.averageSpeed, w.averageSpeed) {
					t.Errorf("item %d:\n got %+v\nwant %+v", i, got, w)
				}
				if g.DeviceID != 7 || g.DeviceName != "Van 7" || g.EndHours-g.StartHours != g.EngineHours {
					t.Errorf("item %d: %+v", i, g)
				}
			}
		})
	}
}

func TestDSTAtMidnight(t *testing.T) {
	havana, err := time.LoadLocation("America/Havana")
	if err != nil {
		t.Fatal(err)
	}
	utc := func(mo time.Month, d, h, m int) time.Time { return time.Date(2024, mo, d, h, m, 0, 0, time.UTC) }
	const edt, est = -4 * 3600, -5 * 3600
	// On 10 March 2024 Havana's clocks go from 00:00 (UTC-5) to 01:00
	// (UTC-4); on 3 November from 01:00 (UTC-4) back to 00:00 (UTC-5).
	for _, c := range []struct {
		name      string
		y, d      int
		mo        time.Month
		preferred int
		want      time.Time
	}{
		// In a gap java.time moves the wall clock on by the gap: 01:00.
		{"gap", 2024, 10, time.March, est, utc(time.March, 10, 5, 0)},
		// In an overlap it keeps the preferred offset if it is valid...
		{"overlap, preferred", 2024, 3, time.November, est, utc(time.November, 3, 5, 0)},
		// ... else it takes the earlier instant.
		{"overlap, other", 2024, 3, time.November, 0, utc(time.November, 3, 4, 0)},
		{"plain", 2024, 4, time.November, edt, utc(time.November, 4, 5, 0)},
	} {
		if got := javaLocal(c.y, c.mo, c.d, 0, 0, 0, havana, c.preferred); !got.Equal(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got.UTC(), c.want)
		}
	}

	// From 10 March 10:00: Traccar truncates it to 00:00, which does not
	// exist, so to 01:00, and adds a day: 11 March 01:00. The first hour
	// of the 11th counts in the 10th.
	from := utc(time.March, 10, 14, 0)
	items := summarize(DefaultConfig(), from, havana, []*model.Position{
		pos(1, utc(time.March, 10, 16, 0).Sub(t0), 0, 5), // 10th 12:00
		pos(2, utc(time.March, 11, 4, 30).Sub(t0), 0, 9), // 11th 00:30
		pos(3, utc(time.March, 11, 6, 0).Sub(t0), 0, 7),  // 11th 02:00
	})
	if len(items) != 2 || !items[0].EndTime.Equal(utc(time.March, 11, 4, 30)) || items[0].MaxSpeed != 9 ||
		!items[1].StartTime.Equal(utc(time.March, 11, 6, 0)) {
		t.Errorf("items %+v", items)
	}
}
