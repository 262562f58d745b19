package fleet

import (
	"slices"
	"sort"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// AllEvents in an events report's types stands for every type (Traccar's
// Event.ALL_EVENTS).
const AllEvents = "allEvents"

// EventFilter is an events report's selection: types (none, or
// allEvents: all), and for alarms the alarm kinds (none: all).
type EventFilter struct {
	Types, Alarms []string
}

func (f EventFilter) takes(e *model.Event) bool {
	if len(f.Types) == 0 || slices.Contains(f.Types, AllEvents) {
		return true
	}
	if !slices.Contains(f.Types, e.Type) {
		return false
	}
	alarm, _ := e.Attributes["alarm"].(string)
	return e.Type != model.EventAlarm || len(f.Alarms) == 0 || slices.Contains(f.Alarms, alarm)
}

// EachEvent calls fn with the events of every device of the report that
// the filter takes, device by device, each in eventTime order.
func (r *Report) EachEvent(f EventFilter, fn func(d *model.Device, e *model.Event) error) error {
	for _, d := range r.Devices {
		err := r.Events(d, func(e *model.Event) error {
			if f.takes(e) {
				return fn(d, e)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// CombinedItem is Traccar's CombinedReportItem: a device's route as
// [longitude, latitude] pairs, its events, and the positions they
// happened at.
type CombinedItem struct {
	DeviceID  int64             `json:"deviceId"`
	Route     [][2]float64      `json:"route"`
	Events    []*model.Event    `json:"events"`
	Positions []*model.Position `json:"positions"`
}

// Combined is the combined report, as Traccar's CombinedReportProvider
// makes it: events with a position, but deviceMoving; the route up to
// the route limit.
func (r *Report) Combined() ([]CombinedItem, error) {
	out := []CombinedItem{}
	for _, d := range r.Devices {
		item := CombinedItem{DeviceID: d.ID, Route: [][2]float64{}, Events: []*model.Event{}, Positions: []*model.Position{}}
		at := map[int64]bool{}
		err := r.Events(d, func(e *model.Event) error {
			if e.PositionID > 0 && e.Type != model.EventDeviceMoving {
				item.Events = append(item.Events, e)
				at[e.PositionID] = true
			}
			return nil
		})
		if err == nil {
			err = r.Positions(d, r.MaxPositions(), func(p *model.Position) error {
				item.Route = append(item.Route, [2]float64{p.Longitude, p.Latitude})
				if at[p.ID] {
					item.Positions = append(item.Positions, p)
				}
				return nil
			})
		}
		if err != nil {
			return nil, err
		}
		out = append(out, item)
	}
	return out, nil
}

// GeofenceItem is Traccar's GeofenceReportItem: a device's stay in a
// geofence, from its enter event to its exit event. The distance, speed,
// fuel and odometer fields of Traccar's base item are kept, zero, as
// Traccar leaves them.
type GeofenceItem struct {
	DeviceID      int64     `json:"deviceId"`
	DeviceName    string    `json:"deviceName"`
	GeofenceID    int64     `json:"geofenceId"`
	StartTime     time.Time `json:"startTime"`
	EndTime       time.Time `json:"endTime"`
	Distance      float64   `json:"distance"`
	AverageSpeed  float64   `json:"averageSpeed"`
	MaxSpeed      float64   `json:"maxSpeed"`
	SpentFuel     float64   `json:"spentFuel"`
	StartOdometer float64   `json:"startOdometer"`
	EndOdometer   float64   `json:"endOdometer"`
}

// GeofenceStays pairs each geofenceEnter with the next geofenceExit of the
// same geofence, per device, for the geofences asked for (none: all the
// caller sees), sorted by start as Traccar's GeofenceReportProvider. A
// stay still open at the span's end is not listed, as in Traccar.
func (r *Report) GeofenceStays(geofenceIDs []int64) ([]GeofenceItem, error) {
	out := []GeofenceItem{}
	for _, d := range r.Devices {
		open := map[int64]*model.Event{}
		err := r.Events(d, func(e *model.Event) error {
			if e.GeofenceID == 0 || (len(geofenceIDs) > 0 && !slices.Contains(geofenceIDs, e.GeofenceID)) {
				return nil
			}
			switch e.Type {
			case model.EventGeofenceEnter:
				open[e.GeofenceID] = e
			case model.EventGeofenceExit:
				if enter := open[e.GeofenceID]; enter != nil && !e.EventTime.Before(enter.EventTime) {
					out = append(out, GeofenceItem{DeviceID: d.ID, DeviceName: d.Name, GeofenceID: e.GeofenceID,
						StartTime: enter.EventTime, EndTime: e.EventTime})
				}
				delete(open, e.GeofenceID)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartTime.Before(out[j].StartTime) })
	return out, nil
}
