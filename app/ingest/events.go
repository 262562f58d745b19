package ingest

import (
	"math"
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// deriveEvents compares a new position with the device's previous latest
// one. State-change events (ignition, motion, overspeed, geofences) come
// only from a position that becomes the latest; a late, older fix cannot
// change the current state. Alarms are reported whatever the order. The
// events get their positionId when the position is stored.
func (ig *Service) deriveEvents(st *deviceState, prev, p *model.Position, latest bool) []*model.Event {
	d := st.device
	var out []*model.Event
	add := func(typ string, attrs model.Attributes, geofenceID int64) *model.Event {
		if attrs == nil {
			attrs = model.Attributes{}
		}
		e := &model.Event{Type: typ, EventTime: p.FixTime, DeviceID: d.ID, GeofenceID: geofenceID, Attributes: attrs}
		out = append(out, e)
		return e
	}
	if alarm, _ := p.Attributes["alarm"].(string); alarm != "" {
		for _, a := range strings.Split(alarm, ",") {
			if a = strings.TrimSpace(a); a != "" {
				add(model.EventAlarm, model.Attributes{"alarm": a}, 0)
			}
		}
	}
	if !latest || prev == nil {
		return out
	}
	if on, ok := p.Attributes["ignition"].(bool); ok {
		if was, ok := prev.Attributes["ignition"].(bool); ok && was != on {
			add(map[bool]string{true: model.EventIgnitionOn, false: model.EventIgnitionOff}[on], nil, 0)
		}
	}
	if moving, ok := p.Attributes["motion"].(bool); ok {
		if was, ok := prev.Attributes["motion"].(bool); ok && was != moving {
			add(map[bool]string{true: model.EventDeviceMoving, false: model.EventDeviceStopped}[moving], nil, 0)
		}
	}
	if limit := model.Number(st.settings["speedLimit"]); limit > 0 && p.Speed > limit && prev.Speed <= limit {
		add(model.EventDeviceOverspeed, model.Attributes{"speed": p.Speed, "speedLimit": limit}, 0)
	}
	// Traccar's DriverEventHandler: a driver id unlike the last position's.
	if driver, ok := p.Attributes["driverUniqueId"].(string); ok && driver != prev.Attributes["driverUniqueId"] {
		add(model.EventDriverChanged, model.Attributes{"driverUniqueId": driver}, 0)
	}
	// Traccar's FuelEventHandler: a change of fuel at least the device's
	// threshold (0: off).
	if _, ok := p.Attributes["fuel"]; ok {
		if _, had := prev.Attributes["fuel"]; had {
			before, after := model.Number(prev.Attributes["fuel"]), model.Number(p.Attributes["fuel"])
			change, key := model.EventFuelDrop, "fuelDropThreshold"
			if after > before {
				change, key = model.EventFuelIncrease, "fuelIncreaseThreshold"
			}
			if threshold := model.Number(st.settings[key]); threshold > 0 && math.Abs(after-before) >= threshold {
				add(change, model.Attributes{"before": before, "after": after}, 0)
			}
		}
	}

	for _, id := range p.GeofenceIDs {
		if !slices.Contains(prev.GeofenceIDs, id) {
			add(model.EventGeofenceEnter, nil, id)
		}
	}
	for _, id := range prev.GeofenceIDs {
		if !slices.Contains(p.GeofenceIDs, id) {
			add(model.EventGeofenceExit, nil, id)
		}
	}
	for _, m := range st.reminders {
		if v, due := maintenanceDue(m, model.Number(d.Attributes[fleet.MaintenanceStartKey(m.ID)]), prev, p); due {
			add(model.EventMaintenance, model.Attributes{m.Type: v}, 0).MaintenanceID = m.ID
		}
	}
	return out
}

// maintenanceDue is Traccar's MaintenanceEventHandler rule: the reminder
// is due when the type's value, known before and now (0 counts as
// unknown), reaches start, or crosses into a new period after it. The
// device's own start (deviceStart, not 0: the last service recorded,
// fleet.ServiceRecorded) replaces the reminder's.
func maintenanceDue(m *model.Maintenance, deviceStart float64, prev, p *model.Position) (float64, bool) {
	if m.Period == 0 {
		return 0, false
	}
	start := m.Start
	if deviceStart != 0 {
		start = deviceStart
	}
	old, now := fleet.MaintenanceValue(prev, m.Type), fleet.MaintenanceValue(p, m.Type)
	if old == 0 || now == 0 || now < start {
		return now, false
	}
	return now, old < start || math.Floor((old-start)/m.Period) < math.Floor((now-start)/m.Period)
}
