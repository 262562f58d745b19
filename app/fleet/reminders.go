package fleet

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/calendar"
	"github.com/fleetd/fleetd/app/model"
)

// newCalendars are Traccar's calendars: a name and an iCalendar document
// that must parse, so a broken one never reaches the checks that use it.
func newCalendars(fl *Service) *Objects[model.Calendar, *model.Calendar] {
	return &Objects[model.Calendar, *model.Calendar]{
		store: fl.store, kind: model.KindCalendar,
		table: model.Tx.Calendars,
		prepare: func(_ access.Guard, _, c *model.Calendar) error {
			c.Name = strings.TrimSpace(c.Name)
			if c.Name == "" || len(c.Data) == 0 {
				return model.Invalid("name and data are required")
			}
			if _, err := calendar.Parse(c.Data); err != nil {
				return model.Invalid("%v", err)
			}
			if c.Attributes == nil {
				c.Attributes = model.Attributes{}
			}
			return nil
		},
		// What pointed at the calendar is active at all times again, as
		// Traccar's foreign keys (ON DELETE SET NULL) leave it.
		remove: func(tx model.Tx, c *model.Calendar) (func(), error) {
			err := clearCalendar(tx.Geofences(), c.ID, func(g *model.Geofence) *int64 { return &g.CalendarID })
			if err == nil {
				err = clearCalendar(tx.Devices(), c.ID, func(d *model.Device) *int64 { return &d.CalendarID })
			}
			if err == nil {
				err = clearCalendar(tx.Notifications(), c.ID, func(n *model.Notification) *int64 { return &n.CalendarID })
			}
			return nil, err
		},
	}
}

// clearCalendar zeroes the calendarId of the records of table that hold id.
func clearCalendar[T any](table model.Table[T], id int64, field func(*T) *int64) error {
	var holders []*T
	if err := table.List(func(v *T) bool {
		if *field(v) == id {
			holders = append(holders, v)
		}
		return true
	}); err != nil {
		return err
	}
	for _, v := range holders {
		*field(v) = 0
		if err := table.Put(v); err != nil {
			return err
		}
	}
	return nil
}

// checkCalendar accepts no calendar or one the actor can see.
func checkCalendar(a access.Guard, id int64) error {
	if id == 0 {
		return nil
	}
	return a.Reference(model.KindCalendar, id)
}

// newMaintenances are Traccar's maintenance reminders: the ingest raises
// a maintenance event each time the type's value crosses start plus a
// multiple of period.
func newMaintenances(fl *Service) *Objects[model.Maintenance, *model.Maintenance] {
	return &Objects[model.Maintenance, *model.Maintenance]{
		store: fl.store, kind: model.KindMaintenance,
		table: model.Tx.Maintenances,
		prepare: func(_ access.Guard, _, m *model.Maintenance) error {
			m.Name, m.Type = strings.TrimSpace(m.Name), strings.TrimSpace(m.Type)
			switch {
			case m.Name == "" || m.Type == "":
				return model.Invalid("name and type are required")
			case m.Period < 0 || math.IsNaN(m.Period) || math.IsInf(m.Period, 0) || math.IsNaN(m.Start) || math.IsInf(m.Start, 0):
				return model.Invalid("start must be a number and period a number not below 0")
			}
			if m.Attributes == nil {
				m.Attributes = model.Attributes{}
			}
			return nil
		},
	}
}

// newNotifications are Traccar's notifications; notify sends them.
func newNotifications(fl *Service) *Objects[model.Notification, *model.Notification] {
	return &Objects[model.Notification, *model.Notification]{
		store: fl.store, kind: model.KindNotification,
		table: model.Tx.Notifications,
		prepare: func(a access.Guard, _, n *model.Notification) error {
			n.Type, n.Description = strings.TrimSpace(n.Type), strings.TrimSpace(n.Description)
			if !slices.Contains(model.EventTypes, n.Type) {
				return model.Invalid("type must be one of %s", strings.Join(model.EventTypes, ", "))
			}
			var channels []string
			for _, c := range strings.Split(n.Notificators, ",") {
				if c = strings.TrimSpace(c); c == "" {
					continue
				}
				if !slices.Contains(model.Notificators, c) {
					return model.Invalid("notificators must be among %s", strings.Join(model.Notificators, ", "))
				}
				if !slices.Contains(channels, c) {
					channels = append(channels, c)
				}
			}
			n.Notificators = strings.Join(channels, ",")
			if n.Attributes == nil {
				n.Attributes = model.Attributes{}
			}
			if err := checkNotificationAttributes(n); err != nil {
				return err
			}
			if n.CommandID != 0 {
				if err := a.Reference(model.KindCommand, n.CommandID); err != nil {
					return err
				}
			}
			return checkCalendar(a, n.CalendarID)
		},
	}
}

