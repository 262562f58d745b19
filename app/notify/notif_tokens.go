package notify

import (
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// MaxPushTokens is the spec's limit of push tokens per user (K3); a new
// token beyond it evicts the least recently registered one.
const MaxPushTokens = 20

// The K3/K4 answers the spec gives.
var (
	ErrNoToken     = &model.Error{Class: model.ClassInvalid, Message: "No token provided"}
	ErrTokenExists = &model.Error{Class: model.ClassConflict, Message: "Token already exists"}
	ErrTokenAbsent = &model.Error{Class: model.ClassNotFound, Message: "Token not found"}
)

// tokensOf are userID's tokens, oldest first.
func tokensOf(tx model.Tx, userID int64) ([]model.PushToken, error) {
	return tx.Notify().PushTokens(userID)
}

func checkToken(token string) error {
	if strings.TrimSpace(token) == "" {
		return ErrNoToken
	}
	return limits.Text("token", token, model.MaxText) // FCM's are about 160 characters
}

// AddPushToken is K3. A token the caller already has is refreshed (it
// moves to the end of the eviction order) and answers ErrTokenExists; a
// token another user had moves to the caller, since one app install
// serves one account at a time.
func (n *Service) AddPushToken(actor *model.User, token string) error {
	if err := checkToken(token); err != nil {
		return err
	}
	var exists bool
	err := n.store.As(actor).Update(func(tx model.Tx) error {
		owner, ok, err := tx.Notify().PushTokenOwner(token)
		if err != nil {
			return err
		}
		if ok && owner != actor.ID {
			if err := removeToken(tx, owner, token); err != nil {
				return err
			}
		}
		t, err := tokensOf(tx, actor.ID)
		if err != nil {
			return err
		}
		t = slices.DeleteFunc(t, func(p model.PushToken) bool {
			if p.Token == token {
				exists = true
			}
			return p.Token == token
		})
		t = append(t, model.PushToken{Token: token, Added: n.now().UTC()})
		if len(t) > MaxPushTokens {
			t = t[len(t)-MaxPushTokens:]
		}
		return tx.Notify().PutPushTokens(actor.ID, t)
	})
	if err == nil && exists {
		err = ErrTokenExists
	}
	return err
}

// RemovePushToken is K4.
func (n *Service) RemovePushToken(actor *model.User, token string) error {
	if err := checkToken(token); err != nil {
		return err
	}
	return n.store.As(actor).Update(func(tx model.Tx) error {
		t, err := tokensOf(tx, actor.ID)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(t, func(p model.PushToken) bool { return p.Token == token }) {
			return ErrTokenAbsent
		}
		return removeToken(tx, actor.ID, token)
	})
}

// PushTokens lists the caller's tokens, oldest first.
func (n *Service) PushTokens(actor *model.User) ([]model.PushToken, error) {
	var t []model.PushToken
	err := n.store.View(func(tx model.Tx) (err error) { t, err = tokensOf(tx, actor.ID); return err })
	return t, err
}

// removeToken drops token from userID's list; the store drops its owner
// entry with it.
func removeToken(tx model.Tx, userID int64, token string) error {
	t, err := tokensOf(tx, userID)
	if err != nil {
		return err
	}
	t = slices.DeleteFunc(t, func(p model.PushToken) bool { return p.Token == token })
	return tx.Notify().PutPushTokens(userID, t)
}

// DropUser removes a deleted user's notification switches and push
// tokens (with their owner entries).
func (n *Service) DropUser(tx model.Tx, userID int64) error {
	if err := tx.Notify().PutPushTokens(userID, nil); err != nil {
		return err
	}
	return tx.Notify().DeleteNotificationSettings(userID)
}
