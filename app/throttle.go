package app

import (
	"sync"
	"time"
)

// ThrottleOptions bounds failed logins. Both an IP and an account are
// counted, so neither a single attacker nor a distributed one against one
// account gets unlimited guesses. The same counting bounds OTP sends
// (AccountOptions.OTPSends).
type ThrottleOptions struct {
	MaxPerIP      int           // failures per IP within Window before 429
	MaxPerAccount int           // failures per account within Window before 429
	Window        time.Duration // how long failures are remembered and the lockout lasts
}

func (o *ThrottleOptions) defaults(def ThrottleOptions) {
	setDefault(&o.MaxPerIP, def.MaxPerIP)
	setDefault(&o.MaxPerAccount, def.MaxPerAccount)
	setDefault(&o.Window, def.Window)
}

const maxThrottleEntries = 100_000

type failures struct {
	count int
	first time.Time
}

// throttle counts events (failed logins, OTP sends) per IP and per
// account within a window and refuses callers over either limit.
type throttle struct {
	mu   sync.Mutex
	opts ThrottleOptions
	now  func() time.Time
	err  *Error // the refusal
	ips  map[string]*failures
	accs map[string]*failures
}

// newThrottle expects opts with its defaults applied.
func newThrottle(o ThrottleOptions, now func() time.Time, refusal *Error) *throttle {
	return &throttle{opts: o, now: now, err: refusal, ips: map[string]*failures{}, accs: map[string]*failures{}}
}

// loginThrottleDefaults bound failed logins when the config does not.
var loginThrottleDefaults = ThrottleOptions{MaxPerIP: 20, MaxPerAccount: 5, Window: 15 * time.Minute}

var errThrottled = &Error{Kind: KindTooMany, Message: "Too many requests",
	Description: "Too many failed login attempts, try again later"}

// check answers the throttle's refusal while the IP or the account is over
// its limit.
func (t *throttle) check(ip, account string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if t.locked(t.ips, ip, t.opts.MaxPerIP, now) || t.locked(t.accs, account, t.opts.MaxPerAccount, now) {
		return t.err
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

// take counts one event for the IP and the account unless either is
// already at its limit, in which case it answers the refusal.
func (t *throttle) take(ip, account string) error {
	if err := t.check(ip, account); err != nil {
		return err
	}
	t.add(ip, account)
	return nil
}

// add counts one event for the IP and the account ("" is not counted).
func (t *throttle) add(ip, account string) {
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
