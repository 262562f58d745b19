package accounts

import (
	"crypto/rand"
	"errors"
	"maps"
	"math/big"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// defaultServer is the settings a new store starts with.
func defaultServer() *model.Server {
	return &model.Server{Base: model.Base{ID: 1}, Map: "osm", CoordinateFormat: "dd", Zoom: 2, Attributes: model.Attributes{}}
}

// Server returns the server settings (public, GET /api/server) as anyone
// sees them.
func (acc *Service) Server() (*model.Server, error) { return acc.ServerFor(nil) }

// ServerFor returns the server settings as actor (nil: anonymous) sees
// them: with what this server can do (mail, SMS, whether it has users
// yet) and, for administrators, the data disk's space, as Traccar's
// ServerResource adds them.
func (acc *Service) ServerFor(actor *model.User) (*model.Server, error) {
	var s *model.Server
	users := 0
	err := acc.store.View(func(tx model.Tx) (err error) {
		if users, err = tx.Users().Count(); err != nil {
			return err
		}
		s, err = tx.Server()
		return err
	})
	if errors.Is(err, model.ErrNotFound) {
		s, err = defaultServer(), nil
	}
	if err != nil {
		return nil, err
	}
	s.NewServer = users == 0
	if actor != nil && actor.Administrator && acc.space != nil {
		if free, total, err := acc.space(); err == nil {
			s.StorageSpace = []uint64{free, total}
		}
	}
	return acc.decorate(s), nil
}

// ReportSpace gives the settings the data disk's usable and total bytes.
func (acc *Service) ReportSpace(space func() (free, total uint64, err error)) { acc.space = space }

func (acc *Service) decorate(s *model.Server) *model.Server {
	s.Version = acc.version
	_, noMail := acc.opts.Mail.(logSender)
	_, noSMS := acc.opts.SMS.(logSender)
	s.EmailEnabled, s.TextEnabled = !noMail, !noSMS
	if s.Attributes == nil {
		s.Attributes = model.Attributes{}
	}
	return s
}

// UpdateServer changes the settings; administrators only.
func (acc *Service) UpdateServer(actor *model.User, apply func(*model.Server) error) (*model.Server, error) {
	if !actor.Administrator {
		return nil, model.Forbidden("Only administrators may change server settings")
	}
	var s *model.Server
	err := acc.store.As(actor).Update(func(tx model.Tx) (err error) {
		s, err = tx.Server()
		if errors.Is(err, model.ErrNotFound) {
			s, err = defaultServer(), nil
		}
		if err != nil {
			return err
		}
		s.Attributes = maps.Clone(s.Attributes)
		if err := limits.FromRequest(apply, s); err != nil {
			return err
		}
		s.ID = 1
		return tx.PutServer(acc.decorate(s))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Bootstrap prepares an empty store: default settings and a first
// administrator. With no e-mail/password given it generates a password and
// returns it so the caller can show it once.
func (acc *Service) Bootstrap(email, password string) (admin *model.User, generated string, err error) {
	err = acc.store.Update(func(tx model.Tx) error {
		if _, err := tx.Server(); errors.Is(err, model.ErrNotFound) {
			if err := tx.PutServer(acc.decorate(defaultServer())); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	var count int
	if err = acc.store.View(func(tx model.Tx) (err error) { count, err = tx.Users().Count(); return err }); err != nil || count > 0 {
		return nil, "", err
	}
	if email == "" {
		email = "admin@localhost.localdomain"
	}
	if password == "" {
		if generated, err = RandomPassword(20); err != nil {
			return nil, "", err
		}
		password = generated
	}
	admin, err = acc.CreateUser(model.System(), func(u *model.User) error {
		u.Name, u.Email, u.Password, u.Administrator = "Administrator", email, password, true
		return nil
	})
	return admin, generated, err
}

// RandomPassword returns n characters from an alphabet without look-alikes.
func RandomPassword(n int) (string, error) {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	out := make([]byte, n)
	for i := range out {
		k, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			return "", err
		}
		out[i] = alphabet[k.Int64()]
	}
	return string(out), nil
}

// SetPassword sets a user's password by e-mail (CLI) and ends its sessions.
func (acc *Service) SetPassword(email, password string) error {
	var id int64
	err := acc.store.View(func(tx model.Tx) error {
		u, err := tx.UserByEmail(email)
		if err == nil {
			id = u.ID
		}
		return err
	})
	if err != nil {
		return err
	}
	if password == "" {
		return model.Invalid("password is required")
	}
	_, err = acc.UpdateUser(model.System(), id, func(u *model.User) error { u.Password = password; return nil })
	return err
}
