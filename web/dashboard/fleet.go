package dashboard

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/protocols"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) fleetRoutes() []route {
	return []route{
		{"GET", "/fleet", d.fleet},
		{"GET", "/fleet/devices/new", d.deviceNew},
		{"POST", "/fleet/devices", d.deviceCreate},
		{"GET", "/fleet/devices/:id/edit", d.deviceEdit},
		{"POST", "/fleet/devices/:id/edit", d.deviceUpdate},
		{"POST", "/fleet/devices/:id/delete", d.deviceDelete},
		{"GET", "/fleet/devices/:id/files/:name", d.deviceFile},
		{"GET", "/fleet/unknown", d.unknown},
		{"POST", "/fleet/unknown", d.unknownAdd},
	}
}

// fleetRow is one device of the fleet list with its last position.
type fleetRow struct {
	Device   *model.Device
	Group    string
	Position *model.Position
}

// fleetView is the fleet page: the filtered devices, what the live map
// starts from and the status counts over the whole fleet.
type fleetView struct {
	Query, Status string
	Devices       []*model.Device // every device the viewer sees, listed or not
	Rows          []fleetRow
	Live          []liveDevice
	Counts        map[string]int
	Total         int
	Tiles         mapTiles
	Now           time.Time
}

func (d *Dashboard) fleet(c *fiber.Ctx) error {
	v, err := d.loadFleet(user(c), c.Query("q"), c.Query("status"))
	if err != nil {
		return err
	}
	if hxTarget(c, "fleet-list") {
		return render(c, fiber.StatusOK, fleetList(v))
	}
	v.Tiles = d.tiles()
	return render(c, fiber.StatusOK, fleetPage(d.page(c, "Fleet", "fleet"), v))
}

func (d *Dashboard) loadFleet(actor *model.User, query, status string) (fleetView, error) {
	v := fleetView{Query: strings.TrimSpace(query), Status: status, Counts: map[string]int{}, Now: time.Now()}
	now, err := d.core.Fleet.FleetNow(actor)
	if err != nil {
		return v, err
	}
	groups, err := d.core.Fleet.Groups.List(actor, model.Query{})
	if err != nil {
		return v, err
	}
	groupName := make(map[int64]string, len(groups))
	for _, g := range groups {
		groupName[g.ID] = g.Name
	}
	needle := strings.ToLower(v.Query)
	for _, n := range now {
		dev := n.Device
		v.Devices = append(v.Devices, dev)
		v.Counts[dev.Status]++
		v.Total++
		text := strings.ToLower(dev.Name + "\n" + dev.UniqueID + "\n" + dev.Phone + "\n" + dev.Model)
		live := liveDevice{ID: dev.ID, Name: dev.Name, Status: dev.Status, LastUpdate: dev.LastUpdate}
		if strings.Contains(text, needle) && (status == "" || dev.Status == status) {
			row := fleetRow{Device: dev, Group: groupName[dev.GroupID], Position: n.Position}
			v.Rows = append(v.Rows, row)
			live.Listed, live.Position = true, newLivePosition(row.Position)
		}
		v.Live = append(v.Live, live)
	}
	return v, nil
}

// deviceForm is the device create/edit form with its choices. A new
// device can be registered with an installation record (the extended
// API's M3: phone and contact then required); an existing one shows its.
type deviceForm struct {
	Device       *model.Device
	Groups       []*model.Group
	Installation *model.Installation
	Install      bool
	Details      fleet.InstallationDetails
	Problem      string
	Connect      connectView
}

// connectView tells how to point a tracker at fleetd: the host and the
// shared port, and each protocol's port and SMS set-up, the device's own
// protocol (once it has reported) opened.
type connectView struct {
	Server   string
	AutoPort int
	Protocol string
	Trackers []protocols.Listener
}

func (d *Dashboard) deviceNew(c *fiber.Ctx) error {
	// The installation record is asked for, not assumed: it needs a SIM
	// phone number and a contact, which an owner adding a tracker may lack.
	f := deviceForm{Device: &model.Device{UniqueID: c.Query("uniqueId"), Name: c.Query("name")}}
	return d.renderDeviceForm(c, fiber.StatusOK, f, nil)
}

func (d *Dashboard) deviceEdit(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	dev, err := d.core.Fleet.Devices.Get(user(c), id)
	if err != nil {
		return err
	}
	return d.renderDeviceForm(c, fiber.StatusOK, deviceForm{Device: dev}, nil)
}

