package dashboard

import (
	"strconv"
	"time"

	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) frameRoutes() []route {
	return []route{
		{"GET", "/fleet/frames", d.frames},
		{"POST", "/fleet/frames/checksum", d.waiveChecksum},
	}
}

// framesView is the raw-frame inbox: "What my trackers send".
type framesView struct {
	Frames []frameRow
	Device *model.Device // the device the list is narrowed to, if any
	Now    time.Time
}

// frameRow is a kept frame with the name of its device, and whether the
// page may offer to accept the device's checksums.
type frameRow struct {
	inbox.Frame
	DeviceName    string
	OfferChecksum bool
}

// frames lists the frames the listeners could not use, newest first; with
// ?device= those of one device.
func (d *Dashboard) frames(c *fiber.Ctx) error {
	u := user(c)
	deviceID, err := httpx.QueryID(c, "device")
	if err != nil {
		return err
	}
	list, err := d.core.Ingest.Frames(u, inbox.Filter{DeviceID: deviceID, Limit: 500})
	if err != nil {
		return err
	}
	devices, err := d.core.Fleet.Devices.List(u, model.Query{})
	if err != nil {
		return err
	}
	byID := make(map[int64]*model.Device, len(devices))
	for _, dev := range devices {
		byID[dev.ID] = dev
	}
	v := framesView{Device: byID[deviceID], Now: time.Now()}
	for _, f := range list {
		row := frameRow{Frame: f}
		if dev := byID[f.DeviceID]; dev != nil {
			row.DeviceName = dev.Name
			row.OfferChecksum = f.Reason == inbox.ChecksumMismatch && !ingest.ChecksumWaived(dev)
		}
		v.Frames = append(v.Frames, row)
	}
	return render(c, fiber.StatusOK, framesPage(d.page(c, "What my trackers send", "fleet"), v))
}

// waiveChecksum marks a device whose firmware computes wrong checksums, so
// its frames are taken.
func (d *Dashboard) waiveChecksum(c *fiber.Ctx) error {
	id, err := strconv.ParseInt(c.FormValue("deviceId"), 10, 64)
	if err != nil {
		return model.Invalid("deviceId must be a device id")
	}
	if _, err := d.core.Ingest.WaiveChecksum(user(c), id); err != nil {
		return err
	}
	return redirect(c, Prefix+"/fleet/frames?device="+strconv.FormatInt(id, 10))
}
