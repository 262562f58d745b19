package api

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/timezone"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// health answers whether the store responds, for load balancers and
// container health checks.
func (h *handlers) health(c *fiber.Ctx) error {
	if err := h.core.Health(); err != nil {
		h.opts.Logger.Error("health check failed", "err", err)
		return &model.Error{Class: model.ClassUnavailable, Message: "Store unavailable",
			Description: "The database does not answer; see the server log"}
	}
	return c.JSON(fiber.Map{"status": "ok"})
}

// getServer returns the server settings; public, as clients read them
// before logging in (administrators also get storageSpace).
func (h *handlers) getServer(c *fiber.Ctx) error {
	s, err := h.core.Accounts.ServerFor(httpx.User(c))
	return send(c, s, err)
}

// updateServer applies the body onto the current settings; administrators only.
func (h *handlers) updateServer(c *fiber.Ctx) error {
	s, err := h.core.Accounts.UpdateServer(httpx.User(c), applyBody[model.Server](c))
	return send(c, s, err)
}

// timezones lists the zone names users and reports may use.
func (h *handlers) timezones(c *fiber.Ctx) error { return c.JSON(timezone.Names()) }
