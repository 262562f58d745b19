package httpx

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	want := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2024-01-01T00:00:00Z", want, true},
		{"2024-01-01T00:00:00.000Z", want, true},
		{"2024-01-01T00:00:00.123456789Z", want.Add(123456789), true},
		{"2024-01-01T02:00:00+02:00", want, true},
		{"2024-01-01T02:00:00.000+02:00", want, true},
		{"2023-12-31T19:00:00-05:00", want, true},
		{"2024-01-01T02:00:00.000+0200", want, true},
		{" 2024-01-01T00:00:00Z ", want, true},
		{"2024-01-01", time.Time{}, false},
		{"2024-01-01 00:00:00", time.Time{}, false},
		{"yesterday", time.Time{}, false},
		{"", time.Time{}, false},
		{"2024-13-01T00:00:00Z", time.Time{}, false},
	} {
		got, ok := ParseTime(c.in)
		if ok != c.ok || !got.Equal(c.want) || (ok && got.Location() != time.UTC) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v, %v in UTC", c.in, got, ok, c.want, c.ok)
		}
	}
}
