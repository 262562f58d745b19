package storage

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// The notifier's records, each under its user's id: the switches in
// notificationSettings, the push tokens in pushTokens with the owner of
// each token in pushTokenOwners.

// storedSettings maps a notification type to on/off.
type storedSettings map[string]bool

type storedPushTokens struct {
	Tokens []storedPushToken `json:"tokens"`
}

type storedPushToken struct {
	Token string    `json:"token"`
	Added time.Time `json:"added"`
}

type notifyTx struct{ btx *bolt.Tx }

func (t *tx) Notify() model.NotifyTx { return notifyTx{t.btx} }

func (n notifyTx) settings() *bolt.Bucket { return collectionBucket(n.btx, colNotifySettings.bucket()) }
func (n notifyTx) tokens() *bolt.Bucket   { return collectionBucket(n.btx, colPushTokens.bucket()) }
func (n notifyTx) owners() *bolt.Bucket {
	return collectionBucket(n.btx, keySetBucket(colPushTokens.keys[0]))
}

// getStored decodes the value under id, if any, into s.
func getStored(b *bolt.Bucket, id int64, s any, what string) (bool, error) {
	data := b.Get(idKey(id))
	if data == nil {
		return false, nil
	}
	if err := json.Unmarshal(data, s); err != nil {
		return false, fmt.Errorf("decode %s %d: %w", what, id, err)
	}
	return true, nil
}

func putStored(b *bolt.Bucket, id int64, s any) error {
	if id <= 0 {
		return model.Invalid("user id must be positive")
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return b.Put(idKey(id), data)
}

func (n notifyTx) NotificationSettings(userID int64) (map[string]bool, error) {
	var s storedSettings
	_, err := getStored(n.settings(), userID, &s, colNotifySettings.what)
	return s, err
}

func (n notifyTx) PutNotificationSettings(userID int64, s map[string]bool) error {
	return putStored(n.settings(), userID, storedSettings(s))
}

func (n notifyTx) DeleteNotificationSettings(userID int64) error {
	return n.settings().Delete(idKey(userID))
}

func (n notifyTx) PushTokens(userID int64) ([]model.PushToken, error) {
	var s storedPushTokens
	if _, err := getStored(n.tokens(), userID, &s, colPushTokens.what); err != nil {
		return nil, err
	}
	var out []model.PushToken
	for _, t := range s.Tokens {
		out = append(out, model.PushToken{Token: t.Token, Added: t.Added})
	}
	return out, nil
}

// PutPushTokens drops the owner entries of the tokens that leave userID's
// list (those still held by userID) and makes userID the owner of the
// tokens that join it.
func (n notifyTx) PutPushTokens(userID int64, tokens []model.PushToken) error {
	old, err := n.PushTokens(userID)
	if err != nil {
		return err
	}
	has := func(list []model.PushToken, token string) bool {
		return slices.ContainsFunc(list, func(p model.PushToken) bool { return p.Token == token })
	}
	owners := n.owners()
	for _, p := range old {
		if !has(tokens, p.Token) && keyID(owners.Get([]byte(p.Token))) == userID {
			if err := owners.Delete([]byte(p.Token)); err != nil {
				return err
			}
		}
	}
	s := storedPushTokens{Tokens: []storedPushToken{}}
	for _, p := range tokens {
		if p.Token == "" {
			return model.Invalid("empty push token")
		}
		if !has(old, p.Token) {
			if err := owners.Put([]byte(p.Token), idKey(userID)); err != nil {
				return err
			}
		}
		s.Tokens = append(s.Tokens, storedPushToken{Token: p.Token, Added: p.Added})
	}
	if len(tokens) == 0 {
		return n.tokens().Delete(idKey(userID))
	}
	return putStored(n.tokens(), userID, s)
}

func (n notifyTx) PushTokenOwner(token string) (int64, bool, error) {
	v := n.owners().Get([]byte(token))
	return keyID(v), v != nil, nil
}

func (n notifyTx) PushTokenHolders() ([]int64, error) {
	var ids []int64
	err := n.tokens().ForEach(func(k, _ []byte) error {
		ids = append(ids, keyID(k))
		return nil
	})
	return ids, err
}
