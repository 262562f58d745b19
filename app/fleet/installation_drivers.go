package fleet

import (
	"errors"
	"slices"

	"github.com/fleetd/fleetd/app/model"
)

// DriverOverview answers M2: the drivers the actor sees, and the id of the
// driver at the wheel of the actor's most recently updated device (0 when
// none): the driver whose uniqueId that device's latest position reports as
// driverUniqueId, else the lowest-id driver linked to the device. Only
// drivers in the returned list are ever named.
func (fl *Service) DriverOverview(actor *model.User) (int64, []*model.Driver, error) {
	drivers, err := fl.Drivers.List(actor, model.Query{})
	if err != nil {
		return 0, nil, err
	}
	devices, err := fl.Devices.List(actor, model.Query{})
	if err != nil {
		return 0, nil, err
	}
	var current *model.Device
	for _, d := range devices {
		if d.LastUpdate != nil && (current == nil || d.LastUpdate.After(*current.LastUpdate)) {
			current = d
		}
	}
	if current == nil {
		return 0, drivers, nil
	}
	var id int64
	err = fl.store.View(func(tx model.Tx) error {
		p, err := tx.LatestPosition(current.ID)
		if err != nil && !errors.Is(err, model.ErrNotFound) {
			return err
		}
		if p != nil {
			if tag, _ := p.Attributes["driverUniqueId"].(string); tag != "" {
				if i := slices.IndexFunc(drivers, func(d *model.Driver) bool { return d.UniqueID == tag }); i >= 0 {
					id = drivers[i].ID
					return nil
				}
			}
		}
		linked, err := tx.Linked(model.KindDevice, current.ID, model.KindDriver)
		slices.Sort(linked)
		for _, l := range linked {
			if slices.ContainsFunc(drivers, func(d *model.Driver) bool { return d.ID == l }) {
				id = l
				break
			}
		}
		return err
	})
	return id, drivers, err
}
