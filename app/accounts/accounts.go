// Package accounts keeps who may do what: users (Traccar's model, with
// managers and limits), sessions and logins with their throttle and
// credentials cache, passwords, one-time codes and the flows built on them
// (registration, reset, demo accounts, contact changes), the server
// settings and maintenance mode.
package accounts

import (
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/throttle"
)

// Service is the accounts' service.
type Service struct {
	store      model.Store
	opts       Options
	bcryptCost int
	sessionTTL time.Duration
	version    string
	now        func() time.Time
	log        *slog.Logger
	throttle   *throttle.Limiter // failed logins
	otpSends   *throttle.Limiter // requests that send an OTP
	creds      *credCache
	// decoy is the hash unknown accounts are checked against (decoyHash).
	decoyOnce      sync.Once
	decoy          string
	passwordChecks atomic.Uint64
	// userDrops remove what other areas keep for a user being deleted, in
	// the deletion's transaction; what they return runs once it committed.
	userDrops []func(tx model.Tx, userID int64) (after func(), err error)
	// space is the data disk's usable and total bytes (ReportSpace).
	space func() (free, total uint64, err error)
	// codes are the one-time codes used, for two-factor logins.
	codes usedCodes
}

// Config is what the accounts take from the core's options.
type Config struct {
	Accounts   Options
	Throttle   throttle.Options
	BcryptCost int
	SessionTTL time.Duration
	Version    string
}

// New builds the accounts on store.
func New(store model.Store, o Config, now func() time.Time, log *slog.Logger) *Service {
	o.Throttle.Defaults(loginThrottleDefaults)
	if o.SessionTTL <= 0 {
		o.SessionTTL = 30 * 24 * time.Hour
	}
	if o.BcryptCost == 0 {
		o.BcryptCost = defaultBcryptCost
	}
	acc := &Service{store: store, opts: o.Accounts, bcryptCost: o.BcryptCost, sessionTTL: o.SessionTTL,
		version: o.Version, now: now, log: log,
		throttle: throttle.New(o.Throttle, now, errThrottled), creds: newCredCache(now)}
	acc.initAccounts()
	return acc
}

// OnUserDeleted registers what another area removes when a user is
// deleted: drop runs in the deletion's transaction, and the function it
// returns (file removal) once that transaction committed.
func (acc *Service) OnUserDeleted(drop func(tx model.Tx, userID int64) (after func(), err error)) {
	acc.userDrops = append(acc.userDrops, drop)
}

// PasswordChecks counts bcrypt comparisons: one per login attempt
// whatever the account, so the figure cannot tell who exists.
func (acc *Service) PasswordChecks() uint64 { return acc.passwordChecks.Load() }

// MailAdmins sends a message to every enabled administrator with an e-mail
// address; failures are logged, one per address.
func (acc *Service) MailAdmins(subject, text string) {
	var to []string
	err := acc.store.View(func(tx model.Tx) error {
		return tx.Users().List(func(u *model.User) bool {
			if u.Administrator && !u.Disabled && u.Email != "" && !strings.HasSuffix(u.Email, "@"+placeholderDomain) {
				to = append(to, u.Email)
			}
			return true
		})
	})
	if err != nil {
		acc.log.Error("alert not sent: administrators not read", "subject", subject, "err", err)
		return
	}
	for _, addr := range to {
		if err := acc.deliver(Identifier{Value: addr}, subject, text); err != nil {
			acc.log.Error("alert not sent", "to", addr, "subject", subject, "err", err)
		}
	}
}

// loginThrottleDefaults bound failed logins when the config does not.
var loginThrottleDefaults = throttle.Options{MaxPerIP: 20, MaxPerAccount: 5, Window: 15 * time.Minute}

var errThrottled = &model.Error{Class: model.ClassTooMany, Message: "Too many requests",
	Description: "Too many failed login attempts, try again later"}
