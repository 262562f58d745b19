package fleet

import (
	"encoding/json"
	"iter"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// ExtendedEvent is the extended API's form of an event (E2, M7): lowercase
// names, attributes as a string of serialized JSON, and null instead of 0
// for a missing geofence or maintenance.
type ExtendedEvent struct {
	ID            int64  `json:"id"`
	Type          string `json:"type"`
	EventTime     string `json:"eventtime"`
	DeviceID      int64  `json:"deviceid"`
	PositionID    int64  `json:"positionid"`
	GeofenceID    *int64 `json:"geofenceid"`
	Attributes    string `json:"attributes"`
	MaintenanceID *int64 `json:"maintenanceid"`
}

// ExtendedTimeLayout is ISO 8601 with milliseconds and an explicit offset
// (+00:00 rather than Z), in the server's time zone.
const ExtendedTimeLayout = "2006-01-02T15:04:05.000-07:00"

func extendEvent(e *model.Event, zone *time.Location) ExtendedEvent {
	attrs := e.Attributes
	if attrs == nil {
		attrs = model.Attributes{}
	}
	data, err := json.Marshal(attrs)
	if err != nil { // an attribute JSON cannot hold (NaN): keep the event readable
		data = []byte("{}")
	}
	optional := func(id int64) *int64 {
		if id == 0 {
			return nil
		}
		return &id
	}
	return ExtendedEvent{ID: e.ID, Type: e.Type, EventTime: e.EventTime.In(zone).Format(ExtendedTimeLayout),
		DeviceID: e.DeviceID, PositionID: e.PositionID, GeofenceID: optional(e.GeofenceID),
		Attributes: string(data), MaintenanceID: optional(e.MaintenanceID)}
}

// EventQuery is E2's filter.
type EventQuery struct {
	// Types keeps events of these types; empty (or "allEvents") keeps all.
	Types []string
	// DeviceIDs are the devices to read; empty means every device the
	// actor sees. An id the actor cannot see is refused as not found.
	DeviceIDs []int64
	From, To  time.Time
	Desc      bool
	// Page counts from 1; Limit is 1..MaxEventLimit.
	Page, Limit int
}

// Paging defaults and bounds of E2. A page is found by reading past every
// event before it in one read transaction, so pages end MaxEventDepth
// events deep; a client goes further by narrowing the time range.
const (
	DefaultEventLimit = 20
	MaxEventLimit     = 100
	MaxEventDepth     = 10000
)

// ExtendedEvents answers E2: one page of the matching events of the
// devices, merged in event time order (ties by id).
func (fl *Service) ExtendedEvents(actor *model.User, q EventQuery) ([]ExtendedEvent, error) {
	page, err := fl.Events(actor, q)
	if err != nil {
		return nil, err
	}
	var zone *time.Location
	if err := fl.store.View(func(tx model.Tx) error { zone = serverZone(tx); return nil }); err != nil {
		return nil, err
	}
	out := make([]ExtendedEvent, len(page))
	for i, e := range page {
		out[i] = extendEvent(e, zone)
	}
	return out, nil
}

// Events is one page of the matching events of the devices (every one
// the actor sees when q names none), merged in event time order (ties by
// id).
func (fl *Service) Events(actor *model.User, q EventQuery) ([]*model.Event, error) {
	if err := checkRange(q.From, q.To); err != nil {
		return nil, err
	}
	if q.Page < 1 || q.Limit < 1 || q.Limit > MaxEventLimit {
		return nil, model.Invalid("page must be at least 1 and limit between 1 and %d", MaxEventLimit)
	}
	if q.Page > MaxEventDepth/q.Limit {
		return nil, model.Invalid("page × limit may reach at most %d events: narrow the time range to go further", MaxEventDepth)
	}
	match := typeFilter(q.Types)
	var page []*model.Event
	err := fl.store.View(func(tx model.Tx) error {
		devices, err := visibleDevices(access.Guard{Tx: tx, Actor: actor}, q.DeviceIDs)
		if err != nil {
			return err
		}
		streams := make([]iter.Seq[*model.Event], len(devices))
		errs := make([]error, len(devices))
		for i, id := range devices {
			streams[i] = deviceEvents(tx, id, q.From, q.To, q.Desc, match, &errs[i])
		}
		page = mergeEvents(streams, q.Desc, (q.Page-1)*q.Limit, q.Limit)
		return model.FirstError(errs...)
	})
	return page, err
}

// typeFilter matches events of the given types (all when none).
func typeFilter(types []string) func(*model.Event) bool {
	if len(types) == 0 || slices.Contains(types, "allEvents") {
		return func(*model.Event) bool { return true }
	}
	return func(e *model.Event) bool { return slices.Contains(types, e.Type) }
}

// MaxQueryDevices bounds the device ids one E2 or I1 request may name.
const MaxQueryDevices = 1000

// visibleDevices resolves a request's device list: the ids given, each of
// which the actor must see (not found otherwise), or every device the
// actor sees. The result is sorted and without repeats.
func visibleDevices(a access.Guard, ids []int64) ([]int64, error) {
	var out []int64
	if len(ids) > MaxQueryDevices {
		return nil, model.Invalid("at most %d device ids", MaxQueryDevices)
	}
	if len(ids) > 0 {
		if err := a.MustSeeDevices(ids); err != nil {
			return nil, err
		}
		for _, id := range ids {
			if err := a.Exists(model.KindDevice, id); err != nil {
				return nil, err
			}
		}
		out = slices.Clone(ids)
	} else if a.Actor.Administrator {
		err := a.Tx.Devices().List(func(d *model.Device) bool { out = append(out, d.ID); return true })
		if err != nil {
			return nil, err
		}
	} else {
		set, err := a.Visible(model.KindDevice)
		if err != nil {
			return nil, err
		}
		for id := range set {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Stop event types, newest of which is a device's last stop (M7).
var stopTypes = []string{model.EventIgnitionOff, model.EventDeviceStopped}

// LastStop answers M7: the device's newest ignitionOff or deviceStopped
// event, not found when it has none.
func (fl *Service) LastStop(actor *model.User, deviceID int64) (*ExtendedEvent, error) {
	var out *ExtendedEvent
	err := fl.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := model.FirstError(a.MustSee(model.KindDevice, deviceID), a.Exists(model.KindDevice, deviceID)); err != nil {
			return err
		}
		var stop *model.Event
		var err error
		for e := range deviceEvents(tx, deviceID, model.EarliestFix, endOfTime, true, typeFilter(stopTypes), &err) {
			stop = e
			break
		}
		if err != nil {
			return err
		}
		if stop == nil {
			return &model.Error{Class: model.ClassNotFound, Message: "Not found", Description: "The device has no recorded stop"}
		}
		e := extendEvent(stop, serverZone(tx))
		out = &e
		return nil
	})
	return out, err
}
