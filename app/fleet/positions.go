package fleet

import (
	"errors"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// PositionQuery is D1's query: no fields means the latest position of every
// device the actor sees.
type PositionQuery struct {
	DeviceID int64
	From, To time.Time
	IDs      []int64
}

// Positions implements D1 as a list. The API streams a device's range
// through PositionHistory instead.
func (fl *Service) Positions(actor *model.User, q PositionQuery) ([]*model.Position, error) {
	out := []*model.Position{}
	if q.DeviceID != 0 {
		h, err := fl.PositionHistory(actor, q.DeviceID, q.From, q.To)
		if err != nil {
			return nil, err
		}
		err = h.Each(func(p *model.Position) error {
			out = append(out, p)
			return nil
		})
		return out, err
	}
	if len(q.IDs) == 0 { // the latest position of every device the actor sees
		now, err := fl.FleetNow(actor)
		for _, n := range now {
			if n.Position != nil {
				out = append(out, n.Position)
			}
		}
		return out, err
	}
	err := fl.store.View(func(tx model.Tx) error {
		devices := make([]int64, 0, len(q.IDs))
		for _, id := range q.IDs {
			p, err := tx.Position(id)
			if err != nil {
				return err
			}
			out = append(out, p)
			devices = append(devices, p.DeviceID)
		}
		err := access.Guard{Tx: tx, Actor: actor}.MustSeeDevices(devices)
		if model.ClassOf(err) == model.ClassNotFound {
			// as for an id that does not exist: ids cannot be probed
			return model.NotFound("position")
		}
		return err
	})
	return out, err
}

// historyChunk is how many positions one read transaction of a History
// reads. A read transaction held while a slow client downloads would keep
// the store file from growing, and so stall ingest; between chunks none is
// open.
const historyChunk = 1000

// History is a device's positions in a time range (D1 with deviceId),
// read in chunks so that a route of any length takes constant memory.
type History struct {
	store    model.Store
	actor    *model.User
	deviceID int64
	from, to time.Time
}

// PositionHistory checks D1's range query: the range, and that the actor
// sees the device. The positions are read by Each.
func (fl *Service) PositionHistory(actor *model.User, deviceID int64, from, to time.Time) (*History, error) {
	if err := checkRange(from, to); err != nil {
		return nil, err
	}
	err := fl.store.View(func(tx model.Tx) error { return access.Guard{Tx: tx, Actor: actor}.MustSee(model.KindDevice, deviceID) })
	if err != nil {
		return nil, err
	}
	return &History{store: fl.store, actor: actor, deviceID: deviceID, from: from, to: to}, nil
}

// Each calls fn with the positions in fixTime order until fn fails. Every
// chunk checks again that the actor sees the device, so access revoked
// during a long download ends it.
func (h *History) Each(fn func(*model.Position) error) error {
	var last *model.Position
	for {
		chunk := make([]*model.Position, 0, historyChunk)
		collect := func(p *model.Position) bool {
			chunk = append(chunk, p)
			return len(chunk) < historyChunk
		}
		err := h.store.View(func(tx model.Tx) error {
			if err := (access.Guard{Tx: tx, Actor: h.actor}).MustSee(model.KindDevice, h.deviceID); err != nil {
				return err
			}
			if last == nil {
				return tx.Positions(h.deviceID, h.from, h.to, collect)
			}
			return tx.PositionsAfter(last, h.to, collect)
		})
		if err != nil {
			return err
		}
		for _, p := range chunk {
			if err := fn(p); err != nil {
				return err
			}
		}
		if len(chunk) < historyChunk {
			return nil
		}
		last = chunk[len(chunk)-1]
	}
}

// DeletePositions implements D2: removes a device's positions in [from, to]
// and repoints the device at its newest remaining position.
func (fl *Service) DeletePositions(actor *model.User, deviceID int64, from, to time.Time) error {
	if deviceID == 0 {
		return model.Invalid("deviceId, from and to are required")
	}
	if err := checkRange(from, to); err != nil {
		return err
	}
	mayDelete := func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.MustSee(model.KindDevice, deviceID); err != nil {
			return err
		}
		return a.CheckEdit(model.KindDevice)
	}
	// Access first: a refused request must not even drop the live state
	// (its positionId and lastUpdate may not be stored yet).
	if err := fl.store.View(mayDelete); err != nil {
		return err
	}
	defer fl.hooks.HistoryChanged(deviceID) // its latest position may be gone
	for n := deleteChunk; n == deleteChunk; {
		err := fl.store.As(actor).Update(func(tx model.Tx) (err error) {
			if err := mayDelete(tx); err != nil { // rights may change between chunks
				return err
			}
			n, err = tx.DeletePositions(deviceID, from, to, deleteChunk)
			return err
		})
		if err != nil {
			return err
		}
	}
	// In a transaction of its own: finding the newest position right after
	// deleting the newest ones is slow in the deleting transaction (see
	// storage's lastKey).
	return fl.store.As(actor).Update(func(tx model.Tx) error { return repointDevice(tx, deviceID) })
}

