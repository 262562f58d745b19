// Package web is fleetd's HTTP adapter: the Traccar-compatible /api, the
// extended /api2, the live socket and the dashboard, all on one Fiber app.
package web

import (
	"log/slog"

	"github.com/fleetd/fleetd/app"
	"github.com/gofiber/fiber/v2"
)

// Options configures the HTTP adapter.
type Options struct {
	Logger *slog.Logger
	// SecureCookies marks session cookies Secure (serve behind HTTPS).
	SecureCookies bool
}

// New builds the Fiber app serving core.
func New(core *app.Core, opts Options) *fiber.App {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	f := fiber.New(fiber.Config{DisableStartupMessage: true, AppName: "fleetd"})
	f.Get("/api/health", func(c *fiber.Ctx) error {
		if err := core.Health(); err != nil {
			return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"message": "Store unavailable", "description": err.Error()})
		}
		return c.JSON(fiber.Map{"status": "ok"})
	})
	return f
}
