package protocols

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	fixed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600))
	if got := Clock(func() time.Time { return fixed }).Now(); !got.Equal(fixed) || got.Location() != time.UTC {
		t.Errorf("fixed clock: %v, want %v in UTC", got, fixed)
	}
	before := time.Now()
	got := Clock(nil).Now()
	if got.Before(before) || got.After(time.Now()) || got.Location() != time.UTC {
		t.Errorf("nil clock: %v, not the system time in UTC", got)
	}
}

func TestUnixMilli(t *testing.T) {
	for _, tc := range []struct {
		ms   int64
		want time.Time
	}{
		{0, time.Unix(0, 0).UTC()},
		{1442068686579, time.Date(2015, 9, 12, 14, 38, 6, 579e6, time.UTC)},
		{maxUnixMilli, time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC)},
		{maxUnixMilli + 1, time.Time{}},
		{-1, time.Time{}},
		{1 << 62, time.Time{}},
	} {
		if got := UnixMilli(tc.ms); !got.Equal(tc.want) || got.Location() != time.UTC {
			t.Errorf("UnixMilli(%d) = %v, want %v", tc.ms, got, tc.want)
		}
	}
}
