package fleet

import (
	"errors"
	"strings"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// InstallationDetails are the optional details a caller gives with M3.
type InstallationDetails struct {
	Location string
	Notes    string
}

// DeviceLifetime is how long after registration through M3 a device
// expires; the device endpoints never change it.
const DeviceLifetime = 1 // year

// deleteInstallation removes a device's installation record if it has one.
func deleteInstallation(tx model.Tx, deviceID int64) error {
	if err := tx.Fleet().Installations().Delete(deviceID); !errors.Is(err, model.ErrNotFound) {
		return err
	}
	return nil
}

// InstalledDevice is a device with its installation record (nil when it
// was registered another way, e.g. through /api/devices).
type InstalledDevice struct {
	Device       *model.Device
	Installation *model.Installation
}

// requireDeviceContact is the extended API's rule: name, uniqueId, phone
// and contact are required on create and update.
func requireDeviceContact(d *model.Device) error {
	return limits.Required(map[string]*string{"name": &d.Name, "uniqueId": &d.UniqueID, "phone": &d.Phone, "contact": &d.Contact})
}

// InstallDevice registers a device (the same one /api/devices shows, under
// the same rules: uniqueId, deviceLimit, link to the actor) and its
// installation record in one transaction. The device expires
// DeviceLifetime after now whatever apply set.
func (fl *Service) InstallDevice(actor *model.User, apply func(*model.Device) error, details InstallationDetails) (*InstalledDevice, error) {
	details.Location, details.Notes = strings.TrimSpace(details.Location), strings.TrimSpace(details.Notes)
	if err := limits.Check(&model.Installation{Location: details.Location, Notes: details.Notes}); err != nil {
		return nil, err
	}
	now := fl.now().UTC()
	out := &InstalledDevice{}
	d, err := fl.Devices.CreateWith(actor, func(d *model.Device) error {
		if err := apply(d); err != nil {
			return err
		}
		return requireDeviceContact(d)
	}, func(tx model.Tx, d *model.Device) error {
		expires := now.AddDate(DeviceLifetime, 0, 0)
		d.ExpirationTime = &expires
		if err := tx.Devices().Put(d); err != nil {
			return err
		}
		out.Installation = &model.Installation{DeviceID: d.ID, InstalledAt: now, InstalledBy: actor.ID,
			InstallerName: actor.Name, Location: details.Location, Notes: details.Notes}
		return tx.Fleet().Installations().Put(out.Installation)
	})
	if err != nil {
		return nil, err
	}
	out.Device = d
	return out, nil
}

// UpdateInstalledDevice changes a device through the extended API: apply
// may change anything but the expiration time, and the result must keep
// name, uniqueId, phone and contact.
func (fl *Service) UpdateInstalledDevice(actor *model.User, id int64, apply func(*model.Device) error) (*InstalledDevice, error) {
	d, err := fl.Devices.Update(actor, id, func(d *model.Device) error {
		expires := d.ExpirationTime
		if err := apply(d); err != nil {
			return err
		}
		d.ExpirationTime = expires
		return requireDeviceContact(d)
	})
	if err != nil {
		return nil, err
	}
	out := &InstalledDevice{Device: d}
	return out, fl.store.View(func(tx model.Tx) (err error) {
		out.Installation, err = installationOf(tx, id)
		return err
	})
}

// Installation is the installation record of a device the actor sees,
// nil when it has none.
func (fl *Service) Installation(actor *model.User, deviceID int64) (*model.Installation, error) {
	var inst *model.Installation
	err := fl.store.View(func(tx model.Tx) (err error) {
		if err = (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindDevice, deviceID); err != nil {
			return err
		}
		inst, err = installationOf(tx, deviceID)
		return err
	})
	return inst, err
}

// installationOf is the device's installation record, nil when it has none.
func installationOf(tx model.Tx, deviceID int64) (*model.Installation, error) {
	inst, err := tx.Fleet().Installations().Get(deviceID)
	if errors.Is(err, model.ErrNotFound) {
		return nil, nil
	}
	return inst, err
}

// InstalledDevices lists the devices the actor sees with their
// installation records, in id order.
func (fl *Service) InstalledDevices(actor *model.User) ([]InstalledDevice, error) {
	devices, err := fl.Devices.List(actor, model.Query{})
	if err != nil {
		return nil, err
	}
	out := make([]InstalledDevice, len(devices))
	return out, fl.store.View(func(tx model.Tx) error {
		for i, d := range devices {
			inst, err := installationOf(tx, d.ID)
			if err != nil {
				return err
			}
			out[i] = InstalledDevice{Device: d, Installation: inst}
		}
		return nil
	})
}

// DeleteInstallation removes only the device's installation record (M5);
// the device stays. A device without one is not found.
func (fl *Service) DeleteInstallation(actor *model.User, deviceID int64) error {
	return fl.store.As(actor).Update(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := model.FirstError(a.MustSee(model.KindDevice, deviceID), a.CheckEdit(model.KindDevice)); err != nil {
			return err
		}
		return tx.Fleet().Installations().Delete(deviceID)
	})
}

// UniqueIDTaken reports whether any device, whoever owns it, has uniqueID
// (M6). It says nothing about the owner.
func (fl *Service) UniqueIDTaken(uniqueID string) (bool, error) {
	uniqueID = strings.TrimSpace(uniqueID)
	if uniqueID == "" {
		return false, model.Invalid("an IMEI is required")
	}
	if err := limits.Text("IMEI", uniqueID, model.MaxUniqueID); err != nil {
		return false, err
	}
	var taken bool
	err := fl.store.View(func(tx model.Tx) error {
		_, err := tx.DeviceByUniqueID(uniqueID)
		taken = err == nil
		if errors.Is(err, model.ErrNotFound) {
			return nil
		}
		return err
	})
	return taken, err
}
