package accounts

import (
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// LoginIdentifier is A2: login by e-mail or phone (and the one-time code
// of a user with two-factor login). It shares Login's
// throttle (per IP and per identifier) and answers the spec's messages:
// unknown identifier 404, several users with that phone 400, wrong
// password 401.
func (acc *Service) LoginIdentifier(identifier, password, code, ip string) (*model.User, error) {
	if strings.TrimSpace(identifier) == "" || password == "" {
		return nil, ErrLoginMissing
	}
	if err := model.FirstError(limits.Text("identifier", identifier, model.MaxEmail), limits.Password("password", password)); err != nil {
		return nil, err
	}
	id, err := ParseIdentifier(identifier)
	account := id.Value
	if err != nil {
		account = strings.TrimSpace(identifier)
	}
	if err := acc.throttle.Check(ip, account); err != nil {
		return nil, err
	}
	var users []*model.User
	if err == nil {
		if users, err = acc.usersBy(id); err != nil {
			return nil, err
		}
	}
	if len(users) != 1 {
		acc.verify("", password, nil) // the same work as a wrong password
		if len(users) > 1 {
			return nil, ErrLoginAmbiguous
		}
		acc.throttle.Add(ip, account) // guessing identifiers counts too
		return nil, ErrLoginUnknown
	}
	u := users[0]
	if !acc.verify(model.NormalizeEmail(u.Email), password, u) {
		acc.throttle.Add(ip, account)
		return nil, ErrLoginFailed
	}
	if err := acc.LoginAllowed(u); err != nil {
		return nil, err
	}
	if err := acc.checkCode(u, code); err != nil {
		if err != ErrCodeRequired {
			acc.throttle.Add(ip, account)
		}
		return nil, err
	}
	acc.throttle.Succeed(account)
	return u, nil
}
