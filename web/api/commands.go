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
// command waits in its queue. With groupId it goes to every device of the
// group the caller sees: as in Traccar, 202 with the queued commands when
// some wait, else 200 with the command.
func (h *handlers) sendCommand(c *fiber.Ctx) error {
	cmd := &model.Command{}
	if err := httpx.Decode(c, cmd); err != nil {
		return err
	}
	groupID, err := httpx.QueryID(c, "groupId")
	if err != nil {
		return err
	}
	if groupID != 0 {
		res, err := h.core.Ingest.SendCommandToGroup(httpx.User(c), cmd, groupID)
		if err != nil {
			return err
		}
		if len(res.Queued) > 0 {
			return c.Status(fiber.StatusAccepted).JSON(res.Queued)
		}
		return c.JSON(res.Sent[0])
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
