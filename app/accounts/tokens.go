package accounts

import (
	"errors"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// Token lifetimes: Traccar's web app asks for a week by default; a token
// is a password for as long as it lives, so a year at most.
const (
	DefaultTokenTTL = 7 * 24 * time.Hour
	MaxTokenTTL     = 366 * 24 * time.Hour
)

// CreateToken is POST /api/session/token: a token the user's apps log in
// with (?token= or Authorization: Bearer) until expires (zero: a week),
// never past a year nor past the caller's own session. It is a session
// like a login's, so a password change or the user's deletion ends it,
// and the store keeps only its hash.
func (acc *Service) CreateToken(u *model.User, expires, sessionEnds time.Time) (string, error) {
	now := acc.now().UTC()
	switch {
	case expires.IsZero():
		expires = now.Add(DefaultTokenTTL)
	case !expires.After(now):
		return "", model.Invalid("expiration must be in the future")
	case expires.After(now.Add(MaxTokenTTL)):
		return "", model.Invalid("expiration may be at most a year away")
	}
	if !sessionEnds.IsZero() && sessionEnds.Before(expires) {
		expires = sessionEnds
	}
	return acc.newSession(u, expires, nil)
}

// RevokeToken ends a token (or any session) of the caller's, or of a
// user the caller manages; another's is not found.
func (acc *Service) RevokeToken(actor *model.User, token string) error {
	return acc.store.As(actor).Update(func(tx model.Tx) error {
		s, err := tx.Session(SessionKey(token))
		if errors.Is(err, model.ErrNotFound) {
			return model.NotFound("Token")
		}
		if err != nil {
			return err
		}
		if ok, err := (access.Guard{Tx: tx, Actor: actor}).CanSee(model.KindUser, s.UserID); err != nil || !ok {
			return model.FirstError(err, model.NotFound("Token"))
		}
		return tx.DeleteSession(s.Token)
	})
}

// SessionAs is GET /api/session/{id}: an administrator, or a manager for a
// user it manages, opens a session as that user (Traccar's "connect as").
func (acc *Service) SessionAs(actor *model.User, id int64, address string) (*model.User, string, time.Time, error) {
	var u *model.User
	err := acc.store.View(func(tx model.Tx) (err error) {
		if !actor.Administrator && !actor.Manager() {
			return model.Forbidden("Only administrators and managers may log in as another user")
		}
		if err := (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindUser, id); err != nil {
			return err
		}
		u, err = tx.Users().Get(id)
		return err
	})
	if err == nil {
		err = acc.LoginAllowed(u)
	}
	if err != nil {
		return nil, "", time.Time{}, err
	}
	token, expires, err := acc.CreateSession(u, address)
	return u, token, expires, err
}

// SessionExpiry is when the session behind token ends (zero if none).
func (acc *Service) SessionExpiry(token string) time.Time {
	var s *model.Session
	if acc.store.View(func(tx model.Tx) (err error) { s, err = tx.Session(SessionKey(token)); return err }) != nil {
		return time.Time{}
	}
	return s.Expires
}
