package notify

import (
	"fmt"
	"strconv"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// pushOut is one user's message and the tokens it goes to.
type pushOut struct {
	userID int64
	tokens []model.PushToken
	msg    PushMessage
}

// eventNotification maps an event type to the switch (K2) that governs
// it; "" for events nobody is notified of.
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
	case "maintenance":
		return "maintenance"
	}
	return ""
}

// eventText is the notification body of an event.
func eventText(e *model.Event) string {
	switch e.Type {
	case model.EventIgnitionOn:
		return "Ignition on"
	case model.EventIgnitionOff:
		return "Ignition off"
	case model.EventGeofenceEnter:
		return "Entered a geofence"
	case model.EventGeofenceExit:
		return "Left a geofence"
	case model.EventDeviceOverspeed:
		return "Speed limit exceeded"
	case model.EventAlarm:
		return fmt.Sprintf("Alarm: %v", e.Attributes["alarm"])
	case model.EventCommandResult:
		return fmt.Sprintf("Command result: %v", e.Attributes["result"])
	}
	return "Maintenance required"
}

// eventRecipients are the users with push tokens who have the event's
// switch on and may see its device (the core's visibility rules), with
// the message each gets. Only users holding tokens are checked, so the
// cost follows the number of push users, not of all users.
func (n *Service) eventRecipients(tx model.Tx, e *model.Event) ([]pushOut, error) {
	typ := eventNotification(e.Type)
	title := "Device " + strconv.FormatInt(e.DeviceID, 10)
	if d, err := tx.Devices().Get(e.DeviceID); err == nil {
		title = d.Name
	} else if model.ClassOf(err) != model.ClassNotFound {
		return nil, err
	}
	msg := PushMessage{Title: title, Body: eventText(e), Data: map[string]string{
		"type": e.Type, "eventId": strconv.FormatInt(e.ID, 10), "deviceId": strconv.FormatInt(e.DeviceID, 10),
		"positionId": strconv.FormatInt(e.PositionID, 10), "eventTime": e.EventTime.UTC().Format(time.RFC3339),
	}}
	holders, err := tx.Notify().PushTokenHolders()
	if err != nil {
		return nil, err
	}
	var out []pushOut
	for _, id := range holders {
		o, ok, err := recipient(tx, id, typ, n.now())
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if sees, err := (access.Guard{Tx: tx, Actor: o.user}).CanSee(model.KindDevice, e.DeviceID); err != nil {
			return nil, err
		} else if sees {
			out = append(out, pushOut{userID: id, tokens: o.tokens, msg: msg})
		}
	}
	return out, nil
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
