// Package api2 serves fleetd's extended API under /api2 (spec sections A
// and E2..M): account access, support tickets, documents, maintenance,
// devices with installation records, analytics. Every endpoint outside the
// account-access group needs the JSESSIONID cookie that /api and the
// dashboard share. Handlers parse, call the core and render.
//
// Each area keeps its routes in its own file (accounts.go, office.go,
// fleet.go) and its OpenAPI paths in openapi/<area>.json.
package api2

import (
	"log/slog"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// Options configures the extended API.
type Options struct {
	Logger *slog.Logger
	// SecureCookies marks the session cookie Secure (served behind HTTPS).
	SecureCookies bool
}

// route is one endpoint.
type route httpx.Route

const (
	public  = httpx.Public  // anyone (the account-access group A)
	session = httpx.Session // callers with a live JSESSIONID cookie
)

type handlers struct {
	core *app.Core
	opts Options
}

// Register adds the extended endpoints to r, which is mounted at /api2.
func Register(r fiber.Router, core *app.Core, opts Options) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	h := &handlers{core: core, opts: opts}
	httpx.Mount(r, core, h.routes())
}

func (h *handlers) routes() []route {
	rs := []route{{fiber.MethodGet, "/openapi.json", public, serveOpenAPI}}
	rs = append(rs, h.accountRoutes()...)
	rs = append(rs, h.officeRoutes()...)
	rs = append(rs, h.fleetRoutes()...)
	return rs
}
