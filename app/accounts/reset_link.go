package accounts

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// ErrNoPublicURL refuses a reset link when the server does not know the
// address its users open it at: a link built from the request's Host
// header could point at an attacker's site (password-reset poisoning).
var ErrNoPublicURL = model.Invalid("password reset by link needs web.url, the address users open fleetd at; the one-time-code reset of /api2/auth/password works without it")

// SendResetLink is Traccar's POST /api/password/reset: a user with that
// e-mail gets a link to {webURL}/reset-password?passwordReset=TOKEN, which
// Traccar's web app turns into POST /api/password/update. The answer is
// the same whether or not the e-mail names a user (it does not tell who
// has an account); the requests count against the one-time-code budget of
// the address and of the e-mail.
func (acc *Service) SendResetLink(email, ip string) error {
	if acc.opts.PublicURL == "" {
		return ErrNoPublicURL
	}
	email = model.NormalizeEmail(email)
	if email == "" {
		return model.Invalid("email is required")
	}
	return acc.withOTPBudget(ip, []string{email}, func() error {
		var u *model.User
		err := acc.store.View(func(tx model.Tx) (err error) { u, err = tx.UserByEmail(email); return err })
		if errors.Is(err, model.ErrNotFound) || (err == nil && (u.Disabled || strings.HasSuffix(u.Email, "@"+placeholderDomain) ||
			strings.HasSuffix(u.Email, "@"+shareDomain))) {
			return nil
		}
		if err != nil {
			return err
		}
		token, err := acc.issueToken(&otpRecord{Purpose: PurposeReset, Identifier: email, UserID: u.ID})
		if err != nil {
			return err
		}
		link := strings.TrimSuffix(acc.opts.PublicURL, "/") + "/reset-password?passwordReset=" + url.QueryEscape(token)
		return acc.deliver(Identifier{Value: u.Email}, "Password reset",
			fmt.Sprintf("Open this link within %s to choose a new password:\n\n%s\n\nIf you did not ask for it, ignore this message.",
				acc.opts.TokenTTL, link))
	})
}
