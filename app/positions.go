package app

import (
	"errors"
	"time"
)

// PositionQuery is D1's query: no fields means the latest position of every
// device the actor sees.
type PositionQuery struct {
	DeviceID int64
	From, To time.Time
	IDs      []int64
}

// Positions implements D1.
func (c *Core) Positions(actor *User, q PositionQuery) ([]*Position, error) {
	out := []*Position{}
	err := c.store.View(func(tx Tx) error {
		a := access{tx: tx, actor: actor}
		switch {
		case q.DeviceID != 0:
			if err := checkRange(q.From, q.To); err != nil {
				return err
			}
			if err := a.mustSee(KindDevice, q.DeviceID); err != nil {
				return err
			}
			return tx.Positions(q.DeviceID, q.From, q.To, func(p *Position) bool {
				out = append(out, p)
				return true
			})
		case len(q.IDs) > 0:
			for _, id := range q.IDs {
				p, err := tx.Position(id)
				if err == nil {
					err = a.mustSee(KindDevice, p.DeviceID)
				}
				if err != nil {
					return err
				}
				out = append(out, p)
			}
			return nil
		default:
			return c.eachVisibleDevice(a, func(d *Device) error {
				p, err := tx.LatestPosition(d.ID)
				if errors.Is(err, ErrNotFound) {
					return nil
				}
				if err == nil {
					out = append(out, p)
				}
				return err
			})
		}
	})
	return out, err
}

// DeletePositions implements D2: removes a device's positions in [from, to]
// and repoints the device at its newest remaining position.
func (c *Core) DeletePositions(actor *User, deviceID int64, from, to time.Time) error {
	if deviceID == 0 {
		return Invalid("deviceId, from and to are required")
	}
	if err := checkRange(from, to); err != nil {
		return err
	}
	defer c.forgetState(deviceID) // its latest position may be gone
	return c.store.Update(func(tx Tx) error {
		a := access{tx: tx, actor: actor}
		if err := a.mustSee(KindDevice, deviceID); err != nil {
			return err
		}
		if err := a.checkEdit(KindDevice); err != nil {
			return err
		}
		if _, err := tx.DeletePositions(deviceID, from, to); err != nil {
			return err
		}
		d, err := tx.Devices().Get(deviceID)
		if err != nil {
			return err
		}
		latest, err := tx.LatestPosition(deviceID)
		switch {
		case errors.Is(err, ErrNotFound):
			d.PositionID = 0
		case err != nil:
			return err
		default:
			d.PositionID = latest.ID
		}
		return tx.Devices().Put(d)
	})
}

func checkRange(from, to time.Time) error {
	if from.IsZero() || to.IsZero() {
		return Invalid("from and to are required")
	}
	if to.Before(from) {
		return Invalid("to must not be before from")
	}
	return nil
}

// eachVisibleDevice calls fn for every device the actor sees, in id order.
func (c *Core) eachVisibleDevice(a access, fn func(*Device) error) error {
	var set map[int64]bool
	if !a.actor.Administrator {
		var err error
		if set, err = a.visible(KindDevice); err != nil {
			return err
		}
	}
	var ferr error
	err := a.tx.Devices().List(func(d *Device) bool {
		if set == nil || set[d.ID] {
			ferr = fn(d)
		}
		return ferr == nil
	})
	return firstErr(err, ferr)
}

// Event implements E1: one event of a device the actor sees.
func (c *Core) Event(actor *User, id int64) (*Event, error) {
	var e *Event
	err := c.store.View(func(tx Tx) (err error) {
		if e, err = tx.Event(id); err != nil {
			return err
		}
		return access{tx: tx, actor: actor}.mustSee(KindDevice, e.DeviceID)
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}
