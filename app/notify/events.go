package notify

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/calendar"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// The one pipeline of event notifications. An event stored by the ingest
// reaches the notifier through the hub (observe), waits in the bounded
// queue, and the worker works out who is told and how (plan):
//
//   - the Traccar notifications that apply to the event's device (linked
//     to it or its groups, or "always" ones of users who see it), of the
//     event's type, narrowed by their alarms, geofenceIds and calendar,
//     each to its users who see the device, on each of its channels;
//   - push to every user with a push token who sees the device, for the
//     types the extended API's switches (K1/K2) govern.
//
// A user's switch that is off silences that kind of event on every
// channel. Each (user, channel) pair is sent once per event, however many
// notifications name it, and the webhook once per event.

// delivery is one user told of an event on one channel.
type delivery struct {
	user    *model.User
	channel string
}

// eventJob is an event waiting for its notifications.
type eventJob struct {
	event    *model.Event
	position *model.Position // the one the event happened at, if known
}

// observe is the hub observer: every stored event someone may be told of
// is queued, with its position when the update carries it.
func (n *Service) observe(_ int64, u live.Update) {
	for _, e := range u.Events {
		if !n.wants(e.Type) {
			continue
		}
		job := &eventJob{event: e}
		for _, p := range u.Positions {
			if p.ID == e.PositionID {
				job.position = p
			}
		}
		n.push.enqueue(pushJob{event: job})
	}
}

