package app

import (
	"sync"
	"time"
)

// ThrottleOptions bounds failed logins. Both an IP and an account are
// counted, so neither a single attacker nor a distributed one against one
// account gets unlimited guesses.
type ThrottleOptions struct {
	MaxPerIP      int           // failures per IP within Window before 429
	MaxPerAccount int           // failures per account within Window before 429
	Window        time.Duration // how long failures are remembered and the lockout lasts
}

const maxThrottleEntries = 100_000

type failures struct {
	count int
	first time.Time
}

type throttle struct {
	mu   sync.Mutex
	opts ThrottleOptions
	now  func() time.Time
	ips  map[string]*failures
	accs map[string]*failures
}

func newThrottle(o ThrottleOptions, now func() time.Time) *throttle {
	if o.MaxPerIP <= 0 {
		o.MaxPerIP = 20
	}
	if o.MaxPerAccount <= 0 {
		o.MaxPerAccount = 5
	}
	if o.Window <= 0 {
		o.Window = 15 * time.Minute
	}
	return &throttle{opts: o, now: now, ips: map[string]*failures{}, accs: map[string]*failures{}}
}

var errThrottled = &Error{Kind: KindTooMany, Message: "Too many requests",
	Description: "Too many failed login attempts, try again later"}

// check answers errThrottled while the IP or the account is locked out.
func (t *throttle) check(ip, account string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if t.locked(t.ips, ip, t.opts.MaxPerIP, now) || t.locked(t.accs, account, t.opts.MaxPerAccount, now) {
		return errThrottled
	}
	return nil
}

func (t *throttle) locked(m map[string]*failures, key string, max int, now time.Time) bool {
	f := m[key]
	if f == nil || key == "" {
		return false
	}
	if now.Sub(f.first) > t.opts.Window {
		delete(m, key)
		return false
	}
	return f.count >= max
}

func (t *throttle) fail(ip, account string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for _, e := range []struct {
		m   map[string]*failures
		key string
	}{{t.ips, ip}, {t.accs, account}} {
		if e.key == "" {
			continue
		}
		f := e.m[e.key]
		if f == nil || now.Sub(f.first) > t.opts.Window {
			if len(e.m) >= maxThrottleEntries {
				t.prune(e.m, now)
			}
			f = &failures{first: now}
			e.m[e.key] = f
		}
		f.count++
	}
}

// succeed clears the account's failures; the IP's stay, so one valid
// account cannot be used to reset guessing at others.
func (t *throttle) succeed(account string) {
	t.mu.Lock()
	delete(t.accs, account)
	t.mu.Unlock()
}

func (t *throttle) prune(m map[string]*failures, now time.Time) {
	for k, f := range m {
		if now.Sub(f.first) > t.opts.Window {
			delete(m, k)
		}
	}
	if len(m) >= maxThrottleEntries { // all fresh: drop arbitrary entries rather than grow
		for k := range m {
			delete(m, k)
			if len(m) < maxThrottleEntries/2 {
				break
			}
		}
	}
}
