package ingest

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
)

// devicePersistInterval bounds how stale a device's stored positionId and
// lastUpdate may be: the ingest writes the device record when its status
// changes and otherwise at most this often, not for every position (a
// record per position would double the pages each commit writes). Reads
// through the core see the live values (liveDevice), and serve flushes
// every device on shutdown (FlushDevices).
const devicePersistInterval = time.Minute

// deviceState is what the ingest keeps per device between positions, so
// the store's single writer only writes: the device record, its latest
// position, and the geofences, computed attributes and maintenance
// reminders that apply to it.
type deviceState struct {
	mu        sync.Mutex // serialises the device's ingest
	loaded    bool
	gen       uint64 // configGen when the configuration was read
	device    *model.Device
	latest    *model.Position
	fences    []*fence
	computed  []*model.ComputedAttribute
	reminders []*model.Maintenance
	// settings are the attributes that configure the device's events
	// (speedLimit, fuelDropThreshold...), looked up as Traccar's
	// AttributeUtil does: the device's, then its groups', then the
	// server's.
	settings  model.Attributes
	persisted time.Time // when the ingest last wrote the device record
	dirty     bool      // device holds positionId/lastUpdate not stored yet
}

// state returns the device's state entry, creating an empty one.
func (ig *Service) state(deviceID int64) *deviceState {
	if st, ok := ig.states.Load(deviceID); ok {
		return st.(*deviceState)
	}
	st, _ := ig.states.LoadOrStore(deviceID, &deviceState{})
	return st.(*deviceState)
}

// loadState (re)reads the device's configuration and latest position when
// the state is new or devices, groups, geofences, attributes or
// permissions changed since (configGen). Call with st.mu held.
func (ig *Service) loadState(st *deviceState, deviceID int64) error {
	gen := ig.configGen.Load()
	if st.loaded && st.gen == gen {
		return nil
	}
	err := ig.store.View(func(tx model.Tx) error {
		d, err := tx.Devices().Get(deviceID)
		if err != nil {
			return err
		}
		latest, err := tx.LatestPosition(deviceID)
		if errors.Is(err, model.ErrNotFound) {
			latest, err = nil, nil
		}
		if err != nil {
			return err
		}
		fences, err := ig.deviceGeofences(tx, d)
		if err != nil {
			return err
		}
		computed, err := fleet.DeviceComputed(tx, d)
		if err != nil {
			return err
		}
		reminders, err := access.DeviceObjects(tx, d, model.KindMaintenance, tx.Maintenances())
		if err != nil {
			return err
		}
		settings, err := deviceSettings(tx, d)
		if err != nil {
			return err
		}
		st.settings = settings
		if st.persisted.IsZero() {
			st.persisted = ig.now()
		}
		fleet.PointAt(d, latest)
		st.device, st.latest, st.fences, st.computed, st.reminders = d, latest, fences, computed, reminders
		return nil
	})
	if err != nil {
		st.loaded = false
		return err
	}
	st.loaded, st.gen = true, gen
	return nil
}

// onlineStale says whether a device shown online has lost the right to
// be: it has no live connection and has not reported since cutoff, or
// never (a crash leaves "online" behind with no connection left to end it).
func onlineStale(d *model.Device, connected bool, cutoff time.Time) bool {
	return d.Status == model.StatusOnline && !connected && (d.LastUpdate == nil || d.LastUpdate.Before(cutoff))
}

// apply sets the ingest-owned fields of d: positionId of the latest
// position and lastUpdate.
func (st *deviceState) apply(d *model.Device, latest *model.Position, at time.Time) {
	if latest != nil {
		d.PositionID = latest.ID
	}
	if !at.IsZero() {
		t := at
		d.LastUpdate = &t
	}
}

// applied is a copy of the cached device with the ingest-owned fields set:
// the cached device is shared with readers, so it is replaced, not changed.
func (st *deviceState) applied(latest *model.Position, at time.Time) *model.Device {
	d := *st.device
	st.apply(&d, latest, at)
	return &d
}

// forgetState drops a device's cached state (its positions were deleted,
// or the device itself), so the next ingest reads it from the store.
func (ig *Service) forgetState(deviceID int64) {
	v, ok := ig.states.Load(deviceID)
	if !ok {
		return
	}
	st := v.(*deviceState)
	st.mu.Lock()
	st.loaded = false
	st.mu.Unlock()
}

// liveDevice overlays the ingest's live fields (status, positionId,
// lastUpdate) on a device read from the store.
func (ig *Service) liveDevice(d *model.Device) {
	v, ok := ig.states.Load(d.ID)
	if !ok {
		return
	}
	st := v.(*deviceState)
	st.mu.Lock()
	if st.loaded {
		d.Status, d.PositionID, d.LastUpdate = st.device.Status, st.device.PositionID, st.device.LastUpdate
	}
	st.mu.Unlock()
}

