package accounts

import (
	"errors"
	"maps"
	"net/mail"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// Users lists users per Traccar: with userId, the users managed by that user
// (caller must be an administrator or manage it); otherwise an
// administrator gets everyone and a manager the users it manages.
func (acc *Service) Users(actor *model.User, userID int64) ([]*model.User, error) {
	users, _, err := acc.UserPage(actor, model.Query{UserID: userID})
	return users, err
}

// UserPage is Users for a whole query: q.UserID as Users' userID, then
// q's keyword (name, e-mail) and window; it also answers the total.
func (acc *Service) UserPage(actor *model.User, q model.Query) ([]*model.User, int, error) {
	if err := q.Check(); err != nil {
		return nil, 0, err
	}
	page := model.NewPager[*model.User](q)
	offer := func(u *model.User) {
		if q.Matches(u) {
			page.Add(u)
		}
	}
	userID := q.UserID
	err := acc.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if userID > 0 || !actor.Administrator {
			if !actor.Administrator && !actor.Manager() {
				if userID > 0 {
					return model.Forbidden("Only administrators and managers may list users")
				}
				return nil
			}
			if userID == 0 {
				userID = actor.ID
			}
			if err := a.MustSee(model.KindUser, userID); err != nil {
				return err
			}
			ids, err := tx.Linked(model.KindUser, userID, model.KindManagedUser)
			if err != nil {
				return err
			}
			for _, id := range ids {
				u, err := tx.Users().Get(id)
				if err != nil {
					return err
				}
				offer(u)
			}
			return nil
		}
		return tx.Users().List(func(u *model.User) bool { offer(u); return true })
	})
	if err != nil {
		return nil, 0, err
	}
	return page.Items, page.Total, nil
}

// User returns one user the actor may see.
func (acc *Service) User(actor *model.User, id int64) (*model.User, error) {
	var u *model.User
	err := acc.store.View(func(tx model.Tx) (err error) {
		if err = (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindUser, id); err != nil {
			return err
		}
		u, err = tx.Users().Get(id)
		return err
	})
	return u, err
}

// newUserDefaults is what a user is before the request's fields apply.
func newUserDefaults() *model.User {
	return &model.User{DeviceLimit: -1, Attributes: model.Attributes{}}
}

