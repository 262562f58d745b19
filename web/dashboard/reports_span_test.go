package dashboard

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
)

// The range presets are the viewer's days: in New York, 03:00 UTC on
// Wednesday 2026-11-25 is still Tuesday the 24th.
func TestReportSpan(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	show := prefs.Display{Zone: ny, Speed: prefs.Kmh, Distance: prefs.Km}
	now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, ny) }
	end := func(d int) time.Time { return day(d).Add(-time.Millisecond) }
	for _, tc := range []struct {
		form     reportForm
		from, to time.Time
		problem  string
	}{
		{form: reportForm{Range: "today"}, from: day(24), to: end(25)},
		{form: reportForm{Range: "yesterday"}, from: day(23), to: end(24)},
		{form: reportForm{Range: "week"}, from: day(23), to: end(25)}, // Monday the 23rd
		{form: reportForm{Range: "last7"}, from: day(18), to: end(25)},
		{form: reportForm{Range: "custom", From: "2026-11-01", To: "2026-11-02"}, from: day(1), to: end(3)},
		{form: reportForm{Range: "custom", From: "2026-11-02", To: "2026-11-01"}, problem: "The last day (2026-11-01) is before the first (2026-11-02)"},
		{form: reportForm{Range: "custom", From: "2026-11-02"}, problem: "Custom dates need a first and a last day, like 2026-11-24"},
		{form: reportForm{Range: "month"}, problem: `Unknown range "month"`},
	} {
		from, to, err := reportSpan(tc.form, show, now)
		if tc.problem != "" {
			if model.ClassOf(err) != model.ClassInvalid || !strings.HasSuffix(err.Error(), tc.problem) {
				t.Errorf("%+v: error %v, want %q", tc.form, err, tc.problem)
			}
			continue
		}
		if err != nil || !from.Equal(tc.from) || !to.Equal(tc.to) {
			t.Errorf("%+v: %v to %v (%v), want %v to %v", tc.form, from, to, err, tc.from, tc.to)
		}
	}
}
