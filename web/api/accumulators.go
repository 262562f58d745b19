package api

import (
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// setAccumulators sets a device's totalDistance and hours. Traccar reads
// the device from the body's deviceId; the path's id is the device here,
// and a body naming another is refused.
func (h *handlers) setAccumulators(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	acc := ingest.Accumulators{DeviceID: id}
	if err := httpx.Decode(c, &acc); err != nil {
		return err
	}
	if acc.DeviceID != id {
		return model.Invalid("deviceId %d in the body is not the path's device %d", acc.DeviceID, id)
	}
	return noContent(c, h.core.Ingest.SetAccumulators(httpx.User(c), acc))
}
