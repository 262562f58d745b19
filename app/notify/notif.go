package notify

import (
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// NotificationTypes are the switches of K1/K2, in the spec's order.
var NotificationTypes = []string{"ignition", "geofence", "deviceOverspeed", "maintenance", "alarm", "commandResult"}

// NotificationSettings maps each notification type to on/off. Every type
// is on until the user switches it off: a user who registered a push
// token asked to be told.
type NotificationSettings map[string]bool

func validType(typ string) bool {
	for _, t := range NotificationTypes {
		if t == typ {
			return true
		}
	}
	return false
}

func settingsOf(tx model.Tx, userID int64) (NotificationSettings, error) {
	s := NotificationSettings{}
	for _, t := range NotificationTypes {
		s[t] = true
	}
	stored, err := tx.Notify().NotificationSettings(userID)
	if err != nil {
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
	return n.store.As(actor).Update(func(tx model.Tx) error {
		s, err := settingsOf(tx, actor.ID)
		if err != nil {
			return err
		}
		s[typ] = on
		return tx.Notify().PutNotificationSettings(actor.ID, s)
	})
}
