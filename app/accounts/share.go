package accounts

import (
	"errors"
	"fmt"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// shareDomain holds the e-mails of the users behind share links: they log
// in only with their link's token, never with a password.
const shareDomain = "share.invalid"

// Share is Traccar's /api/share/device and /share/group: a link token that
// shows one device or group, read-only, until expires (zero: a week; never
// past the sharer's own expiration, at most a year). The link's user is
// read-only, may send no command and run no report; one per sharer and
// object, reused by later links; deleting it ends all its links.
// Administrators turn sharing off with the server attribute disableShare.
func (acc *Service) Share(actor *model.User, kind string, id int64, expires time.Time) (string, error) {
	now := acc.now().UTC()
	if expires.IsZero() {
		expires = now.Add(DefaultTokenTTL)
	}
	if actor.ExpirationTime != nil && !actor.ExpirationTime.IsZero() && actor.ExpirationTime.Before(expires) {
		expires = *actor.ExpirationTime
	}
	if !expires.After(now) || expires.After(now.Add(MaxTokenTTL)) {
		return "", model.Invalid("expiration must be in the future, at most a year away")
	}
	var share *model.User
	err := acc.store.As(actor).Update(func(tx model.Tx) error {
		s, err := tx.Server()
		if err != nil && !errors.Is(err, model.ErrNotFound) {
			return err
		}
		if s != nil && s.Attributes["disableShare"] == true {
			return model.Forbidden("Sharing is disabled on this server")
		}
		if _, shared := actor.Attributes["sharedBy"]; shared {
			return model.Forbidden("A shared link cannot be shared")
		}
		a := access.Guard{Tx: tx, Actor: actor}
		if err := model.FirstError(a.MustSee(kind, id), a.Exists(kind, id)); err != nil {
			return err
		}
		name, err := sharedName(tx, kind, id)
		if err != nil {
			return err
		}
		email := fmt.Sprintf("%s-%d.by-%d@%s", kind, id, actor.ID, shareDomain)
		share, err = tx.UserByEmail(email)
		if errors.Is(err, model.ErrNotFound) {
			share = &model.User{Name: name + " (shared)", Email: email, Readonly: true, DeviceReadonly: true,
				LimitCommands: true, DisableReports: true, Attributes: model.Attributes{"sharedBy": actor.ID}}
			if err = tx.Users().Create(share); err == nil {
				err = tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: share.ID, PropKind: kind, PropID: id})
			}
		}
		if err != nil {
			return err
		}
		// The user lives as long as its latest link.
		if share.ExpirationTime == nil || share.ExpirationTime.Before(expires) {
			share.ExpirationTime = &expires
			return tx.Users().Put(share)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return acc.newSession(share, expires, nil)
}

func sharedName(tx model.Tx, kind string, id int64) (string, error) {
	if kind == model.KindGroup {
		g, err := tx.Groups().Get(id)
		if err != nil {
			return "", err
		}
		return g.Name, nil
	}
	d, err := tx.Devices().Get(id)
	if err != nil {
		return "", err
	}
	return d.Name, nil
}
