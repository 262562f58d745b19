package app

import (
	"strconv"
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	tests := []struct {
		name    string
		run     func(th *throttle)
		ip, acc string
		locked  bool
	}{
		{"fresh caller passes", func(*throttle) {}, "1.1.1.1", "a@x", false},
		{"account locked after max failures", func(th *throttle) {
			for i := 0; i < 3; i++ {
				th.fail("ip"+string(rune('a'+i)), "a@x")
			}
		}, "9.9.9.9", "a@x", true},
		{"other account from same ip not locked below ip max", func(th *throttle) {
			for i := 0; i < 3; i++ {
				th.fail("1.1.1.1", "a@x")
			}
		}, "1.1.1.1", "b@x", false},
		{"ip locked after ip max across accounts", func(th *throttle) {
			for i := 0; i < 4; i++ {
				th.fail("1.1.1.1", string(rune('a'+i))+"@x")
			}
		}, "1.1.1.1", "new@x", true},
		{"lock ends after window", func(th *throttle) {
			for i := 0; i < 3; i++ {
				th.fail("1.1.1.1", "a@x")
			}
			now = now.Add(11 * time.Minute)
		}, "1.1.1.1", "a@x", false},
		{"success clears the account only", func(th *throttle) {
			for i := 0; i < 3; i++ {
				th.fail("1.1.1.1", "a@x")
			}
			th.succeed("a@x")
		}, "2.2.2.2", "a@x", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := newThrottle(ThrottleOptions{MaxPerIP: 4, MaxPerAccount: 3, Window: 10 * time.Minute}, clock)
			tt.run(th)
			err := th.check(tt.ip, tt.acc)
			if (err != nil) != tt.locked {
				t.Fatalf("locked = %v, want %v", err != nil, tt.locked)
			}
			if err != nil && KindOf(err) != KindTooMany {
				t.Fatalf("kind = %v, want KindTooMany", KindOf(err))
			}
		})
	}
}

func TestThrottleBoundedMemory(t *testing.T) {
	now := time.Now()
	th := newThrottle(ThrottleOptions{}, func() time.Time { return now })
	for i := 0; i < maxThrottleEntries+10; i++ {
		th.fail("", "user"+strconv.Itoa(i))
	}
	if n := len(th.accs); n > maxThrottleEntries {
		t.Fatalf("throttle holds %d accounts, want <= %d", n, maxThrottleEntries)
	}
}
