package api

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// attributeRoutes are Traccar's computed attributes: the generic object
// routes plus the expression test.
func (h *handlers) attributeRoutes() []route {
	return append(objectRoutes("/attributes/computed", h.core.Fleet.ComputedAttributes, filterLinks),
		route{fiber.MethodPost, "/attributes/computed/test", required, h.testAttribute})
}

// testAttribute evaluates the body's attribute on deviceId's latest
// position: 200 with the value, 204 when the expression gives none.
func (h *handlers) testAttribute(c *fiber.Ctx) error {
	id, err := httpx.QueryID(c, "deviceId")
	if err != nil {
		return err
	}
	if id == 0 {
		return model.Invalid("deviceId is required")
	}
	var a model.ComputedAttribute
	if err := httpx.Decode(c, &a); err != nil {
		return err
	}
	v, err := h.core.Fleet.TestComputedAttribute(httpx.User(c), id, &a)
	if err != nil {
		return err
	}
	if v == nil {
		return c.SendStatus(fiber.StatusNoContent)
	}
	return c.JSON(v)
}
