package api

import (
	"github.com/fleetd/fleetd/app/inbox"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// listSendable is B5: the saved commands the device can be sent.
func (h *handlers) listSendable(c *fiber.Ctx) error {
	deviceID, err := httpx.QueryID(c, "deviceId")
	if err != nil {
		return err
	}
	if deviceID == 0 {
		return model.Invalid("deviceId is required")
	}
	cmds, err := h.core.Ingest.SendableCommands(httpx.User(c), deviceID)
	return send(c, cmds, err)
}

// sendCommand is B6: 200 with the command when it was written to the
// device's connection, 202 with it when the device is offline and the
// command waits in its queue.
func (h *handlers) sendCommand(c *fiber.Ctx) error {
	cmd := &model.Command{}
	if err := httpx.Decode(c, cmd); err != nil {
		return err
	}
	sent, queued, err := h.core.Ingest.SendCommand(httpx.User(c), cmd)
	if err != nil {
		return err
	}
	if queued {
		c.Status(fiber.StatusAccepted)
	}
	return c.JSON(sent)
}

// commandTypes is B7.
func (h *handlers) commandTypes(c *fiber.Ctx) error {
	deviceID, err := httpx.QueryID(c, "deviceId")
	if err != nil {
		return err
	}
	textChannel, err := httpx.QueryBool(c, "textChannel")
	if err != nil {
		return err
	}
	types, err := h.core.Ingest.CommandTypes(httpx.User(c), deviceID, c.Query("protocol"), textChannel)
	return send(c, types, err)
}

// unknownDevices lists ids that reported without being registered, so an
// administrator can add them.
func (h *handlers) unknownDevices(c *fiber.Ctx) error {
	list, err := h.core.Ingest.UnknownDevices(httpx.User(c))
	return send(c, list, err)
}

// rawFrames lists the raw-frame inbox: frames the listeners could not use.
func (h *handlers) rawFrames(c *fiber.Ctx) error {
	f := inbox.Filter{UniqueID: c.Query("uniqueId"), Protocol: c.Query("protocol"), Limit: 200}
	deviceID, err := httpx.QueryID(c, "deviceId")
	if err != nil {
		return err
	}
	limit, err := httpx.QueryID(c, "limit")
	if err != nil {
		return err
	}
	f.DeviceID = deviceID
	if limit > 0 {
		f.Limit = int(limit)
	}
	list, err := h.core.Ingest.Frames(httpx.User(c), f)
	return send(c, list, err)
}
