package ingest

import (
	"errors"
	"math"
	"net"
	"reflect"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/calendar"
	"github.com/fleetd/fleetd/app/geo"
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// Options tune the position pipeline.
type Options struct {
	// AutoRegister creates unknown devices instead of rejecting them,
	// AutoRegisterPerHour of them per client address (default 100); past
	// that they are listed as unknown.
	AutoRegister        bool
	AutoRegisterPerHour int
	// FutureLimit drops fixes dated further than this past the server clock
	// (a device with a broken clock would otherwise pin "latest" forever).
	FutureLimit time.Duration
	// MotionSpeed is the speed in knots above which a device is moving.
	MotionSpeed float64
	// Inbox bounds the raw-frame inbox.
	Inbox inbox.Options
}

// ErrUnknownDevice is returned for a uniqueId no device has (and
// auto-registration is off); the id is listed in UnknownDevices.
var ErrUnknownDevice = &model.Error{Class: model.ClassNotFound, Message: "Unknown device"}

// Registered looks a device up by uniqueId with none of Identify's side
// effects: the listeners use it for a frame whose checksum failed, whose
// id may be the corrupt part.
func (ig *Service) Registered(uniqueID string) (*model.Device, error) {
	var d *model.Device
	err := ig.store.View(func(tx model.Tx) (err error) {
		d, err = tx.DeviceByUniqueID(strings.TrimSpace(uniqueID))
		return err
	})
	return d, err
}

// Identify resolves a device by uniqueId for a listener. Unknown ids are
// remembered for the administrator, or registered when AutoRegister is on.
// A malformed id is refused before any of that: it comes from a corrupt
// frame, and must neither create a device nor crowd real ids out of the
// unknown list.
func (ig *Service) Identify(protocol, uniqueID, remote string) (*model.Device, error) {
	uniqueID = strings.TrimSpace(uniqueID)
	if err := limits.UniqueID(uniqueID); err != nil {
		ig.counters.invalidIDs.Add(1)
		return nil, err
	}
	d, err := ig.Registered(uniqueID)
	if errors.Is(err, model.ErrNotFound) {
		if !ig.opts.AutoRegister || ig.registrations.Take(hostOf(remote)) != nil {
			ig.unknown.seen(uniqueID, protocol, remote, ig.now())
			return nil, ErrUnknownDevice
		}
		d, err = ig.fleet.Devices.Create(model.System(), func(d *model.Device) error {
			d.Name, d.UniqueID = uniqueID, uniqueID
			return nil
		})
		if model.ClassOf(err) == model.ClassConflict { // registered concurrently by another connection
			return ig.Identify(protocol, uniqueID, remote)
		}
		if err == nil {
			ig.log.Info("device auto-registered", "uniqueId", uniqueID, "protocol", protocol, "remote", remote)
		}
	}
	if err != nil {
		return nil, err
	}
	if d.Disabled {
		return nil, model.Forbidden("device %s is disabled", uniqueID)
	}
	return d, nil
}

// hostOf is the address of a remote "host:port" (as it is when it has no
// port).
func hostOf(remote string) string {
	if host, _, err := net.SplitHostPort(remote); err == nil {
		return host
	}
	return remote
}

// Ingest is the one protocol-neutral path of positions: filter, distance
// and motion, computed attributes, events, store, device state, broadcast.
// It returns only once everything is durable, so the caller may then
// acknowledge the device. Positions it drops as invalid are not an error:
// the device must not resend them; they are the positions left with
// DeviceID 0, so a listener can show their frame in the raw-frame inbox.
// Failures are logged here, condensed
// (ingestFailures), so callers need not log them.
func (ig *Service) Ingest(deviceID int64, positions []*model.Position) error {
	err := ig.ingest(deviceID, positions)
	ig.ingestFails.note(ig.log, ig.now, deviceID, len(positions), err)
	return err
}

// ingest is Ingest without the failure log. It publishes what it stored
// once the device's lock is released: a subscriber may read the store to
// check its access, and the device's next frame must not wait for that.
func (ig *Service) ingest(deviceID int64, positions []*model.Position) error {
	u, err := ig.storePositions(deviceID, positions)
	if err == nil {
		ig.hub.Publish(deviceID, u)
	}
	return err
}

// storePositions stores one device's positions under the device's lock.
// Everything but the writes happens before the store transaction, on the
// device's cached state (see state.go): the store has one writer, and the
// throughput of the whole server is what that writer can do.
func (ig *Service) storePositions(deviceID int64, positions []*model.Position) (live.Update, error) {
	st := ig.state(deviceID)
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := ig.loadState(st, deviceID); err != nil {
		return live.Update{}, err
	}
	now := ig.now().UTC()
	type planned struct {
		p      *model.Position
		events []*model.Event
		media  string // the store key of the file p came with, if any
	}
	var (
		plan   []planned
		stored []*model.Position
	)
	prev, dev := st.latest, st.device
	for _, p := range positions {
		if !ig.acceptable(p, now) {
			ig.counters.dropped.Add(1)
			continue
		}
		ig.sanitize(dev, p)
		if ig.resent(deviceID, p, prev) {
			ig.counters.resent.Add(1)
			p.DeviceID = deviceID // taken, only not stored again
			continue
		}
		p.DeviceID, p.ServerTime = deviceID, now
		media := ig.nameMedia(p, now)
		ig.enrich(p, prev, st.fences)
		ig.applyComputed(st.computed, p)
		latest := prev == nil || !p.FixTime.Before(prev.FixTime) // LatestPosition's rule: p has the largest id
		plan = append(plan, planned{p, ig.deriveEvents(st, prev, p, latest), media})
		stored = append(stored, p)
		if latest {
			prev = p
		}
	}
	goesOnline := dev.Status != model.StatusOnline
	persist := goesOnline || now.Sub(st.persisted) >= devicePersistInterval
	var (
		events []*model.Event
		record *model.Device
	)
	write := ig.store.Batch
	if len(plan) == 0 && !persist {
		write = func(func(model.Tx) error) error { return nil } // nothing new to write
	}
	err := write(func(tx model.Tx) error {
		// Batch may run this more than once: start from scratch each time.
		events, record = events[:0], nil
		for _, pl := range plan {
			if err := tx.AddPosition(pl.p); err != nil {
				return err
			}
			if pl.media != "" {
				m := pl.p.Media
				if err := tx.Media().Put(pl.media, &model.Blob{Type: m.Type, Data: m.Data}); err != nil {
					return err
				}
			}
			for _, e := range pl.events {
				e.PositionID = pl.p.ID
				if err := tx.AddEvent(e); err != nil {
					return err
				}
				events = append(events, e)
			}
		}
		if !persist {
			return nil
		}
		// The stored record is read again: the API may have changed the
		// device since the state was cached; only ingest-owned fields move.
		d, err := tx.Devices().Get(deviceID)
		if err != nil {
			return err
		}
		st.apply(d, prev, now)
		if goesOnline {
			e, err := changeStatus(tx, d, model.StatusOnline, now)
			if err != nil {
				return err
			}
			events = append(events, e)
		}
		record = d
		return tx.Devices().Put(d)
	})
	if err != nil {
		return live.Update{}, err
	}
	for _, pl := range plan {
		pl.p.Media = nil // stored: the bytes need not live on with the latest position
	}
	st.latest = prev
	if record != nil {
		st.device, st.persisted, st.dirty = record, now, false
	} else {
		st.device, st.dirty = st.applied(prev, now), true
	}
	ig.counters.stored.Add(uint64(len(stored)))
	return live.Update{Devices: []*model.Device{st.device}, Positions: stored, Events: events}, nil
}

// resent tells whether p repeats a stored position: a device sends again
// what it sent when the ACK was lost (a crash, a dropped connection), and it
// must not be stored twice. Only a fix no newer than the latest can be one,
// so the store is read only for those. An alarm is never taken for a
// resend: two alike may both have happened. (Events fleetd derives need no
// such care: a resend changes nothing they are derived from.)
func (ig *Service) resent(deviceID int64, p, latest *model.Position) bool {
	if latest == nil || p.Outdated || p.FixTime.After(latest.FixTime) || p.Attributes["alarm"] != nil {
		return false
	}
	if p.FixTime.Equal(latest.FixTime) && sameFix(p, latest) {
		return true
	}
	found := false
	err := ig.store.View(func(tx model.Tx) error {
		return tx.Positions(deviceID, p.FixTime, p.FixTime, func(q *model.Position) bool {
			found = sameFix(p, q)
			return !found
		})
	})
	return err == nil && found
}

// sameFix tells whether stored holds what the device sent as p: the same
// fix and every attribute the device sent (stored ones also have those the
// ingest added).
func sameFix(p, stored *model.Position) bool {
	if p.Latitude != stored.Latitude || p.Longitude != stored.Longitude || p.Speed != stored.Speed ||
		p.Course != stored.Course || p.Altitude != stored.Altitude || p.Valid != stored.Valid {
		return false
	}
	for k, v := range p.Attributes {
		if !sameValue(v, stored.Attributes[k]) {
			return false
		}
	}
	return true
}

// sameValue compares an attribute as a decoder made it with its stored
// form (numbers come back from JSON as float64).
func sameValue(a, b any) bool {
	x, aNum := model.Numeric(a)
	y, bNum := model.Numeric(b)
	if aNum || bNum {
		return aNum && bNum && x == y
	}
	return reflect.DeepEqual(a, b)
}

// acceptable applies the documented drop rules: coordinates off the globe
// (NaN included), fixes before 2000 or too far in the future. Other
// impossible values cost only their field (sanitize).
func (ig *Service) acceptable(p *model.Position, now time.Time) bool {
	if !(math.Abs(p.Latitude) <= 90) || !(math.Abs(p.Longitude) <= 180) {
		return false
	}
	if p.Outdated && p.FixTime.IsZero() {
		return true // location and time come from the last known position
	}
	return !p.FixTime.Before(model.EarliestFix) && !p.FixTime.After(now.Add(ig.opts.FutureLimit))
}

// enrich fills what the device did not send: the last known location for
// frames without one, distance and totalDistance (meters), motion and the
// geofences the position is in.
func (ig *Service) enrich(p, prev *model.Position, fences []*fence) {
	if p.Attributes == nil {
		p.Attributes = model.Attributes{}
	}
	if p.Outdated { // as Traccar: the last fix stands in, with its time
		if prev != nil {
			p.Latitude, p.Longitude, p.Altitude = prev.Latitude, prev.Longitude, prev.Altitude
			p.Valid, p.Accuracy, p.FixTime = prev.Valid, prev.Accuracy, prev.FixTime
		} else if p.FixTime.IsZero() {
			p.FixTime = p.ServerTime
		}
	}
	if p.DeviceTime.IsZero() {
		p.DeviceTime = p.FixTime
	}
	distance, total := 0.0, 0.0
	if prev != nil {
		total = model.Number(prev.Attributes["totalDistance"])
		if !p.FixTime.Before(prev.FixTime) && !p.Outdated {
			distance = geo.Distance(prev.Latitude, prev.Longitude, p.Latitude, p.Longitude)
		}
	}
	p.Attributes["distance"] = round2(distance)
	p.Attributes["totalDistance"] = round2(total + distance)
	// Engine hours go on from the last position's while the ignition
	// stays on, for devices that do not count them (Traccar's
	// EngineHoursHandler; a late fix adds nothing).
	if _, ok := p.Attributes["hours"]; !ok && prev != nil {
		hours := model.Number(prev.Attributes["hours"])
		if on, _ := p.Attributes["ignition"].(bool); on {
			if was, _ := prev.Attributes["ignition"].(bool); was && p.DeviceTime.After(prev.DeviceTime) {
				hours += float64(p.DeviceTime.Sub(prev.DeviceTime).Milliseconds())
			}
		}
		if hours != 0 {
			p.Attributes["hours"] = hours
		}
	}
	if _, ok := p.Attributes["motion"]; !ok {
		p.Attributes["motion"] = p.Speed > ig.opts.MotionSpeed
	}
	p.GeofenceIDs = nil
	for _, f := range fences {
		// A geofence with a calendar exists only while it is active.
		if (f.active == nil || f.active.Contains(p.FixTime)) && f.shape.Contains(p.Latitude, p.Longitude) {
			p.GeofenceIDs = append(p.GeofenceIDs, f.id)
		}
	}
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

type fence struct {
	id     int64
	shape  geo.Shape
	active *calendar.Calendar // nil: always
}

// deviceGeofences are the geofences linked to the device or to its group
// and the group's ancestors.
func (ig *Service) deviceGeofences(tx model.Tx, d *model.Device) ([]*fence, error) {
	geofences, err := access.DeviceObjects(tx, d, model.KindGeofence, tx.Geofences())
	if err != nil {
		return nil, err
	}
	var out []*fence
	for _, g := range geofences {
		shape, err := ig.shape(g.Area)
		if err != nil {
			continue
		}
		f := &fence{id: g.ID, shape: shape}
		if f.active, err = deviceCalendar(tx, g.CalendarID); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// deviceCalendar parses calendar id for one device's state: each device
// walks its calendars' occurrences in its own time order. No calendar, or
// one gone, is nil: always active.
func deviceCalendar(tx model.Tx, id int64) (*calendar.Calendar, error) {
	if id == 0 {
		return nil, nil
	}
	c, err := tx.Calendars().Get(id)
	if errors.Is(err, model.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cal, err := calendar.Parse(c.Data)
	if err != nil { // the fleet refuses such data: an older build's
		return nil, nil
	}
	return cal, nil
}

// shape parses a geofence area once; areas are few and change rarely, and
// the ingest checks them for every position.
func (ig *Service) shape(area string) (geo.Shape, error) {
	if s, ok := ig.shapes.Load(area); ok {
		return s.(geo.Shape), nil
	}
	s, err := geo.Parse(area)
	if err == nil {
		ig.shapes.Store(area, s)
	}
	return s, err
}
