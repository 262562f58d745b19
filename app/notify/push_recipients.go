package notify

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// pushOut is one user's message and the tokens it goes to.
type pushOut struct {
	userID int64
	tokens []model.PushToken
	msg    PushMessage
}

// eventNotification maps an event type to the switch (K2) that governs
// it; "" for the types no switch governs.
func eventNotification(eventType string) string {
	switch eventType {
	case model.EventIgnitionOn, model.EventIgnitionOff:
		return "ignition"
	case model.EventGeofenceEnter, model.EventGeofenceExit:
		return "geofence"
	case model.EventDeviceOverspeed:
		return "deviceOverspeed"
	case model.EventAlarm:
		return "alarm"
	case model.EventCommandResult:
		return "commandResult"
	case model.EventMaintenance:
		return "maintenance"
	}
	return ""
}

type holder struct {
	user   *model.User
	tokens []model.PushToken
}

// recipient loads a live user with tokens who has typ on ("" is always on).
func recipient(tx model.Tx, userID int64, typ string, now time.Time) (holder, bool, error) {
	u, err := tx.Users().Get(userID)
	if model.ClassOf(err) == model.ClassNotFound {
		return holder{}, false, nil
	}
	if err != nil || u.Disabled || u.Expired(now) {
		return holder{}, false, err
	}
	t, err := tokensOf(tx, userID)
	if err != nil || len(t) == 0 {
		return holder{}, false, err
	}
	if typ != "" {
		s, err := settingsOf(tx, userID)
		if err != nil || !s[typ] {
			return holder{}, false, err
		}
	}
	return holder{user: u, tokens: t}, true, nil
}

// userRecipient is NotifyUser's one recipient, if the user wants it.
func userRecipient(tx model.Tx, userID int64, n Notification, now time.Time) ([]pushOut, error) {
	o, ok, err := recipient(tx, userID, n.Type, now)
	if err != nil || !ok {
		return nil, err
	}
	return []pushOut{{userID: userID, tokens: o.tokens, msg: PushMessage{Title: n.Title, Body: n.Body, Data: n.Data}}}, nil
}
