package ingest

import (
	"errors"
	"maps"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// Accumulators are Traccar's DeviceAccumulators: the counters a user may
// set on a device (a new vehicle's odometer, engine hours after a
// repair). Nil leaves a counter as it is.
type Accumulators struct {
	DeviceID      int64    `json:"deviceId"`
	TotalDistance *float64 `json:"totalDistance"` // meters
	Hours         *float64 `json:"hours"`         // milliseconds
}

// SetAccumulators stores a copy of the device's latest position with the
// counters set, as its new latest, as Traccar does: the next positions
// count on from there. A device without a position has nothing to copy
// (400, as in Traccar).
func (ig *Service) SetAccumulators(actor *model.User, acc Accumulators) error {
	for _, v := range []*float64{acc.TotalDistance, acc.Hours} {
		if v != nil && !(*v >= 0 && *v < 1e15) {
			return model.Invalid("totalDistance and hours must be numbers not below 0")
		}
	}
	st := ig.state(acc.DeviceID)
	st.mu.Lock()
	u, err := ig.setAccumulators(st, actor, acc)
	st.mu.Unlock()
	if err == nil {
		ig.hub.Publish(acc.DeviceID, u)
	}
	return err
}

func (ig *Service) setAccumulators(st *deviceState, actor *model.User, acc Accumulators) (live.Update, error) {
	// Access first: the state of a device the caller may not see is not
	// read, nor its existence told.
	err := ig.store.View(func(tx model.Tx) error {
		return access.Guard{Tx: tx, Actor: actor}.MayEdit(model.KindDevice, acc.DeviceID)
	})
	if err == nil {
		err = ig.loadState(st, acc.DeviceID)
	}
	if errors.Is(err, model.ErrNotFound) {
		return live.Update{}, model.NotFound("Device")
	}
	if err != nil {
		return live.Update{}, err
	}
	if st.latest == nil {
		return live.Update{}, model.Invalid("the device has no position to set its counters on")
	}
	p := *st.latest
	p.ID, p.ServerTime = 0, ig.now().UTC()
	p.Attributes = maps.Clone(p.Attributes)
	if acc.TotalDistance != nil {
		p.Attributes["totalDistance"] = *acc.TotalDistance
	}
	if acc.Hours != nil {
		p.Attributes["hours"] = *acc.Hours
	}
	var d *model.Device
	err = ig.store.As(actor).Update(func(tx model.Tx) (err error) {
		if err := (access.Guard{Tx: tx, Actor: actor}).MayEdit(model.KindDevice, acc.DeviceID); err != nil {
			return err
		}
		if err := tx.AddPosition(&p); err != nil {
			return err
		}
		if d, err = tx.Devices().Get(acc.DeviceID); err != nil {
			return err
		}
		d.PositionID = p.ID
		return tx.Devices().Put(d)
	})
	if err != nil {
		return live.Update{}, err
	}
	st.latest = &p
	st.device = st.applied(&p, time.Time{}) // lastUpdate stays: the device did not report
	return live.Update{Devices: []*model.Device{st.device}, Positions: []*model.Position{&p}}, nil
}