// FlushDevices writes every device's live positionId and lastUpdate that
// the ingest has not stored yet; serve calls it on shutdown.
func (ig *Service) FlushDevices() error {
	var dirty []*model.Device
	ig.states.Range(func(_, v any) bool {
		st := v.(*deviceState)
		st.mu.Lock()
		if st.loaded && st.dirty {
			dirty = append(dirty, st.device)
			st.dirty = false // a failed flush is logged; the next ingest writes again within a minute
		}
		st.mu.Unlock()
		return true
	})
	if len(dirty) == 0 {
		return nil
	}
	return ig.store.Update(func(tx model.Tx) error {
		for _, live := range dirty {
			d, err := tx.Devices().Get(live.ID)
			if errors.Is(err, model.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			d.PositionID, d.LastUpdate = live.PositionID, live.LastUpdate
			if err := tx.Devices().Put(d); err != nil {
				return err
			}
		}
		return nil
	})
}

// reviseChunk bounds the devices one reviseDevices transaction changes, so
// that the single writer is never held for long: the ingest's commits go on
// in between.
const reviseChunk = 500

// revision changes the stored record d inside reviseDevices' transaction;
// cached is the ingest's live copy of the device, nil when it holds none.
// It reports whether it changed d, and the status event it stored if any.
type revision func(tx model.Tx, d, cached *model.Device) (changed bool, ev *model.Event, err error)

// reviseDevices applies revise to the stored records of ids, at most
// reviseChunk to a transaction, and returns how many it changed. It holds
// the devices' ingest locks meanwhile, so no ingest of theirs is half done
// and a status it sets reaches the cached state too. The locks are taken in
// id order before the transaction, never inside one (a commit that must
// grow the file waits for the readers), and no other code holds two.
// Devices deleted meanwhile are skipped.
func (ig *Service) reviseDevices(ids []int64, revise revision) (int, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	n := 0
	for chunk := range slices.Chunk(ids, reviseChunk) {
		k, err := ig.reviseChunk(chunk, revise)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (ig *Service) reviseChunk(ids []int64, revise revision) (int, error) {
	updates, err := ig.reviseLocked(ids, revise)
	for _, u := range updates { // once the devices' locks are released
		ig.hub.Publish(u.Devices[0].ID, u)
	}
	return len(updates), err
}

// reviseLocked revises the devices under their ingest locks and returns
// the updates to publish.
func (ig *Service) reviseLocked(ids []int64, revise revision) ([]live.Update, error) {
	states := make([]*deviceState, len(ids))
	for i, id := range ids {
		states[i] = ig.state(id)
		states[i].mu.Lock()
	}
	defer func() {
		for _, st := range states {
			st.mu.Unlock()
		}
	}()
	type revised struct {
		st *deviceState
		d  *model.Device
		ev *model.Event
	}
	var done []revised
	err := ig.store.Batch(func(tx model.Tx) error {
		done = done[:0] // Batch may run this more than once
		for i, id := range ids {
			d, err := tx.Devices().Get(id)
			if errors.Is(err, model.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			var cached *model.Device
			if states[i].loaded {
				cached = states[i].device
			}
			changed, ev, err := revise(tx, d, cached)
			if err != nil {
				return err
			}
			if changed {
				if err := tx.Devices().Put(d); err != nil {
					return err
				}
				done = append(done, revised{states[i], d, ev})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	updates := make([]live.Update, 0, len(done))
	for _, r := range done {
		u := live.Update{Devices: []*model.Device{r.d}}
		if r.st.loaded { // readers see the cache: its status moves with the record
			cached := *r.st.device
			cached.Status = r.d.Status
			r.st.device = &cached
			u.Devices[0] = r.st.device
		}
		if r.ev != nil {
			u.Events = []*model.Event{r.ev}
		}
		updates = append(updates, u)
	}
	return updates, nil
}

// eventSettings are the attributes deviceSettings collects.
var eventSettings = []string{"speedLimit", "fuelDropThreshold", "fuelIncreaseThreshold"}

// deviceSettings looks eventSettings up for d: its own attributes, then
// its group's and the group's ancestors', then the server's.
func deviceSettings(tx model.Tx, d *model.Device) (model.Attributes, error) {
	levels := []model.Attributes{d.Attributes}
	for g, hops := d.GroupID, 0; g != 0 && hops < 100; hops++ {
		group, err := tx.Groups().Get(g)
		if errors.Is(err, model.ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		levels = append(levels, group.Attributes)
		g = group.GroupID
	}
	s, err := tx.Server()
	if err == nil {
		levels = append(levels, s.Attributes)
	} else if !errors.Is(err, model.ErrNotFound) {
		return nil, err
	}
	out := model.Attributes{}
	for _, key := range eventSettings {
		for _, attrs := range levels {
			if v, ok := attrs[key]; ok {
				out[key] = v
				break
			}
		}
	}
	return out, nil
}