// checkNotificationAttributes checks the attributes that narrow a
// notification: alarms, which an alarm notification needs (Traccar sends
// none without it), and geofenceIds, a list of ids.
func checkNotificationAttributes(n *model.Notification) error {
	alarms, _ := n.Attributes["alarms"].(string)
	if n.Type == model.EventAlarm && strings.TrimSpace(alarms) == "" {
		return model.Invalid("an alarm notification needs attributes.alarms, the alarm kinds (comma-separated)")
	}
	if v, ok := n.Attributes["geofenceIds"]; ok {
		s, _ := v.(string)
		for _, id := range strings.Split(s, ",") {
			if _, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64); err != nil {
				return model.Invalid("attributes.geofenceIds must be geofence ids, comma-separated")
			}
		}
	}
	return nil
}

// MaintenanceStartKey is the device attribute that moves where one
// maintenance reminder counts from for that device: recording a service
// of the office (ServiceRecorded) sets it, and a user may set it by hand.
func MaintenanceStartKey(maintenanceID int64) string {
	return "maintenance." + strconv.FormatInt(maintenanceID, 10) + ".start"
}

// ServiceRecorded links the office's service history to Traccar's
// maintenance reminders: a service record of a vehicle naming a reminder
// linked to it (a service task or the title equal to the reminder's name,
// case aside) restarts that reminder for the vehicle, so the next one
// falls a whole period after the service. The reminder's value at the
// service (its type read from the vehicle's last position up to the
// service day's end) plus the period goes in the device attribute
// MaintenanceStartKey, in the record's own transaction.
func (fl *Service) ServiceRecorded(tx model.Tx, r *model.ServiceRecord) error {
	d, err := tx.Devices().Get(int64(r.VehicleID))
	if errors.Is(err, model.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	reminders, err := access.DeviceObjects(tx, d, model.KindMaintenance, tx.Maintenances())
	if err != nil {
		return err
	}
	names := map[string]bool{strings.ToLower(strings.TrimSpace(r.Title)): true}
	for _, task := range r.ServiceTasks {
		names[strings.ToLower(strings.TrimSpace(task))] = true
	}
	var at *model.Position
	changed := false
	for _, m := range reminders {
		if !names[strings.ToLower(m.Name)] || m.Period <= 0 {
			continue
		}
		if at == nil {
			if at, err = positionAt(tx, d.ID, r.ServiceDate.AddDate(0, 0, 1)); err != nil || at == nil {
				return err // no position yet: nothing to count from
			}
		}
		v := MaintenanceValue(at, m.Type)
		if v == 0 {
			continue
		}
		if d.Attributes == nil {
			d.Attributes = model.Attributes{}
		}
		d.Attributes[MaintenanceStartKey(m.ID)] = v + m.Period
		changed = true
	}
	if !changed {
		return nil
	}
	return tx.Devices().Put(d)
}

// positionAt is the device's last position before t (nil: none).
func positionAt(tx model.Tx, deviceID int64, t time.Time) (*model.Position, error) {
	latest, err := tx.LatestPosition(deviceID)
	if errors.Is(err, model.ErrNotFound) {
		return nil, nil
	}
	if err != nil || latest.FixTime.Before(t) {
		return latest, err
	}
	var last *model.Position
	err = tx.Positions(deviceID, t.AddDate(0, 0, -30), t.Add(-time.Nanosecond), func(p *model.Position) bool { last = p; return true })
	return last, err
}

// MaintenanceValue is the value a reminder of type typ counts at p: a
// time in epoch milliseconds, or a numeric attribute (Traccar's
// MaintenanceEventHandler).
func MaintenanceValue(p *model.Position, typ string) float64 {
	switch typ {
	case "serverTime":
		return float64(p.ServerTime.UnixMilli())
	case "deviceTime":
		return float64(p.DeviceTime.UnixMilli())
	case "fixTime":
		return float64(p.FixTime.UnixMilli())
	}
	return model.Number(p.Attributes[typ])
}
