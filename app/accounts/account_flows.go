package accounts

import (
	"errors"
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// VerifyOTP is A1: it checks the OTP sent for purpose to identifier and
// returns a single-use token for the flow's last step. A verified
// demo_auth OTP also creates (or finds) the phone's demo account.
func (acc *Service) VerifyOTP(code, identifier, purpose string) (string, error) {
	code = strings.TrimSpace(code)
	if code == "" || strings.TrimSpace(identifier) == "" {
		return "", ErrOTPRequired
	}
	if err := model.FirstError(limits.Text("otp", code, model.MaxName), limits.Text("identifier", identifier, model.MaxEmail)); err != nil {
		return "", err
	}
	switch purpose {
	case PurposeRegistration, PurposeReset, PurposeDemo:
	case PurposeUpdateEmail, PurposeUpdatePhone:
		return "", model.Invalid("type %s is verified by POST /api2/security/update/init with otp", purpose)
	default:
		return "", model.Invalid("type must be one of registration, reset or demo_auth")
	}
	id, err := ParseIdentifier(identifier)
	if err != nil {
		return "", ErrOTPInvalid // no OTP was ever sent there
	}
	rec, err := acc.checkOTP(otpKey(purpose, id.Value), code)
	if err != nil {
		return "", err
	}
	if purpose == PurposeDemo {
		if rec.UserID, err = acc.demoUser(rec); err != nil {
			return "", err
		}
	}
	return acc.issueToken(rec)
}

// StartReset is A3: it sends a reset OTP to the one user the e-mail or
// phone names.
func (acc *Service) StartReset(email, phone, ip string) error {
	id, err := identifierOf(email, phone)
	if err != nil {
		return err
	}
	return acc.withOTPBudget(ip, []string{id.Value}, func() error {
		users, err := acc.usersBy(id)
		if err != nil {
			return err
		}
		switch {
		case len(users) == 0:
			return ErrUserNotFound
		case len(users) > 1:
			return ErrResetAmbiguous
		}
		return acc.issueOTP(otpRecord{Key: otpKey(PurposeReset, id.Value), Purpose: PurposeReset,
			Identifier: id.Value, UserID: users[0].ID}, id)
	})
}

// ResetPassword is A4: a reset token sets the password of the user it was
// issued for and ends that user's sessions, in one transaction.
func (acc *Service) ResetPassword(token, newPassword string) error {
	if strings.TrimSpace(token) == "" || newPassword == "" {
		return ErrResetMissing
	}
	if err := model.FirstError(limits.Text("token", token, model.MaxName), limits.Password("newPassword", newPassword)); err != nil {
		return err
	}
	hash, err := acc.HashPassword(newPassword)
	if err != nil {
		return err
	}
	return acc.store.Update(func(tx model.Tx) error {
		t, err := acc.takeToken(tx, token, PurposeReset)
		if err != nil {
			return err
		}
		u, err := tx.Users().Get(t.UserID)
		if model.ClassOf(err) == model.ClassNotFound {
			return ErrUserNotFound
		}
		if err != nil {
			return err
		}
		u.PasswordHash = hash
		if err := tx.Users().Put(u); err != nil {
			return err
		}
		_, err = tx.DeleteSessions(u.ID, acc.now())
		return err
	})
}

// registrationOpen is the server setting registration (off by default):
// an operator decides whether strangers may sign up.
func (acc *Service) registrationOpen() error {
	s, err := acc.Server()
	if err != nil {
		return err
	}
	if !s.Registration {
		return ErrRegistrationClosed
	}
	return nil
}

// StartRegistration is A5: it sends a registration OTP to an e-mail or
// phone no account uses yet.
func (acc *Service) StartRegistration(email, phone, ip string) error {
	id, err := identifierOf(email, phone)
	if err != nil {
		return err
	}
	return acc.withOTPBudget(ip, []string{id.Value}, func() error {
		if err := acc.registrationOpen(); err != nil {
			return err
		}
		if err := acc.mustBeFree(id); err != nil {
			return err
		}
		return acc.issueOTP(otpRecord{Key: otpKey(PurposeRegistration, id.Value), Purpose: PurposeRegistration,
			Identifier: id.Value}, id)
	})
}

// mustBeFree answers ErrAccountExists when any user has the identifier.
func (acc *Service) mustBeFree(id Identifier) error {
	users, err := acc.usersBy(id)
	if err != nil {
		return err
	}
	if len(users) > 0 {
		return ErrAccountExists
	}
	return nil
}

// ErrCreateFailed wraps an unexpected failure of A6; the web layer
// answers it with the spec's 500 "Failed to create user account.".
var ErrCreateFailed = errors.New("Failed to create user account.")

// CompleteRegistration is A6: a registration token creates the account.
// The token is consumed first, so it cannot create two accounts.
func (acc *Service) CompleteRegistration(token, fullName, password string) (*model.User, error) {
	fullName = strings.TrimSpace(fullName)
	if strings.TrimSpace(token) == "" || fullName == "" || password == "" {
		return nil, ErrRegistrationMissing
	}
	// Checked before the token is consumed, so a refused request can be repeated.
	err := model.FirstError(limits.Text("token", token, model.MaxName), limits.Text("fullName", fullName, model.MaxName), limits.Password("password", password))
	if err != nil {
		return nil, err
	}
	if err := acc.registrationOpen(); err != nil {
		return nil, err
	}
	var t *otpToken
	if err := acc.store.Update(func(tx model.Tx) (err error) { t, err = acc.takeToken(tx, token, PurposeRegistration); return err }); err != nil {
		return nil, err
	}
	id := Identifier{Value: t.Identifier, Phone: !strings.Contains(t.Identifier, "@")}
	if err := acc.mustBeFree(id); err != nil {
		return nil, err
	}
	u, err := acc.CreateUser(model.System(), func(u *model.User) error {
		u.Name, u.Password = fullName, password
		if id.Phone {
			u.Phone, u.Email = id.Value, placeholderEmail("", id.Value)
		} else {
			u.Email = id.Value
		}
		return nil
	})
	switch model.ClassOf(err) {
	case 0:
		if err != nil {
			return nil, errors.Join(ErrCreateFailed, err)
		}
		acc.log.Info("account registered", "userId", u.ID, "email", u.Email)
		return u, nil
	case model.ClassConflict:
		return nil, ErrAccountExists
	default:
		return nil, err
	}
}

// StartDemo is A7: it sends a demo_auth OTP to the phone; the account is
// made only once the OTP is verified (A1), so unverified phones create
// nothing.
func (acc *Service) StartDemo(phone, fullName, ip string) error {
	fullName = strings.TrimSpace(fullName)
	if strings.TrimSpace(phone) == "" || fullName == "" {
		return ErrDemoMissing
	}
	if err := model.FirstError(limits.Text("phone", phone, model.MaxName), limits.Text("fullName", fullName, model.MaxName)); err != nil {
		return err
	}
	id, err := ParseIdentifier(phone)
	if err == nil && !id.Phone {
		err = model.Invalid("%q is not a valid phone number", phone)
	}
	if err != nil {
		return err
	}
	return acc.withOTPBudget(ip, []string{id.Value}, func() error {
		return acc.issueOTP(otpRecord{Key: otpKey(PurposeDemo, id.Value), Purpose: PurposeDemo,
			Identifier: id.Value, Name: fullName}, id)
	})
}
