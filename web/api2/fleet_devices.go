package api2

import (
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// installedDevice is a device as the extended API shows it (M3, M4): ids
// are strings and installation is the installation record's timestamp
// (null for a device registered through /api/devices).
type installedDevice struct {
	ID             model.TextID     `json:"id"`
	Name           string           `json:"name"`
	Installation   *time.Time       `json:"installation"`
	UniqueID       string           `json:"uniqueId"`
	Phone          string           `json:"phone"`
	Contact        string           `json:"contact"`
	Category       string           `json:"category"`
	Model          string           `json:"model"`
	GroupID        model.TextID     `json:"groupId"`
	Attributes     model.Attributes `json:"attributes"`
	ExpirationTime *time.Time       `json:"expirationTime"`
	InstalledBy    model.TextID     `json:"installedBy"`
	Location       string           `json:"location,omitempty"`
	Notes          string           `json:"notes,omitempty"`
	Message        string           `json:"message,omitempty"`
}

func showDevice(v *fleet.InstalledDevice) installedDevice {
	d := v.Device
	out := installedDevice{ID: model.TextID(d.ID), Name: d.Name, UniqueID: d.UniqueID, Phone: d.Phone,
		Contact: d.Contact, Category: d.Category, Model: d.Model, GroupID: model.TextID(d.GroupID),
		Attributes: d.Attributes, ExpirationTime: d.ExpirationTime}
	if i := v.Installation; i != nil {
		out.Installation, out.InstalledBy, out.Location, out.Notes = &i.InstalledAt, model.TextID(i.InstalledBy), i.Location, i.Notes
	}
	return out
}

// deviceListEntry is M1's shape.
type deviceListEntry struct {
	ID           model.TextID `json:"id"`
	Name         string       `json:"name"`
	Installation *time.Time   `json:"installation"`
}

// deviceBody is what M3 and M4 read; absent fields keep their value.
// expirationTime is not read: the service sets it.
type deviceBody struct {
	Name       *string           `json:"name"`
	UniqueID   *string           `json:"uniqueId"`
	Phone      *string           `json:"phone"`
	Contact    *string           `json:"contact"`
	Category   *string           `json:"category"`
	Model      *string           `json:"model"`
	GroupID    *model.TextID     `json:"groupId"`
	Attributes *model.Attributes `json:"attributes"`
	// Installation details (M3 only).
	Location string `json:"location"`
	Notes    string `json:"notes"`
}

func readDeviceBody(c *fiber.Ctx) (*deviceBody, error) {
	b := &deviceBody{}
	if err := httpx.DecodeJSON(c, b); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *deviceBody) apply(d *model.Device) error {
	for _, f := range []struct {
		from *string
		to   *string
	}{{b.Name, &d.Name}, {b.UniqueID, &d.UniqueID}, {b.Phone, &d.Phone}, {b.Contact, &d.Contact},
		{b.Category, &d.Category}, {b.Model, &d.Model}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if b.GroupID != nil {
		d.GroupID = int64(*b.GroupID)
	}
	if b.Attributes != nil {
		d.Attributes = *b.Attributes
	}
	return nil
}

// M1
func (h *handlers) listInstalled(c *fiber.Ctx) error {
	list, err := h.core.Fleet.InstalledDevices(httpx.User(c))
	if err != nil {
		return err
	}
	out := make([]deviceListEntry, len(list))
	for i, v := range list {
		out[i] = deviceListEntry{ID: model.TextID(v.Device.ID), Name: v.Device.Name}
		if v.Installation != nil {
			out[i].Installation = &v.Installation.InstalledAt
		}
	}
	return c.JSON(out)
}

// M3
func (h *handlers) installDevice(c *fiber.Ctx) error {
	b, err := readDeviceBody(c)
	if err != nil {
		return err
	}
	v, err := h.core.Fleet.InstallDevice(httpx.User(c), b.apply, fleet.InstallationDetails{Location: b.Location, Notes: b.Notes})
	if err != nil {
		return err
	}
	out := showDevice(v)
	out.Message = msgDeviceAdded
	return c.Status(fiber.StatusCreated).JSON(out)
}

// M4
func (h *handlers) updateInstalled(c *fiber.Ctx) error {
	id, err := pathID(c, "deviceId", "Device")
	if err != nil {
		return err
	}
	b, err := readDeviceBody(c)
	if err != nil {
		return err
	}
	v, err := h.core.Fleet.UpdateInstalledDevice(httpx.User(c), id, b.apply)
	if err != nil {
		return err
	}
	return c.JSON(showDevice(v))
}

// M5
func (h *handlers) deleteInstallation(c *fiber.Ctx) error {
	id, err := pathID(c, "deviceId", "Device")
	if err != nil {
		return err
	}
	if err := h.core.Fleet.DeleteInstallation(httpx.User(c), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// M6
func (h *handlers) checkIMEI(c *fiber.Ctx) error {
	taken, err := h.core.Fleet.UniqueIDTaken(c.Params("imei_number"))
	if err != nil {
		return err
	}
	if taken {
		return c.Status(fiber.StatusBadRequest).JSON(httpx.ErrorBody{Message: msgIMEITaken})
	}
	return c.JSON(httpx.ErrorBody{Message: msgIMEIFree})
}

// driverEntry is M2's list entry.
type driverEntry struct {
	ID         model.TextID     `json:"id"`
	Name       string           `json:"name"`
	Attributes model.Attributes `json:"attributes"`
}

// M2
func (h *handlers) deviceDrivers(c *fiber.Ctx) error {
	current, drivers, err := h.core.Fleet.DriverOverview(httpx.User(c))
	if err != nil {
		return err
	}
	out := struct {
		DriverID int64         `json:"driverId"`
		Drivers  []driverEntry `json:"drivers"`
	}{DriverID: current, Drivers: make([]driverEntry, len(drivers))}
	for i, d := range drivers {
		out.Drivers[i] = driverEntry{ID: model.TextID(d.ID), Name: d.Name, Attributes: d.Attributes}
	}
	return c.JSON(out)
}

// M7
func (h *handlers) lastStop(c *fiber.Ctx) error {
	id, err := pathID(c, "deviceId", "Device")
	if err != nil {
		return err
	}
	e, err := h.core.Fleet.LastStop(httpx.User(c), id)
	if err != nil {
		return err
	}
	return c.JSON(e)
}
