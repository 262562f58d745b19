package notify

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// NotificationTypes are the switches of K1/K2, in the spec's order.
var NotificationTypes = []string{"ignition", "geofence", "deviceOverspeed", "maintenance", "alarm", "commandResult"}

// NotificationSettings maps each notification type to on/off. Every type
// is on until the user switches it off: a user who registered a push
// token asked to be told.
type NotificationSettings map[string]bool

// Per-user records are stored under the user's id.
const (
	settingsRecords = "notificationSettings"
	tokenRecords    = "pushTokens"
	tokenOwners     = "pushTokenOwners" // token -> user id
)

func validType(typ string) bool {
	for _, t := range NotificationTypes {
		if t == typ {
			return true
		}
	}
	return false
}

func getJSON(tx model.Tx, set string, id int64, v any) error {
	data, ok, err := tx.Records(set).Get(id)
	if err != nil || !ok {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %s %d: %w", set, id, err)
	}
	return nil
}

func putJSON(tx model.Tx, set string, id int64, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return tx.Records(set).Put(id, data)
}

func settingsOf(tx model.Tx, userID int64) (NotificationSettings, error) {
	s := NotificationSettings{}
	for _, t := range NotificationTypes {
		s[t] = true
	}
	var stored NotificationSettings
	if err := getJSON(tx, settingsRecords, userID, &stored); err != nil {
		return nil, err
	}
	for t, on := range stored {
		if validType(t) {
			s[t] = on
		}
	}
	return s, nil
}

// NotificationSettings is K1: the caller's switches.
func (n *Service) NotificationSettings(actor *model.User) (NotificationSettings, error) {
	var s NotificationSettings
	err := n.store.View(func(tx model.Tx) (err error) { s, err = settingsOf(tx, actor.ID); return err })
	return s, err
}

// SetNotification is K2: one switch of the caller.
func (n *Service) SetNotification(actor *model.User, typ string, on bool) error {
	if !validType(typ) {
		return model.Invalid("type must be one of %s", strings.Join(NotificationTypes, ", "))
	}
	return n.store.Update(func(tx model.Tx) error {
		s, err := settingsOf(tx, actor.ID)
		if err != nil {
			return err
		}
		s[typ] = on
		return putJSON(tx, settingsRecords, actor.ID, s)
	})
}
