// Package api serves fleetd's v1 API under /api, compatible with Traccar's
// REST API (OpenAPI 6.x): the same paths, field names, JSESSIONID session
// cookie, HTTP Basic authentication and permission rules, so existing
// Traccar clients work unchanged. Handlers only parse, call the core and
// render; the rules live in app.
package api

import (
	"log/slog"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// Options configures the v1 API.
type Options struct {
	Logger *slog.Logger
	// SecureCookies marks the session cookie Secure (served behind HTTPS).
	SecureCookies bool
	// KeepAlive is how often the live socket sends {} (default 30 s).
	KeepAlive time.Duration
}

// route is one endpoint; the table of them in routes is the API's index.
type route httpx.Route

const (
	public   = httpx.Public   // anyone; credentials are not looked at
	optional = httpx.Optional // anyone; a caller that sends credentials is identified
	required = httpx.Required // authenticated callers only
)

type handlers struct {
	core *app.Core
	opts Options
}

// Register adds the v1 endpoints to r, which is mounted at /api.
func Register(r fiber.Router, core *app.Core, opts Options) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = 30 * time.Second
	}
	h := &handlers{core: core, opts: opts}
	httpx.Mount(r, core, h.routes())
}

func (h *handlers) routes() []route {
	rs := []route{
		{fiber.MethodGet, "/health", public, h.health},
		{fiber.MethodGet, "/openapi.json", public, serveOpenAPI},
		{fiber.MethodGet, "/server", optional, h.getServer},
		{fiber.MethodPut, "/server", required, h.updateServer},
		{fiber.MethodGet, "/server/timezones", required, h.timezones},
		{fiber.MethodPost, "/server/file/*", required, h.uploadWebFile},
		{fiber.MethodGet, "/server/file/*", public, h.webFile},
		{fiber.MethodPost, "/server/reboot", required, h.reboot},

		{fiber.MethodPost, "/session", public, h.createSession},
		{fiber.MethodGet, "/session", optional, h.getSession},
		{fiber.MethodDelete, "/session", public, h.deleteSession},
		{fiber.MethodGet, "/session/:id<int>", required, h.sessionAs},
		{fiber.MethodPost, "/session/token", required, h.createToken},
		{fiber.MethodPost, "/session/token/revoke", required, h.revokeToken},
		{fiber.MethodPost, "/users/totp", public, h.newTOTPKey},
		{fiber.MethodPost, "/password/reset", public, h.resetPassword},
		{fiber.MethodPost, "/password/update", public, h.updatePassword},
		{fiber.MethodPost, "/share/device", required, h.share(model.KindDevice)},
		{fiber.MethodPost, "/share/group", required, h.share(model.KindGroup)},

		{fiber.MethodGet, "/users", required, h.listUsers},
		{fiber.MethodPost, "/users", optional, h.createUser},
		{fiber.MethodGet, "/users/:id<int>", required, h.getUser},
		{fiber.MethodPut, "/users/:id<int>", required, h.updateUser},
		{fiber.MethodDelete, "/users/:id<int>", required, h.deleteUser},

		{fiber.MethodPost, "/permissions", required, h.link},
		{fiber.MethodDelete, "/permissions", required, h.unlink},
		{fiber.MethodPost, "/permissions/bulk", required, h.linkBulk},
		{fiber.MethodDelete, "/permissions/bulk", required, h.unlinkBulk},

		{fiber.MethodGet, "/positions", required, h.listPositions},
		{fiber.MethodDelete, "/positions", required, h.deletePositions},
		{fiber.MethodGet, "/events/:id<int>", required, h.getEvent},

		{fiber.MethodGet, "/commands/send", required, h.listSendable},
		{fiber.MethodPost, "/commands/send", required, h.sendCommand},
		{fiber.MethodGet, "/commands/types", required, h.commandTypes},
		{fiber.MethodGet, "/devices/unknown", required, h.unknownDevices},
		{fiber.MethodPut, "/devices/:id<int>/accumulators", required, h.setAccumulators},
		{fiber.MethodPost, "/devices/:id<int>/image", required, h.uploadDeviceImage},
		{fiber.MethodGet, "/media/:uniqueId/:name", required, h.media},
		{fiber.MethodGet, "/devices/frames", required, h.rawFrames},
		{fiber.MethodGet, "/socket", required, h.socket()},
		{fiber.MethodGet, "/statistics", required, h.statistics},
		{fiber.MethodGet, "/audit", required, h.audit},
	}
	rs = append(rs, objectRoutes("/devices", h.core.Fleet.Devices, filterIDs)...)
	rs = append(rs, objectRoutes("/groups", h.core.Fleet.Groups, 0)...)
	rs = append(rs, objectRoutes("/commands", h.core.Fleet.Commands, filterLinks)...)
	rs = append(rs, objectRoutes("/geofences", h.core.Fleet.Geofences, filterLinks)...)
	rs = append(rs, objectRoutes("/drivers", h.core.Fleet.Drivers, filterLinks)...)
	rs = append(rs, objectRoutes("/calendars", h.core.Fleet.Calendars, 0)...)
	rs = append(rs, objectRoutes("/maintenance", h.core.Fleet.Maintenances, filterLinks)...)
	rs = append(rs, h.attributeRoutes()...)
	rs = append(rs, h.reportRoutes()...)
	rs = append(rs, h.notificationRoutes()...)
	return rs
}

// send renders v as JSON unless err says otherwise.
func send(c *fiber.Ctx, v any, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// noContent answers 204 unless err says otherwise.
func noContent(c *fiber.Ctx, err error) error {
	if err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// applyBody is the core's apply callback for a create or update: the body
// decoded onto the defaults or the stored record (see httpx.Decode).
func applyBody[T any](c *fiber.Ctx) func(*T) error {
	return func(v *T) error { return httpx.Decode(c, v) }
}
