package accounts

import "github.com/fleetd/fleetd/app/model"

// MinPasswordLength is the least length of a password chosen in fleetd's
// own dashboard. The API keeps Traccar's rule (any non-empty password), so
// Traccar clients and imported accounts keep working.
const MinPasswordLength = 8

// CheckNewPassword refuses a password chosen in the dashboard that is too
// short to resist guessing.
func CheckNewPassword(password string) error {
	if len([]rune(password)) < MinPasswordLength {
		return model.Invalid("the password needs at least %d characters", MinPasswordLength)
	}
	return nil
}

// SendsResetLinks reports whether SendResetLink can work: the server knows
// the address its users open it at (web.url).
func (acc *Service) SendsResetLinks() bool { return acc.opts.PublicURL != "" }