// deleteChunk is how many records one transaction of a bulk deletion
// removes, as for retention: the ingest's commits go on in between.
// DefaultRetentionChunk is how many records one retention transaction
// deletes at most: small enough that the ingest's group commits, which
// wait for the single bbolt writer, are held up for milliseconds only.
const DefaultRetentionChunk = 500

const deleteChunk = DefaultRetentionChunk

// drainHistory deletes a chunk of a device's positions, then of its
// events, and reports whether none is left.
func drainHistory(tx model.Tx, deviceID int64) (done bool, err error) {
	n, err := tx.DeletePositions(deviceID, time.Time{}, endOfTime, deleteChunk)
	if err != nil || n == deleteChunk {
		return false, err
	}
	n, err = tx.DeleteEvents(deviceID, deleteChunk)
	return n < deleteChunk, err
}

// repointDevice points the device at its newest remaining position.
func repointDevice(tx model.Tx, deviceID int64) error {
	d, err := tx.Devices().Get(deviceID)
	if err != nil {
		return err
	}
	if _, err := PointAtLatest(tx, d); err != nil {
		return err
	}
	return tx.Devices().Put(d)
}

func checkRange(from, to time.Time) error {
	if from.IsZero() || to.IsZero() {
		return model.Invalid("from and to are required")
	}
	if to.Before(from) {
		return model.Invalid("to must not be before from")
	}
	return nil
}

// Event implements E1: one event of a device the actor sees.
func (fl *Service) Event(actor *model.User, id int64) (*model.Event, error) {
	var e *model.Event
	err := fl.store.View(func(tx model.Tx) (err error) {
		if e, err = tx.Event(id); err != nil {
			return err
		}
		return access.Guard{Tx: tx, Actor: actor}.MustSee(model.KindDevice, e.DeviceID)
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// PointAt sets d's ingest-owned fields from the store: positionId of its
// newest stored position (0 without one), and lastUpdate no earlier than
// that position's arrival. The record is written lazily (devicePersistInterval)
// and a crash loses what was not written yet, so the positions are the
// better witness; a later stored lastUpdate stays (a late fix or a dropped
// position is a report too). It says whether anything changed.
func PointAt(d *model.Device, latest *model.Position) bool {
	id, at := int64(0), d.LastUpdate
	if latest != nil {
		id = latest.ID
		if t := latest.ServerTime; !t.IsZero() && (at == nil || t.After(*at)) {
			at = &t
		}
	}
	changed := d.PositionID != id || at != d.LastUpdate
	d.PositionID, d.LastUpdate = id, at
	return changed
}

// PointAtLatest is pointAt with the device's newest position read in tx.
func PointAtLatest(tx model.Tx, d *model.Device) (bool, error) {
	latest, err := tx.LatestPosition(d.ID)
	if errors.Is(err, model.ErrNotFound) {
		latest, err = nil, nil
	}
	if err != nil {
		return false, err
	}
	return PointAt(d, latest), nil
}

// DeviceNow is a device the actor sees, completed as the device list
// completes it, with its latest position (nil before its first).
type DeviceNow struct {
	Device   *model.Device
	Position *model.Position
}

// FleetNow lists every device the actor sees with its latest position, in
// id order: what Devices.List and the latest Positions give, in one read
// of the fleet, for pages that show both (each read decodes every device
// record; at 500 vehicles that was most of a page's time).
func (fl *Service) FleetNow(actor *model.User) ([]DeviceNow, error) {
	var out []DeviceNow
	err := fl.store.View(func(tx model.Tx) error {
		return access.Guard{Tx: tx, Actor: actor}.EachDevice(func(d *model.Device) error {
			p, err := tx.LatestPosition(d.ID)
			if errors.Is(err, model.ErrNotFound) {
				p, err = nil, nil
			}
			out = append(out, DeviceNow{Device: d, Position: p})
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	for _, n := range out {
		fl.Devices.complete(n.Device)
	}
	return out, nil
}
