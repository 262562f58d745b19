package accounts

import (
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// updatePurpose maps H1/H2's field to its OTP purpose.
func updatePurpose(field string) (string, error) {
	switch field {
	case "email":
		return PurposeUpdateEmail, nil
	case "phone":
		return PurposeUpdatePhone, nil
	case "":
		return "", model.Invalid("field and value are required")
	}
	return "", model.Invalid("field must be email or phone")
}

// parseUpdate validates H1/H2's field and value for actor and returns the
// OTP purpose, the new value and the OTP's key (bound to the user).
func (acc *Service) parseUpdate(actor *model.User, field, value string) (purpose string, id Identifier, key string, err error) {
	if purpose, err = updatePurpose(field); err != nil {
		return "", id, "", err
	}
	if strings.TrimSpace(value) == "" {
		return "", id, "", model.Invalid("field and value are required")
	}
	if err := limits.Text("value", value, model.MaxEmail); err != nil { // an e-mail or a phone number
		return "", id, "", err
	}
	if id, err = ParseIdentifier(value); err != nil {
		return "", id, "", err
	}
	if id.Phone != (purpose == PurposeUpdatePhone) {
		return "", id, "", model.Invalid("%q is not a valid %s", value, map[bool]string{true: "phone number", false: "e-mail address"}[purpose == PurposeUpdatePhone])
	}
	if !actor.Administrator && actor.Readonly {
		return "", id, "", model.Forbidden("Account is read-only")
	}
	if purpose == PurposeUpdateEmail && actor.FixedEmail && !actor.Administrator {
		return "", id, "", model.Forbidden("The e-mail of this account is fixed")
	}
	return purpose, id, otpKey(purpose, strconv.FormatInt(actor.ID, 10)+"\x00"+id.Value), nil
}

// takenByOther answers ErrAccountExists when another user has id.
func (acc *Service) takenByOther(actor *model.User, id Identifier) error {
	users, err := acc.usersBy(id)
	if err != nil {
		return err
	}
	for _, u := range users {
		if u.ID != actor.ID {
			return ErrAccountExists
		}
	}
	return nil
}

// StartContactUpdate is H1: it sends an OTP to the new e-mail or phone,
// which no other account may use.
func (acc *Service) StartContactUpdate(actor *model.User, field, value, ip string) error {
	purpose, id, key, err := acc.parseUpdate(actor, field, value)
	if err != nil {
		return err
	}
	// Counted per user, so one account cannot send codes to a list of
	// numbers, and per destination, so several accounts cannot flood one.
	accounts := []string{"user:" + strconv.FormatInt(actor.ID, 10), id.Value}
	return acc.withOTPBudget(ip, accounts, func() error {
		if err := acc.takenByOther(actor, id); err != nil {
			return err
		}
		return acc.issueOTP(otpRecord{Key: key, Purpose: purpose, Identifier: id.Value, UserID: actor.ID}, id)
	})
}

// FinishContactUpdate is H2: the OTP sent by H1 applies the change.
func (acc *Service) FinishContactUpdate(actor *model.User, field, value, code string) (*model.User, error) {
	_, id, key, err := acc.parseUpdate(actor, field, value)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(code) == "" {
		return nil, ErrOTPRequired
	}
	if err := limits.Text("otp", code, model.MaxName); err != nil {
		return nil, err
	}
	if err := acc.takenByOther(actor, id); err != nil {
		return nil, err
	}
	if _, err := acc.checkOTP(key, strings.TrimSpace(code)); err != nil {
		return nil, err
	}
	u, err := acc.UpdateUser(model.System(), actor.ID, func(u *model.User) error {
		if id.Phone {
			u.Phone = id.Value
		} else {
			u.Email = id.Value
		}
		return nil
	})
	if model.ClassOf(err) == model.ClassConflict {
		return nil, ErrAccountExists
	}
	return u, err
}

// VerifyPassword is H3: it checks the caller's password, throttled like a
// login, and returns the caller.
func (acc *Service) VerifyPassword(actor *model.User, password, ip string) (*model.User, error) {
	if password == "" {
		return nil, model.Invalid("password is required")
	}
	if err := limits.Password("password", password); err != nil {
		return nil, err
	}
	account := model.NormalizeEmail(actor.Email)
	if err := acc.throttle.Check(ip, account); err != nil {
		return nil, err
	}
	if !acc.verify(account, password, actor) {
		acc.throttle.Add(ip, account)
		return nil, ErrPasswordMismatch
	}
	return actor, nil
}
