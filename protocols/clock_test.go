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