// CreateUser adds a user. actor nil is self-registration (allowed when the
// server has registration on); a manager's new user becomes managed by it.
// The very first user of an empty store becomes an administrator.
func (acc *Service) CreateUser(actor *model.User, apply func(*model.User) error) (*model.User, error) {
	u := newUserDefaults()
	err := acc.store.As(actor).Update(func(tx model.Tx) error {
		count, err := tx.Users().Count()
		if err != nil {
			return err
		}
		if actor == nil {
			s, err := tx.Server()
			if err != nil && !errors.Is(err, model.ErrNotFound) {
				return err
			}
			if count > 0 && (s == nil || !s.Registration) {
				return model.Forbidden("Registration is disabled")
			}
			actor = &model.User{} // a stranger: may set no privileged field
		} else if !actor.Administrator {
			if err := (access.Guard{Tx: tx, Actor: actor}).CheckEdit(model.KindUser); err != nil {
				return err
			}
			if !actor.Manager() {
				return model.Forbidden("Only administrators and managers may create users")
			}
			if err := acc.checkUserLimit(tx, actor); err != nil {
				return err
			}
		}
		*u = *newUserDefaults()
		if err := limits.FromRequest(apply, u); err != nil {
			return err
		}
		u.ID = 0
		if err := acc.prepareUser(tx, actor, newUserDefaults(), u); err != nil {
			return err
		}
		if u.PasswordHash == "" {
			return model.Invalid("password is required")
		}
		if count == 0 {
			u.Administrator = true
		}
		if err := tx.Users().Create(u); err != nil {
			return err
		}
		if actor.ID != 0 && !actor.Administrator {
			return tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: actor.ID, PropKind: model.KindManagedUser, PropID: u.ID})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

func (acc *Service) checkUserLimit(tx model.Tx, manager *model.User) error {
	if manager.UserLimit < 0 {
		return nil
	}
	managed, err := tx.Linked(model.KindUser, manager.ID, model.KindManagedUser)
	if err != nil {
		return err
	}
	if len(managed) >= manager.UserLimit {
		return &model.Error{Class: model.ClassInvalid, Message: "User limit reached",
			Description: "The manager's user limit is reached"}
	}
	return nil
}

// UpdateUser applies a change to a user the actor may manage. A read-only
// user (or any user of a read-only server) may still change their own
// password and display preferences, as Traccar lets them (selfServiceOnly).
func (acc *Service) UpdateUser(actor *model.User, id int64, apply func(*model.User) error) (*model.User, error) {
	var after *model.User
	err := acc.store.As(actor).Update(func(tx model.Tx) error {
		guard := access.Guard{Tx: tx, Actor: actor}
		if err := guard.MustSee(model.KindUser, id); err != nil {
			return err
		}
		// A read-only account (or server) still lets its users look after
		// themselves: checked once the change is known (selfServiceOnly).
		readonly := guard.CheckEdit(model.KindUser)
		if readonly != nil && actor.ID != id {
			return readonly
		}
		before, err := tx.Users().Get(id)
		if err != nil {
			return err
		}
		after = new(model.User)
		*after = *before
		after.Attributes = maps.Clone(before.Attributes)
		if err := limits.FromRequest(apply, after); err != nil {
			return err
		}
		after.ID = id
		if err := acc.prepareUser(tx, actor, before, after); err != nil {
			return err
		}
		if readonly != nil && !selfServiceOnly(before, after) {
			return errReadonlySelf
		}
		if err := acc.keepAnAdmin(tx, before, after); err != nil {
			return err
		}
		if err := tx.Users().Put(after); err != nil {
			return err
		}
		if after.PasswordHash != before.PasswordHash {
			_, err = tx.DeleteSessions(id, acc.now())
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}

// DeleteUser removes a user with everything that is only the user's:
// sessions, links, notification settings and push tokens, and the fleet
// office records and files it owns.
func (acc *Service) DeleteUser(actor *model.User, id int64) error {
	var afterwards []func()
	err := acc.store.As(actor).Update(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).MayEdit(model.KindUser, id); err != nil {
			return err
		}
		u, err := tx.Users().Get(id)
		if err != nil {
			return err
		}
		if err := acc.keepAnAdmin(tx, u, nil); err != nil {
			return err
		}
		if _, err := tx.DeleteSessions(id, acc.now()); err != nil {
			return err
		}
		if err := tx.UnlinkAll(model.KindUser, id); err != nil {
			return err
		}
		if err := tx.UnlinkAll(model.KindManagedUser, id); err != nil {
			return err
		}
		for _, drop := range acc.userDrops {
			after, err := drop(tx, id)
			if err != nil {
				return err
			}
			afterwards = append(afterwards, after)
		}
		return tx.Users().Delete(id)
	})
	if err == nil {
		for _, after := range afterwards { // file content goes once the records are gone for good
			after()
		}
	}
	return err
}

// keepAnAdmin refuses to remove or demote the last enabled administrator,
// which would lock everyone out of the server's settings.
func (acc *Service) keepAnAdmin(tx model.Tx, before, after *model.User) error {
	if !before.Administrator || before.Disabled || (after != nil && after.Administrator && !after.Disabled) {
		return nil
	}
	admins := 0
	err := tx.Users().List(func(u *model.User) bool {
		if u.Administrator && !u.Disabled {
			admins++
		}
		return true
	})
	if err == nil && admins <= 1 {
		err = model.Invalid("the last administrator cannot be removed, disabled or demoted")
	}
	return err
}

// prepareUser validates a user change and enforces who may change which
// field, following Traccar's checkUserUpdate.
func (acc *Service) prepareUser(tx model.Tx, actor, before, after *model.User) error {
	after.Name = strings.TrimSpace(after.Name)
	after.Email = strings.TrimSpace(after.Email)
	after.Phone = strings.TrimSpace(after.Phone)
	if after.Email == "" {
		return model.Invalid("email is required")
	}
	if _, err := mail.ParseAddress(after.Email); err != nil || strings.ContainsAny(after.Email, " <>") {
		return model.Invalid("email %q is not a valid address", after.Email)
	}
	if after.Name == "" {
		after.Name = after.Email
	}
	if after.Attributes == nil {
		after.Attributes = model.Attributes{}
	}
	after.TotpKey = strings.ToUpper(strings.TrimSpace(after.TotpKey))
	if err := checkTOTPKey(after.TotpKey); err != nil {
		return err
	}
	if after.Password != "" {
		hash, err := acc.HashPassword(after.Password)
		if err != nil {
			return err
		}
		after.PasswordHash, after.Password = hash, ""
	}
	if actor.Administrator {
		return nil
	}
	self := actor.ID == after.ID && after.ID != 0
	switch {
	case before.Administrator != after.Administrator,
		before.DeviceLimit != after.DeviceLimit,
		before.UserLimit != after.UserLimit:
		return model.Forbidden("Only administrators may change administrator, deviceLimit or userLimit")
	case before.FixedEmail && model.NormalizeEmail(before.Email) != model.NormalizeEmail(after.Email):
		return model.Forbidden("The e-mail of this account is fixed")
	case !sameTime(before.ExpirationTime, after.ExpirationTime) &&
		(self || !actor.Manager() || laterThan(after.ExpirationTime, actor.ExpirationTime)):
		return model.Forbidden("Not allowed to change the expiration time")
	case before.Readonly != after.Readonly, before.DeviceReadonly != after.DeviceReadonly,
		before.Disabled != after.Disabled, before.LimitCommands != after.LimitCommands,
		before.DisableReports != after.DisableReports, before.FixedEmail != after.FixedEmail:
		if self || !actor.Manager() {
			return model.Forbidden("Only a manager or an administrator may change account restrictions")
		}
	}
	return nil
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// laterThan reports whether t extends past limit (a nil t never expires; a
// nil limit is no limit).
func laterThan(t, limit *time.Time) bool {
	if limit == nil {
		return false
	}
	return t == nil || t.After(*limit)
}