// plan works out the deliveries of one event, with what the messages
// need: the device and the names of the geofences and reminders.
func (n *Service) plan(tx model.Tx, e *model.Event) (*model.Device, []delivery, error) {
	d, err := tx.Devices().Get(e.DeviceID)
	if errors.Is(err, model.ErrNotFound) {
		return nil, nil, nil // deleted meanwhile: nobody to tell
	}
	if err != nil {
		return nil, nil, err
	}
	var out []delivery
	seen := map[delivery]bool{}
	users := map[int64]*model.User{}
	// may: the user exists, is active, sees the device and has not
	// switched this kind of event off.
	may := func(id int64) (*model.User, error) {
		if u, ok := users[id]; ok {
			return u, nil
		}
		u, err := tx.Users().Get(id)
		if errors.Is(err, model.ErrNotFound) {
			users[id] = nil
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		ok := !u.Disabled && !u.Expired(n.now())
		if ok {
			ok, err = access.Guard{Tx: tx, Actor: u}.CanSee(model.KindDevice, d.ID)
		}
		if ok && err == nil {
			if typ := eventNotification(e.Type); typ != "" {
				var s NotificationSettings
				if s, err = settingsOf(tx, id); err == nil {
					ok = s[typ]
				}
			}
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			u = nil
		}
		users[id] = u
		return u, nil
	}
	add := func(u *model.User, channel string) {
		k := delivery{u, channel}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	notes, err := n.deviceNotifications(tx, d, e)
	if err != nil {
		return nil, nil, err
	}
	for _, note := range notes {
		owners, err := tx.Owners(model.KindNotification, note.ID, model.KindUser)
		if err != nil {
			return nil, nil, err
		}
		for _, id := range owners {
			u, err := may(id)
			if err != nil {
				return nil, nil, err
			}
			if u == nil {
				continue
			}
			for _, c := range splitList(note.Notificators) {
				add(u, c)
			}
		}
	}
	if eventNotification(e.Type) != "" && n.push.opts.Sender != nil {
		holders, err := tx.Notify().PushTokenHolders()
		if err != nil {
			return nil, nil, err
		}
		for _, id := range holders {
			u, err := may(id)
			if err != nil {
				return nil, nil, err
			}
			if u != nil {
				add(u, model.NotifyPush)
			}
		}
	}
	return d, out, nil
}

// deviceNotifications are the notifications for event e of device d:
// linked to the device or its groups, or "always" ones of the users who
// see it (users are checked by plan), of e's type, narrowed by their
// attributes and calendar, as Traccar's NotificationManager has them.
func (n *Service) deviceNotifications(tx model.Tx, d *model.Device, e *model.Event) ([]*model.Notification, error) {
	linked, err := access.LinkedToDevice(tx, d, model.KindNotification)
	if err != nil {
		return nil, err
	}
	var out []*model.Notification
	err = tx.Notifications().List(func(note *model.Notification) bool {
		if (note.Always || slices.Contains(linked, note.ID)) && n.applies(tx, note, e) {
			out = append(out, note)
		}
		return true
	})
	return out, err
}

// applies checks a notification's type, alarms, geofenceIds and
// calendar against the event.
func (n *Service) applies(tx model.Tx, note *model.Notification, e *model.Event) bool {
	if note.Type != e.Type {
		return false
	}
	if e.Type == model.EventAlarm {
		alarm, _ := e.Attributes["alarm"].(string)
		if !slices.Contains(splitList(note.Attributes["alarms"]), alarm) {
			return false
		}
	}
	if ids, ok := note.Attributes["geofenceIds"]; ok && !containsID(splitList(ids), e.GeofenceID) {
		return false
	}
	if note.CalendarID == 0 {
		return true
	}
	cal := n.calendars.get(tx, note.CalendarID)
	return cal == nil || cal.Contains(e.EventTime)
}

// calendarCache keeps parsed calendars by id and data, so a check per
// event does not parse the document again (and walks its occurrences on
// from the last check).
type calendarCache struct {
	mu sync.Mutex
	m  map[int64]cachedCalendar
}

type cachedCalendar struct {
	data string
	cal  *calendar.Calendar
}

// get is the parsed calendar id; nil when it is gone or does not parse
// (which the fleet refuses), and then the notification always applies,
// as in Traccar.
func (c *calendarCache) get(tx model.Tx, id int64) *calendar.Calendar {
	stored, err := tx.Calendars().Get(id)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if hit, ok := c.m[id]; ok && hit.data == string(stored.Data) {
		return hit.cal
	}
	cal, err := calendar.Parse(stored.Data)
	if err != nil {
		return nil
	}
	if c.m == nil {
		c.m = map[int64]cachedCalendar{}
	}
	c.m[id] = cachedCalendar{data: string(stored.Data), cal: cal}
	return cal
}

// notifyEvent sends one event's notifications.
func (n *Service) notifyEvent(ctx context.Context, job *eventJob) {
	e := job.event
	if n.channels.MaxAge > 0 && n.now().Sub(e.EventTime) > n.channels.MaxAge {
		return
	}
	var (
		d     *model.Device
		srv   *model.Server
		plan  []delivery
		names = map[string]map[int64]string{}
	)
	err := n.store.View(func(tx model.Tx) (err error) {
		if d, plan, err = n.plan(tx, e); err != nil || len(plan) == 0 {
			return err
		}
		// The server's time zone and units are the default of users who chose none.
		if srv, err = tx.Server(); err != nil && model.ClassOf(err) != model.ClassNotFound {
			return err
		}
		if e.GeofenceID != 0 {
			if g, err := tx.Geofences().Get(e.GeofenceID); err == nil {
				names[model.KindGeofence] = map[int64]string{g.ID: g.Name}
			}
		}
		if e.MaintenanceID != 0 {
			if m, err := tx.Maintenances().Get(e.MaintenanceID); err == nil {
				names[model.KindMaintenance] = map[int64]string{m.ID: m.Name}
			}
		}
		return nil
	})
	if err != nil {
		n.log.Error("notifications: planning", "eventId", e.ID, "err", err)
		return
	}
	name := func(kind string, id int64) string { return names[kind][id] }
	data := map[string]string{
		"type": e.Type, "eventId": strconv.FormatInt(e.ID, 10), "deviceId": strconv.FormatInt(e.DeviceID, 10),
		"positionId": strconv.FormatInt(e.PositionID, 10), "eventTime": e.EventTime.UTC().Format(time.RFC3339),
	}
	var hooked []int64
	for _, dl := range plan {
		switch dl.channel {
		case model.NotifyWeb:
			// A copy with the user's message, which Traccar's web app
			// shows (as its NotificatorWeb sends it).
			web := *e
			web.Attributes = maps.Clone(e.Attributes)
			web.Attributes["message"] = eventMessage(dl.user, srv, d, e, job.position, name).body
			n.hub.ToUser(dl.user.ID, e.DeviceID, live.Update{Events: []*model.Event{&web}})
			n.counted(dl.channel, nil)
		case model.NotifyWebhook:
			hooked = append(hooked, dl.user.ID)
		default:
			err := n.sendTo(ctx, dl.user, dl.channel, eventMessage(dl.user, srv, d, e, job.position, name), data)
			n.counted(dl.channel, err)
			if err != nil {
				n.log.Warn("notification not delivered", "channel", dl.channel, "userId", dl.user.ID, "eventId", e.ID, "err", err)
			}
		}
	}
	if len(hooked) > 0 {
		err := n.postWebhook(ctx, webhookEvent{Event: e, Device: d, Position: job.position, Users: hooked})
		n.counted(model.NotifyWebhook, err)
		if err != nil {
			n.log.Warn("webhook not delivered", "eventId", e.ID, "err", err)
		}
	}
}

// webhookEvent is the webhook's document: the event, its device and
// position, and the users whose notifications asked for it.
type webhookEvent struct {
	Event    *model.Event    `json:"event"`
	Device   *model.Device   `json:"device"`
	Position *model.Position `json:"position,omitempty"`
	Users    []int64         `json:"users"`
}

func (n *Service) postWebhook(ctx context.Context, v webhookEvent) error {
	if n.channels.Webhook == nil {
		return model.Invalid("the webhook notificator is not configured on this server")
	}
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, n.push.opts.Timeout)
	defer cancel()
	return n.channels.Webhook.Post(ctx, body)
}
