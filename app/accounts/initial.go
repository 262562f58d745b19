package accounts

import (
	"errors"

	"github.com/fleetd/fleetd/app/model"
)

// StillHasPassword tells whether the account email still logs in with
// password: serve keeps the generated first password in a file for the
// operator until it has been changed.
func (acc *Service) StillHasPassword(email, password string) (bool, error) {
	var u *model.User
	err := acc.store.View(func(tx model.Tx) (err error) {
		u, err = tx.UserByEmail(email)
		return err
	})
	if errors.Is(err, model.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return u.PasswordHash != "" && acc.passwordMatches(u.PasswordHash, password), nil
}
