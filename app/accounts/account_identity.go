package accounts

import (
	"errors"
	"net/mail"
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// Identifier is an e-mail address or a phone number in normalized form.
type Identifier struct {
	Value string // NormalizeEmail or NormalizePhone form
	Phone bool
}

// placeholderDomain holds the e-mails of accounts registered by phone
// only: the core requires an e-mail, and ".invalid" (RFC 2606) can never
// receive mail.
const placeholderDomain = "phone.invalid"

// NormalizePhone is the form phones are compared in: separators (space,
// "-", ".", "(", ")") dropped, a leading "+" kept. ok is false unless 6 to
// 15 digits (E.164) remain.
func NormalizePhone(s string) (phone string, ok bool) {
	s = strings.TrimSpace(s)
	var b strings.Builder
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
			digits++
		case r == '+' && i == 0:
			b.WriteRune(r)
		case strings.ContainsRune(" -.()", r):
		default:
			return "", false
		}
	}
	return b.String(), digits >= 6 && digits <= 15
}

// ParseIdentifier classifies s: with "@" an e-mail, otherwise a phone.
func ParseIdentifier(s string) (Identifier, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "@") {
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s || strings.ContainsAny(s, " <>") {
			return Identifier{}, model.Invalid("%q is not a valid e-mail address", s)
		}
		return Identifier{Value: model.NormalizeEmail(s)}, nil
	}
	p, ok := NormalizePhone(s)
	if !ok {
		return Identifier{}, model.Invalid("%q is not a valid phone number (6 to 15 digits, optionally with a leading +)", s)
	}
	return Identifier{Value: p, Phone: true}, nil
}

// identifierOf picks the e-mail when given, else the phone (A3, A5).
func identifierOf(email, phone string) (Identifier, error) {
	switch {
	case strings.TrimSpace(email) != "":
		if err := limits.Text("email", email, model.MaxEmail); err != nil {
			return Identifier{}, err
		}
		id, err := ParseIdentifier(email)
		if err == nil && id.Phone {
			return id, model.Invalid("%q is not a valid e-mail address", email)
		}
		return id, err
	case strings.TrimSpace(phone) != "":
		if err := limits.Text("phone", phone, model.MaxName); err != nil {
			return Identifier{}, err
		}
		id, err := ParseIdentifier(phone)
		if err == nil && !id.Phone {
			return id, model.Invalid("%q is not a valid phone number", phone)
		}
		return id, err
	}
	return Identifier{}, ErrIdentifierRequired
}

// usersBy returns the users an identifier names: at most one for an
// e-mail (a unique index), any number for a phone. Phones have no index,
// so this scans the users; it runs only on login, reset and registration.
func usersBy(tx model.Tx, id Identifier) ([]*model.User, error) {
	if !id.Phone {
		u, err := tx.UserByEmail(id.Value)
		if errors.Is(err, model.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return []*model.User{u}, nil
	}
	var out []*model.User
	err := tx.Users().List(func(u *model.User) bool {
		if p, ok := NormalizePhone(u.Phone); ok && p == id.Value {
			out = append(out, u)
		}
		return true
	})
	return out, err
}

// usersBy is usersBy in a read transaction of its own.
func (acc *Service) usersBy(id Identifier) (users []*model.User, err error) {
	err = acc.store.View(func(tx model.Tx) error { users, err = usersBy(tx, id); return err })
	return users, err
}

// placeholderEmail is the e-mail of an account known only by its phone.
func placeholderEmail(prefix, phone string) string {
	return prefix + strings.TrimPrefix(phone, "+") + "@" + placeholderDomain
}
