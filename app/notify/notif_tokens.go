package notify

import (
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// MaxPushTokens is the spec's limit of push tokens per user (K3); a new
// token beyond it evicts the least recently registered one.
const MaxPushTokens = 20

// PushToken is one registered device token.
type PushToken struct {
	Token string    `json:"token"`
	Added time.Time `json:"added"`
}

type pushTokens struct {
	Tokens []PushToken `json:"tokens"`
}

// The K3/K4 answers the spec gives.
var (
	ErrNoToken     = &model.Error{Class: model.ClassInvalid, Message: "No token provided"}
	ErrTokenExists = &model.Error{Class: model.ClassConflict, Message: "Token already exists"}
	ErrTokenAbsent = &model.Error{Class: model.ClassNotFound, Message: "Token not found"}
)

func tokensOf(tx model.Tx, userID int64) (pushTokens, error) {
	var t pushTokens
	err := getJSON(tx, tokenRecords, userID, &t)
	return t, err
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
	err := n.store.Update(func(tx model.Tx) error {
		owner, ok, err := tx.Keys(tokenOwners).Get(token)
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
		t.Tokens = slices.DeleteFunc(t.Tokens, func(p PushToken) bool {
			if p.Token == token {
				exists = true
			}
			return p.Token == token
		})
		t.Tokens = append(t.Tokens, PushToken{Token: token, Added: n.now().UTC()})
		for len(t.Tokens) > MaxPushTokens {
			if err := tx.Keys(tokenOwners).Delete(t.Tokens[0].Token); err != nil {
				return err
			}
			t.Tokens = t.Tokens[1:]
		}
		if err := tx.Keys(tokenOwners).Put(token, actor.ID); err != nil {
			return err
		}
		return putJSON(tx, tokenRecords, actor.ID, t)
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
	return n.store.Update(func(tx model.Tx) error {
		t, err := tokensOf(tx, actor.ID)
		if err != nil {
			return err
		}
		if !slices.ContainsFunc(t.Tokens, func(p PushToken) bool { return p.Token == token }) {
			return ErrTokenAbsent
		}
		return removeToken(tx, actor.ID, token)
	})
}

// PushTokens lists the caller's tokens, oldest first.
func (n *Service) PushTokens(actor *model.User) ([]PushToken, error) {
	var t pushTokens
	err := n.store.View(func(tx model.Tx) (err error) { t, err = tokensOf(tx, actor.ID); return err })
	return t.Tokens, err
}

// removeToken drops token from userID's list and the owner index.
func removeToken(tx model.Tx, userID int64, token string) error {
	t, err := tokensOf(tx, userID)
	if err != nil {
		return err
	}
	t.Tokens = slices.DeleteFunc(t.Tokens, func(p PushToken) bool { return p.Token == token })
	if owner, ok, err := tx.Keys(tokenOwners).Get(token); err != nil {
		return err
	} else if ok && owner == userID {
		if err := tx.Keys(tokenOwners).Delete(token); err != nil {
			return err
		}
	}
	if len(t.Tokens) == 0 {
		_, err = tx.Records(tokenRecords).Delete(userID)
		return err
	}
	return putJSON(tx, tokenRecords, userID, t)
}

// DropUser removes a deleted user's notification switches and
// push tokens (with their owner index entries).
func (n *Service) DropUser(tx model.Tx, userID int64) error {
	t, err := tokensOf(tx, userID)
	if err != nil {
		return err
	}
	for _, p := range t.Tokens {
		if err := removeToken(tx, userID, p.Token); err != nil {
			return err
		}
	}
	_, err = tx.Records(settingsRecords).Delete(userID)
	return err
}
