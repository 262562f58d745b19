package ingest

import (
	"slices"
	"strings"

	"github.com/fleetd/fleetd/app/model"
)

// deriveEvents compares a new position with the device's previous latest
// one. State-change events (ignition, motion, overspeed, geofences) come
// only from a position that becomes the latest; a late, older fix cannot
// change the current state. Alarms are reported whatever the order. The
// events get their positionId when the position is stored.
func (ig *Service) deriveEvents(d *model.Device, prev, p *model.Position, latest bool) []*model.Event {
	var out []*model.Event
	add := func(typ string, attrs model.Attributes, geofenceID int64) {
		if attrs == nil {
			attrs = model.Attributes{}
		}
		out = append(out, &model.Event{Type: typ, EventTime: p.FixTime, DeviceID: d.ID,
			GeofenceID: geofenceID, Attributes: attrs})
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
	if limit := model.Number(d.Attributes["speedLimit"]); limit > 0 && p.Speed > limit && prev.Speed <= limit {
		add(model.EventDeviceOverspeed, model.Attributes{"speed": p.Speed, "speedLimit": limit}, 0)
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
	return out
}
