package fleet

import (
	"math"
	"strings"

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
