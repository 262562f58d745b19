package dashboard

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/app/timezone"
)

// A range is whole days of the viewer's zone, a short day where the
// clocks go forward included, and at most maxRangeDays of them.
func TestParseRange(t *testing.T) {
	berlin, ok := timezone.Load("Europe/Berlin")
	if !ok {
		t.Fatal("no Europe/Berlin")
	}
	show := prefs.Display{Zone: berlin}
	now := time.Date(2024, 3, 31, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		from, to   string
		start, end string // UTC, RFC 3339 (end one nanosecond before it)
		problem    string
	}{
		{"", "", "2024-03-30T23:00:00Z", "2024-03-31T22:00:00Z", ""}, // today, 23 hours
		{"2024-03-01", "2024-03-31", "2024-02-29T23:00:00Z", "2024-03-31T22:00:00Z", ""},
		{" 2024-01-02 ", "2024-01-02", "2024-01-01T23:00:00Z", "2024-01-02T23:00:00Z", ""},
		{"2024-03-01", "2024-04-01", "", "", "at most 31 days"},
		{"2024-03-05", "2024-03-04", "", "", "to must not be before from"},
		{"2024-3-5", "2024-03-06", "", "", "must be dates"},
		{"2024-03-05", "tomorrow", "", "", "must be dates"},
	} {
		r, err := parseRange(tc.from, tc.to, show, now)
		if tc.problem != "" {
			if err == nil || !strings.Contains(problemText(err), tc.problem) {
				t.Errorf("%q..%q: %v, want %q", tc.from, tc.to, err, tc.problem)
			}
			continue
		}
		if err != nil || r.Start.UTC().Format(time.RFC3339) != tc.start || r.End.Add(time.Nanosecond).UTC().Format(time.RFC3339) != tc.end {
			t.Errorf("%q..%q: %v to %v (%v), want %s to %s", tc.from, tc.to, r.Start.UTC(), r.End.UTC(), err, tc.start, tc.end)
		}
	}
}

func TestVehicleTexts(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{durationText(0), "0 s"},
		{durationText(42_000), "42 s"},
		{durationText(59 * 60_000), "59 min"},
		{durationText(65 * 60_000), "1 h 05 min"},
		{durationText(26*3600_000 + 60_000), "26 h 01 min"},
		{words("deviceOverspeed"), "device overspeed"},
		{words(""), ""},
		{nameLabel("engineStop"), "Engine stop"},
		{eventLabel("deviceOverspeed"), "Speeding"},
		{nameLabel("custom"), "Custom"},
		{attrText(prefs.Default(), "onoff", true), "on"},
		{attrText(prefs.Default(), "percent", 87.4), "87 %"},
		{attrText(prefs.Default(), "volts", 12.46), "12.5 V"},
		{attrText(prefs.Display{Distance: prefs.Mi}, "distance", 1609.344), "1.0 mi"},
		{attrText(prefs.Default(), "distance", "n/a"), "n/a"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
