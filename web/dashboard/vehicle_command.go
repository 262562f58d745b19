package dashboard

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// commandView is the vehicle page's command card through its steps: pick
// a command, confirm it, see what became of it.
type commandView struct {
	DeviceID   int64
	DeviceName string
	// Types are the commands the device's protocol can encode.
	Types []option
	// Refused is why the viewer may not send commands ("" when allowed).
	Refused    string
	Type, Data string
	// Confirm asks whether to send Type; only a confirmed form sends.
	Confirm bool
	// Result is commandSent or commandQueued once the core took it.
	Result  string
	Problem string
}

const (
	commandSent   = "sent"
	commandQueued = "queued"
	customCommand = "custom" // its text is the attribute "data" (Traccar's)
)

// loadCommand finds whether the viewer may send the device commands (the
// core's rule: not read-only, commands not limited) and which.
func (d *Dashboard) loadCommand(actor *model.User, dev *model.Device) (commandView, error) {
	v := commandView{DeviceID: dev.ID, DeviceName: dev.Name}
	err := d.core.Ingest.CommandsAllowed(actor, dev.ID)
	if model.ClassOf(err) == model.ClassForbidden {
		v.Refused = problemText(err)
		return v, nil
	}
	if err != nil {
		return v, err
	}
	types, err := d.core.Ingest.CommandTypes(actor, dev.ID, "", false)
	for _, t := range types {
		v.Types = append(v.Types, option{t.Type, nameLabel(t.Type)})
	}
	return v, err
}

// vehicleCommand is the command form's action. Without confirm=yes it only
// asks for confirmation; with it, the core sends the command (or queues it
// for a tracker that is not connected). htmx asks for the card only.
func (d *Dashboard) vehicleCommand(c *fiber.Ctx) error {
	actor := user(c)
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	dev, err := d.core.Fleet.Devices.Get(actor, id)
	if err != nil {
		return err
	}
	v, err := d.loadCommand(actor, dev)
	if err != nil {
		return err
	}
	r := &formReader{c: c}
	v.Type, v.Data = r.text("type"), r.text("data")
	status := fiber.StatusOK
	switch {
	case v.Refused != "":
		status, v.Problem = fiber.StatusForbidden, v.Refused
	case v.Type == "":
		status, v.Problem = fiber.StatusUnprocessableEntity, "Choose a command."
	case c.FormValue("confirm") != "yes":
		v.Confirm = true
	default:
		cmd := &model.Command{DeviceID: dev.ID, Type: v.Type, Attributes: model.Attributes{}}
		if v.Type == customCommand {
			cmd.Attributes["data"] = v.Data
		}
		_, queued, err := d.core.Ingest.SendCommand(actor, cmd)
		switch {
		case err == nil && queued:
			v.Result = commandQueued
		case err == nil:
			v.Result = commandSent
		case model.ClassOf(err) == model.ClassInvalid:
			status, v.Problem = fiber.StatusUnprocessableEntity, problemText(err)
		default:
			return err
		}
	}
	p := d.page(c, dev.Name, "fleet")
	if hxTarget(c, "command") {
		return render(c, status, commandCard(p.CSRF, v))
	}
	page, err := d.loadVehicle(c)
	if err != nil {
		return err
	}
	page.Command = v
	return render(c, status, vehiclePage(p, page))
}
