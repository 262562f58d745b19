// Package dashboard is fleetd's admin dashboard: server-rendered templ
// pages with htmx for partial updates, served by the same binary under
// Prefix. It shares the JSESSIONID session with /api and /api2, admits
// administrators and managers (each sees what the core lets them see),
// gives other users their profile only, and checks a per-session CSRF token on every state-changing request.
//
// Handlers parse, call the core and render; rendering goes to a buffer
// first so a failing component never leaves half a page.
package dashboard

import (
	"log/slog"

	"github.com/fleetd/fleetd/protocols"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// Prefix is where the dashboard lives; "/" redirects here.
const Prefix = "/dashboard"

// DefaultTileURL is OpenStreetMap's tile server, used when neither the
// options nor the server settings (mapUrl) name one.
const DefaultTileURL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

// DefaultTileAttribution credits OpenStreetMap, whose data most tile
// servers draw.
const DefaultTileAttribution = "© OpenStreetMap contributors"

// Options configures the dashboard.
type Options struct {
	Logger *slog.Logger
	// SecureCookies marks cookies Secure (served behind HTTPS).
	SecureCookies bool
	// TileURL is the map tile URL template ({z}/{x}/{y}); empty: the
	// server's mapUrl setting, else DefaultTileURL. TileAttribution is the
	// tiles' credit (plain text); empty: DefaultTileAttribution.
	TileURL, TileAttribution string
	// Static is the embedded file tree served under AssetPrefix.
	Static *Static
	// Trackers are the enabled device protocols (ports, set-up notes) and
	// AutoPort the shared port (0: off), for connecting a tracker.
	Trackers []protocols.Listener
	AutoPort int
}

// Dashboard holds what the handlers share.
type Dashboard struct {
	core *app.Core
	opts Options
	log  *slog.Logger
}

// Register mounts the dashboard on f: its pages under Prefix, the static
// files under AssetPrefix and a redirect from "/".
func Register(f *fiber.App, core *app.Core, opts Options) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	d := &Dashboard{core: core, opts: opts, log: opts.Logger}
	f.Get(AssetPrefix+"*", opts.Static.Handler)
	f.Get("/", func(c *fiber.Ctx) error { return c.Redirect(Prefix+"/", fiber.StatusFound) })

	r := f.Group(Prefix, d.contentPolicy, d.htmlErrors)
	r.Get("/login", d.loginPage)
	r.Post("/login", d.checkLoginCSRF, d.login)
	r.Post("/logout", d.session, d.checkCSRF, d.logout)

	// Every form may carry attachments: uploads are read once the session
	// is known, before the CSRF check reads the form.
	for _, rt := range d.routes() {
		r.Add(rt.method, rt.path, d.session, httpx.Upload(d.checkCSRF), rt.handler)
	}
	r.Use(d.session, func(c *fiber.Ctx) error { return d.fail(c, fiber.ErrNotFound) })
}

// route is one page or action of the dashboard.
type route struct {
	method, path string
	handler      fiber.Handler
}

// routes is the dashboard's route table, one line per page or action.
func (d *Dashboard) routes() []route {
	rs := []route{
		{"GET", "/", d.overview},
	}
	rs = append(rs, d.ticketRoutes()...)
	rs = append(rs, d.documentRoutes()...)
	rs = append(rs, d.maintenanceRoutes()...)
	rs = append(rs, d.fleetRoutes()...)
	rs = append(rs, d.vehicleRoutes()...)
	rs = append(rs, d.frameRoutes()...)
	rs = append(rs, d.userRoutes()...)
	rs = append(rs, d.fileRoutes()...)
	rs = append(rs, d.reportRoutes()...)
	rs = append(rs, d.alertRoutes()...)
	rs = append(rs, d.geofenceRoutes()...)
	return rs
}
