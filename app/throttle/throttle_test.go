package throttle

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

func TestThrottle(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	tests := []struct {
		name    string
		run     func(th *Limiter)
		ip, acc string
		locked  bool
	}{
		{"fresh caller passes", func(*Limiter) {}, "1.1.1.1", "a@x", false},
		{"account locked after max failures", func(th *Limiter) {
			for i := 0; i < 3; i++ {
				th.Add("ip"+string(rune('a'+i)), "a@x")
			}
		}, "9.9.9.9", "a@x", true},
		{"other account from same ip not locked below ip max", func(th *Limiter) {
			for i := 0; i < 3; i++ {
				th.Add("1.1.1.1", "a@x")
			}
		}, "1.1.1.1", "b@x", false},
		{"ip locked after ip max across accounts", func(th *Limiter) {
			for i := 0; i < 4; i++ {
				th.Add("1.1.1.1", string(rune('a'+i))+"@x")
			}
		}, "1.1.1.1", "new@x", true},
		{"lock ends after window", func(th *Limiter) {
			for i := 0; i < 3; i++ {
				th.Add("1.1.1.1", "a@x")
			}
			now = now.Add(11 * time.Minute)
		}, "1.1.1.1", "a@x", false},
		{"success clears the account only", func(th *Limiter) {
			for i := 0; i < 3; i++ {
				th.Add("1.1.1.1", "a@x")
			}
			th.Succeed("a@x")
		}, "2.2.2.2", "a@x", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := New(Options{MaxPerIP: 4, MaxPerAccount: 3, Window: 10 * time.Minute}, clock, errThrottled)
			tt.run(th)
			err := th.Check(tt.ip, tt.acc)
			if (err != nil) != tt.locked {
				t.Fatalf("locked = %v, want %v", err != nil, tt.locked)
			}
			if err != nil && model.ClassOf(err) != model.ClassTooMany {
				t.Fatalf("kind = %v, want KindTooMany", model.ClassOf(err))
			}
		})
	}
}

func TestThrottleBoundedMemory(t *testing.T) {
	now := time.Now()
	th := New(loginThrottleDefaults, func() time.Time { return now }, errThrottled)
	for i := 0; i < maxThrottleEntries+10; i++ {
		th.Add("", "user"+strconv.Itoa(i))
	}
	if n := len(th.accs); n > maxThrottleEntries {
		t.Fatalf("throttle holds %d accounts, want <= %d", n, maxThrottleEntries)
	}
}

// take lets exactly the limit through, per IP across accounts and per
// account across IPs, and answers the throttle's own refusal.
func TestThrottleTake(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		ip, acc  func(i int) string
		admitted int
	}{
		{"one ip, many accounts", func(int) string { return "1.1.1.1" }, func(i int) string { return strconv.Itoa(i) }, 4},
		{"many ips, one account", func(i int) string { return strconv.Itoa(i) }, func(int) string { return "+15550100" }, 2},
		{"one ip, one account", func(int) string { return "1.1.1.1" }, func(int) string { return "+15550100" }, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			th := New(Options{MaxPerIP: 4, MaxPerAccount: 2, Window: time.Hour},
				func() time.Time { return now }, errTooManyOTPs)
			admitted := 0
			for i := range 10 {
				if err := th.Take(tt.ip(i), tt.acc(i)); err == nil {
					admitted++
				} else if err != errTooManyOTPs {
					t.Fatalf("refusal = %v, want errTooManyOTPs", err)
				}
			}
			if admitted != tt.admitted {
				t.Fatalf("admitted %d of 10, want %d", admitted, tt.admitted)
			}
		})
	}
}

// Concurrent takes admit exactly the limit.
func TestThrottleTakeConcurrent(t *testing.T) {
	th := New(Options{MaxPerIP: 1000, MaxPerAccount: 5, Window: time.Hour}, time.Now, errTooManyOTPs)
	var admitted atomic.Int32
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if th.Take("1.1.1.1", "+15550100") == nil {
				admitted.Add(1)
			}
		})
	}
	wg.Wait()
	if n := admitted.Load(); n != 5 {
		t.Fatalf("admitted %d, want 5", n)
	}
}

// A refund gives back what take counted, never more.
func TestThrottleRefund(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	th := New(Options{MaxPerIP: 100, MaxPerAccount: 1, Window: time.Hour},
		func() time.Time { return now }, errTooManyOTPs)
	th.Refund("1.1.1.1", "a", "b") // nothing counted yet: no effect
	if err := th.Take("1.1.1.1", "a", "b"); err != nil {
		t.Fatal(err)
	}
	if err := th.Take("1.1.1.1", "b"); err == nil {
		t.Fatal("second take for b admitted")
	}
	th.Refund("1.1.1.1", "a", "b")
	th.Refund("1.1.1.1", "a", "b")
	for _, acc := range []string{"a", "b"} {
		if err := th.Take("2.2.2.2", acc); err != nil {
			t.Fatalf("take for %s after the refund: %v", acc, err)
		}
		if err := th.Take("2.2.2.2", acc); err == nil {
			t.Fatalf("refunds below zero: %s admitted twice", acc)
		}
	}
}

func TestIPKey(t *testing.T) {
	for _, tc := range []struct{ ip, want string }{
		{"203.0.113.7", "203.0.113.7"},
		{"::ffff:203.0.113.7", "203.0.113.7"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"::1", "::/64"},
		{"not an address", "not an address"},
		{"", ""},
	} {
		if got := AddressKey(tc.ip); got != tc.want {
			t.Errorf("AddressKey(%q) = %q, want %q", tc.ip, got, tc.want)
		}
	}
}

// The refusals and defaults of fleetd's two throttles, as the accounts
// configure them.
var (
	errThrottled          = &model.Error{Class: model.ClassTooMany, Message: "Too many requests"}
	errTooManyOTPs        = &model.Error{Class: model.ClassTooMany, Message: "Too many codes requested"}
	loginThrottleDefaults = Options{MaxPerIP: 20, MaxPerAccount: 5, Window: 15 * time.Minute}
)