func (d *Dashboard) renderDeviceForm(c *fiber.Ctx, status int, f deviceForm, problem error) error {
	actor := user(c)
	groups, err := d.core.Fleet.Groups.List(actor, model.Query{})
	if err != nil {
		return err
	}
	title := "New device"
	if f.Device.ID != 0 {
		title = f.Device.Name
		if f.Installation, err = d.core.Fleet.Installation(actor, f.Device.ID); err != nil {
			return err
		}
	}
	f.Groups, f.Problem = groups, problemText(problem)
	f.Connect = connectView{Server: c.Hostname(), AutoPort: d.opts.AutoPort, Trackers: d.opts.Trackers}
	if f.Device.PositionID != 0 {
		latest, err := d.core.Fleet.Positions(actor, fleet.PositionQuery{IDs: []int64{f.Device.PositionID}})
		if err != nil {
			return err
		}
		if len(latest) > 0 {
			f.Connect.Protocol = latest[0].Protocol
		}
	}
	return render(c, status, devicePage(d.page(c, title, "fleet"), f))
}

func (d *Dashboard) deviceCreate(c *fiber.Ctx) error {
	f := deviceForm{Device: &model.Device{}, Install: c.FormValue("install") == "on",
		Details: fleet.InstallationDetails{Location: c.FormValue("installLocation"), Notes: c.FormValue("installNotes")}}
	apply := func(dev *model.Device) error {
		err := readDevice(c, dev)
		*f.Device = *dev
		return err
	}
	var err error
	if f.Install {
		_, err = d.core.Fleet.InstallDevice(user(c), apply, f.Details)
	} else {
		_, err = d.core.Fleet.Devices.Create(user(c), apply)
	}
	if err != nil {
		return d.formFailed(c, err, func(status int) error { return d.renderDeviceForm(c, status, f, err) })
	}
	return redirect(c, Prefix+"/fleet?q="+url.QueryEscape(f.Device.UniqueID))
}

func (d *Dashboard) deviceUpdate(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	var submitted model.Device
	_, err = d.core.Fleet.Devices.Update(user(c), id, func(dev *model.Device) error {
		err := readDevice(c, dev)
		submitted = *dev
		return err
	})
	if err != nil {
		return d.formFailed(c, err, func(status int) error {
			return d.renderDeviceForm(c, status, deviceForm{Device: &submitted}, err)
		})
	}
	return redirect(c, vehicleURL(id))
}

func (d *Dashboard) deviceDelete(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if err := d.core.Fleet.Devices.Delete(user(c), id); err != nil {
		return err
	}
	return redirect(c, Prefix+"/fleet")
}

// readDevice applies the device form's fields to dev.
func readDevice(c *fiber.Ctx, dev *model.Device) error {
	r := &formReader{c: c}
	dev.Name = r.text("name")
	dev.UniqueID = r.text("uniqueId")
	dev.Phone = r.text("phone")
	dev.Model = r.text("model")
	dev.Contact = r.text("contact")
	dev.Category = r.text("category")
	dev.Disabled = c.FormValue("disabled") == "on"
	dev.GroupID = r.id("groupId")
	return r.err
}

// formFailed re-renders a form with the problem when the core refused the
// input (400, 403, 404 are the caller's); anything else is an error page.
func (d *Dashboard) formFailed(c *fiber.Ctx, err error, again func(status int) error) error {
	switch model.ClassOf(err) {
	case model.ClassInvalid, model.ClassConflict:
		return again(fiber.StatusUnprocessableEntity)
	case model.ClassForbidden:
		return again(fiber.StatusForbidden)
	case model.ClassNoSpace: // what was typed stays in the form for a later try
		return again(fiber.StatusInsufficientStorage)
	}
	return err
}

// problemText is what a form shows for the core's refusal.
func problemText(err error) string {
	if err == nil {
		return ""
	}
	_, body := httpx.Classify(err)
	return body.Text()
}

// unknownView lists the devices that reported without being registered.
type unknownView struct {
	Devices []ingest.UnknownDevice
	Now     time.Time
}

func (d *Dashboard) unknown(c *fiber.Ctx) error {
	list, err := d.core.Ingest.UnknownDevices(user(c))
	if err != nil {
		return err
	}
	return render(c, fiber.StatusOK, unknownPage(d.page(c, "Unknown devices", "fleet"), unknownView{Devices: list, Now: time.Now()}))
}

// unknownAdd registers an unknown device under the name given.
func (d *Dashboard) unknownAdd(c *fiber.Ctx) error {
	uniqueID := strings.TrimSpace(c.FormValue("uniqueId"))
	list, err := d.core.Ingest.UnknownDevices(user(c)) // a registered id has left it
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(list, func(u ingest.UnknownDevice) bool { return u.UniqueID == uniqueID }) {
		return model.NotFound("Unknown device " + strconv.Quote(uniqueID))
	}
	return d.deviceCreate(c)
}
