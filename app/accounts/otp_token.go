package accounts

import (
	"crypto/rand"
	"encoding/base64"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// otpToken is what a verified OTP turns into (A1): proof that the caller
// controls Identifier, good for one action of Purpose. Only the token's
// SHA-256 is stored, as for sessions.
type otpToken = model.OTPToken

func tokens(tx model.Tx) model.Keyed[otpToken] { return tx.Accounts().OTPTokens() }

// issueToken returns a new token bound to the verified OTP's purpose,
// identifier and user.
func (acc *Service) issueToken(rec *otpRecord) (string, error) {
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(buf)
	t := &otpToken{Key: SessionKey(token), Purpose: rec.Purpose, Identifier: rec.Identifier,
		UserID: rec.UserID, Expires: acc.now().UTC().Add(acc.opts.TokenTTL)}
	err := acc.store.Update(func(tx model.Tx) error {
		return tokens(tx).Create(t)
	})
	return token, err
}

// takeToken checks a token for purpose inside tx and consumes it: tokens
// are single use. A token of another purpose stays (it may still serve
// its own flow) and answers ErrTokenUnauthorized.
func (acc *Service) takeToken(tx model.Tx, token, purpose string) (*otpToken, error) {
	t, err := tokens(tx).ByKey(SessionKey(token))
	if model.ClassOf(err) == model.ClassNotFound {
		return nil, ErrTokenInvalid
	}
	if err != nil {
		return nil, err
	}
	if acc.now().After(t.Expires) {
		return nil, ErrTokenExpired
	}
	if t.Purpose != purpose {
		return nil, ErrTokenUnauthorized
	}
	return t, tokens(tx).Delete(t.ID)
}

// pruneTokens removes expired tokens.
func pruneTokens(tx model.Tx, now time.Time) error {
	var stale []otpToken
	err := tokens(tx).List(func(t *otpToken) bool {
		if now.After(t.Expires) {
			stale = append(stale, *t)
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, t := range stale {
		if err := tokens(tx).Delete(t.ID); err != nil {
			return err
		}
	}
	return nil
}
