// Package throttle counts attempts per client address and per account
// within a window and refuses past a limit: failed logins, OTP sends and
// device auto-registrations are bounded with it.
package throttle

import (
	"net/netip"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Options bound what is counted. Both an IP and an account are counted,
// so neither a single attacker nor a distributed one against one account
// gets unlimited guesses (failed logins, OTP sends).
type Options struct {
	MaxPerIP      int           // failures per IP within Window before 429
	MaxPerAccount int           // failures per account within Window before 429
	Window        time.Duration // how long failures are remembered and the lockout lasts
}

func (o *Options) Defaults(def Options) {
	model.SetDefault(&o.MaxPerIP, def.MaxPerIP)
	model.SetDefault(&o.MaxPerAccount, def.MaxPerAccount)
	model.SetDefault(&o.Window, def.Window)
}

const maxThrottleEntries = 100_000

type failures struct {
	count int
	first time.Time
}

// Limiter counts events (failed logins, OTP sends) per IP and per
// account within a window and refuses callers over either limit.
type Limiter struct {
	mu   sync.Mutex
	opts Options
	now  func() time.Time
	err  *model.Error // the refusal
	ips  map[string]*failures
	accs map[string]*failures
}

// New expects opts with its defaults applied.
func New(o Options, now func() time.Time, refusal *model.Error) *Limiter {
	return &Limiter{opts: o, now: now, err: refusal, ips: map[string]*failures{}, accs: map[string]*failures{}}
}

// Check answers the throttle's refusal while the IP or any of the
// accounts is over its limit.
func (t *Limiter) Check(ip string, accounts ...string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.over(t.now(), AddressKey(ip), accounts)
}

// Take counts one event for the IP and each account unless one of them is
// already at its limit, in which case it answers the refusal. Checking and
// counting happen under one lock, so concurrent requests cannot overshoot.
func (t *Limiter) Take(ip string, accounts ...string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	now, ip := t.now(), AddressKey(ip)
	if err := t.over(now, ip, accounts); err != nil {
		return err
	}
	t.count(now, ip, accounts, 1)
	return nil
}

// Add counts one event for the IP and each account ("" is not counted).
func (t *Limiter) Add(ip string, accounts ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.count(t.now(), AddressKey(ip), accounts, 1)
}

// Refund takes back an event take counted, for a request that turned out
// to do nothing the budget is meant to bound.
func (t *Limiter) Refund(ip string, accounts ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.count(t.now(), AddressKey(ip), accounts, -1)
}

func (t *Limiter) over(now time.Time, ip string, accounts []string) error {
	if t.locked(t.ips, ip, t.opts.MaxPerIP, now) {
		return t.err
	}
	for _, a := range accounts {
		if t.locked(t.accs, a, t.opts.MaxPerAccount, now) {
			return t.err
		}
	}
	return nil
}

func (t *Limiter) locked(m map[string]*failures, key string, max int, now time.Time) bool {
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

// count adds delta to the IP's and the accounts' counts in the current
// window; a refund never opens a window or goes below zero.
func (t *Limiter) count(now time.Time, ip string, accounts []string, delta int) {
	t.bump(t.ips, ip, now, delta)
	for _, a := range accounts {
		t.bump(t.accs, a, now, delta)
	}
}

func (t *Limiter) bump(m map[string]*failures, key string, now time.Time, delta int) {
	if key == "" {
		return
	}
	f := m[key]
	if f == nil || now.Sub(f.first) > t.opts.Window {
		if delta < 0 {
			return
		}
		if len(m) >= maxThrottleEntries {
			t.prune(m, now)
		}
		f = &failures{first: now}
		m[key] = f
	}
	f.count = max(0, f.count+delta)
}

// AddressKey is what a client address is counted as (the login and OTP
// budgets, the HTTP connection cap). An IPv6 address counts by
// its /64: a subscriber usually holds a whole /64 and could otherwise
// start afresh from every address in it.
func AddressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	switch {
	case err != nil:
		return ip
	case a.Is4() || a.Is4In6():
		return a.Unmap().String()
	}
	p, _ := a.Prefix(64) // cannot fail: 64 bits of an IPv6 address
	return p.String()
}

// Succeed clears the account's failures; the IP's stay, so one valid
// account cannot be used to reset guessing at others.
func (t *Limiter) Succeed(account string) {
	t.mu.Lock()
	delete(t.accs, account)
	t.mu.Unlock()
}

func (t *Limiter) prune(m map[string]*failures, now time.Time) {
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
