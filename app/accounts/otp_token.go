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
type otpToken struct {
	model.Base
	Key        string    `json:"key"`
	Purpose    string    `json:"purpose"`
	Identifier string    `json:"identifier"`
	UserID     int64     `json:"userId,omitempty"`
	Expires    time.Time `json:"expires"`
}

const (
	tokenTable = "otpTokens"
	tokenKeys  = "otpTokenKeys" // SessionKey(token) -> token id
)

func tokens(tx model.Tx) model.Table[otpToken] {
	return model.RecordTable[otpToken](tx, tokenTable, "token")
}

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
		if err := tokens(tx).Create(t); err != nil {
			return err
		}
		return tx.Keys(tokenKeys).Put(t.Key, t.ID)
	})
	return token, err
}

// takeToken checks a token for purpose inside tx and consumes it: tokens
// are single use. A token of another purpose stays (it may still serve
// its own flow) and answers ErrTokenUnauthorized.
func (acc *Service) takeToken(tx model.Tx, token, purpose string) (*otpToken, error) {
	keys := tx.Keys(tokenKeys)
	key := SessionKey(token)
	id, ok, err := keys.Get(key)
	if err != nil || !ok {
		return nil, model.FirstError(err, ErrTokenInvalid)
	}
	t, err := tokens(tx).Get(id)
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
	if err := keys.Delete(key); err != nil {
		return nil, err
	}
	return t, tokens(tx).Delete(id)
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
		if err := tx.Keys(tokenKeys).Delete(t.Key); err != nil {
			return err
		}
		if err := tokens(tx).Delete(t.ID); err != nil {
			return err
		}
	}
	return nil
}
