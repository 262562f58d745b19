package ingest

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// RepairDevices makes every device record agree with the store after a
// crash. The ingest writes a device's positionId and lastUpdate lazily
// (state.go) and serve writes the rest on a clean stop, so a kill or a power
// cut leaves records behind their positions, and "online" with no
// connection left to end it. For each device it sets positionId and
// lastUpdate from the newest stored position (pointAt) and marks a device
// unknown that is online without a live connection and without a report
// since statusTimeout (onlineStale).
//
// serve runs it in the background once the listeners are up, so start-up
// does not wait for it. It goes through the devices in chunks, each a read
// transaction to find the stale records and a short write for those, so the
// ingest goes on meanwhile. The write looks again under the devices' ingest
// locks and leaves alone a device the ingest has taken up since the start:
// what it holds is newer than anything the repair could derive. It returns
// how many devices it changed.
func (ig *Service) RepairDevices(ctx context.Context, statusTimeout time.Duration) (int, error) {
	var ids []int64
	err := ig.store.View(func(tx model.Tx) error {
		return tx.Devices().List(func(d *model.Device) bool {
			ids = append(ids, d.ID)
			return true
		})
	})
	if err != nil {
		return 0, err
	}
	repaired := 0
	for chunk := range slices.Chunk(ids, reviseChunk) {
		if err := ctx.Err(); err != nil {
			return repaired, err
		}
		n, err := ig.repairChunk(chunk, ig.now().Add(-statusTimeout))
		repaired += n
		if err != nil {
			return repaired, err
		}
	}
	return repaired, nil
}

// repairChunk repairs the stale records among ids.
func (ig *Service) repairChunk(ids []int64, cutoff time.Time) (int, error) {
	stale, err := ig.staleDevices(ids, cutoff)
	if err != nil {
		return 0, err
	}
	return ig.reviseDevices(stale, func(tx model.Tx, d, cached *model.Device) (bool, *model.Event, error) {
		if cached != nil {
			return false, nil, nil
		}
		return ig.repairDevice(tx, d, cutoff)
	})
}

// staleDevices are those of ids whose stored record repairDevice changes.
func (ig *Service) staleDevices(ids []int64, cutoff time.Time) ([]int64, error) {
	var stale []int64
	err := ig.store.View(func(tx model.Tx) error {
		for _, id := range ids {
			d, err := tx.Devices().Get(id)
			if errors.Is(err, model.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			changed, err := fleet.PointAtLatest(tx, d)
			if err != nil {
				return err
			}
			if changed || onlineStale(d, ig.liveConn(id) != nil, cutoff) {
				stale = append(stale, id)
			}
		}
		return nil
	})
	return stale, err
}

// repairDevice points d at its newest stored position and ends an "online"
// that nothing holds up any more.
func (ig *Service) repairDevice(tx model.Tx, d *model.Device, cutoff time.Time) (bool, *model.Event, error) {
	changed, err := fleet.PointAtLatest(tx, d)
	if err != nil || !onlineStale(d, ig.liveConn(d.ID) != nil, cutoff) {
		return changed, nil, err
	}
	ev, err := changeStatus(tx, d, model.StatusUnknown, ig.now().UTC())
	return err == nil, ev, err
}
