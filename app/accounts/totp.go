package accounts

import (
	"strings"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// ErrCodeRequired answers a correct password of a user with two-factor
// login on but no one-time code: Traccar's clients then ask for the code
// (/api/session answers it with WWW-Authenticate: TOTP).
var ErrCodeRequired = &model.Error{Class: model.ClassUnauthorized, Message: "One-time code required",
	Description: "This account logs in with a password and the code of its authenticator app"}

var errBadCode = model.Unauthorized("Invalid one-time code")

// totpOpts are RFC 6238 as authenticator apps and Traccar use it: SHA-1,
// six digits, 30-second steps, one step of clock drift either way.
var totpOpts = totp.ValidateOpts{Period: 30, Skew: 1, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// NewTOTPKey makes a secret for a user's authenticator app (base32, 160
// bits), which the user then saves as totpKey (Traccar's /users/totp).
func NewTOTPKey() (string, error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: "fleetd", AccountName: "fleetd"})
	if err != nil {
		return "", err
	}
	return key.Secret(), nil
}

// checkTOTPKey refuses a key no authenticator app could hold.
func checkTOTPKey(key string) error {
	if key == "" {
		return nil
	}
	if _, err := totp.GenerateCodeCustom(key, time.Time{}, totpOpts); err != nil || len(key) < 16 {
		return model.Invalid("totpKey must be a base32 secret of at least 16 characters (POST /api/users/totp makes one)")
	}
	return nil
}

// usedCodes remembers each user's last accepted time step, so a code
// seen once (over a shoulder, in a proxy's log) cannot log in again.
type usedCodes struct {
	mu   sync.Mutex
	last map[int64]int64
}

// checkCode is the second factor of a login: nothing for a user without
// a key; else a code of the current step (or the one before or after)
// not used before.
func (acc *Service) checkCode(u *model.User, code string) error {
	if u.TotpKey == "" {
		return nil
	}
	code = strings.TrimSpace(code)
	if code == "" {
		return ErrCodeRequired
	}
	now := acc.now()
	for skew := int64(-1); skew <= 1; skew++ {
		at := now.Add(time.Duration(skew) * 30 * time.Second)
		want, err := totp.GenerateCodeCustom(u.TotpKey, at, totpOpts)
		if err != nil || want != code {
			continue
		}
		step := at.Unix() / 30
		acc.codes.mu.Lock()
		defer acc.codes.mu.Unlock()
		if acc.codes.last == nil {
			acc.codes.last = map[int64]int64{}
		}
		if acc.codes.last[u.ID] >= step {
			return errBadCode
		}
		acc.codes.last[u.ID] = step
		return nil
	}
	return errBadCode
}
