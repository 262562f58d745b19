// Package web is fleetd's HTTP adapter: the Traccar-compatible /api, the
// extended /api2, the live socket and the dashboard, all on one Fiber app.
package web

import (
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/fleetd/fleetd/protocols"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/web/api"
	"github.com/fleetd/fleetd/web/api2"
	"github.com/fleetd/fleetd/web/dashboard"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/metrics"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
)

// Options configures the HTTP adapter.
type Options struct {
	Logger *slog.Logger
	// SecureCookies marks session cookies Secure (serve behind HTTPS).
	SecureCookies bool
	// Limits bound each request's time and body; zero fields take
	// httpx.DefaultLimits.
	Limits httpx.Limits
	// AllowedOrigins are other sites (scheme://host[:port]) whose pages
	// may send requests with a user's session cookie (httpx.SameSite).
	AllowedOrigins []string
	// Metrics, when set, times every request and is served at GET /metrics
	// to loopback clients, and to others with MetricsToken as bearer token.
	Metrics      *metrics.Metrics
	MetricsToken string
	// KeepAlive is how often the live socket sends {} (default 30 s).
	KeepAlive time.Duration
	// TileURL is the dashboard map's tile URL template; empty: the server's
	// mapUrl setting, else OpenStreetMap. TileAttribution credits the tiles.
	TileURL, TileAttribution string
	// Trackers are the enabled device protocols with their ports and
	// set-up notes, AutoPort the shared port (0: off), for the dashboard's
	// help on connecting a tracker.
	Trackers []protocols.Listener
	AutoPort int
	// TrustedProxies are the reverse proxies (IPs, CIDR ranges) whose
	// ProxyHeader gives the client's address, which the login and OTP
	// budgets count by. Without them every proxied caller would share the
	// proxy's budget.
	TrustedProxies []string
	ProxyHeader    string
}

// New builds the Fiber app serving core.
func New(core *app.Core, opts Options) *fiber.App {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	limits := opts.Limits.OrDefaults()
	cfg := fiber.Config{
		DisableStartupMessage: true,
		AppName:               "fleetd",
		ErrorHandler:          httpx.ErrorHandler(opts.Logger),
		JSONEncoder:           httpx.JSONEncoder,
		// Bodies are streamed and read by limits.ReadBodies at the pace
		// they arrive. fasthttp would otherwise reserve the declared
		// Content-Length up front, and read a multipart body of any size
		// into temporary files before a handler could refuse it. It still
		// takes a body's first 8 KiB before the handlers run; BodyLimit,
		// the largest body any route takes, keeps it within the body.
		StreamRequestBody:            true,
		DisablePreParseMultipartForm: true,
		BodyLimit:                    limits.MaxUpload,
		ReadTimeout:                  limits.ReadTimeout,
		WriteTimeout:                 limits.WriteTimeout,
		IdleTimeout:                  limits.IdleTimeout,
		Concurrency:                  limits.MaxConns,
	}
	if len(opts.TrustedProxies) > 0 {
		// Fiber believes the header only from these peers, and only when
		// it holds a valid address.
		cfg.EnableTrustedProxyCheck, cfg.TrustedProxies = true, opts.TrustedProxies
		cfg.ProxyHeader, cfg.EnableIPValidation = opts.ProxyHeader, true
	}
	f := fiber.New(cfg)
	srv := f.Server()
	srv.Handler = httpx.CloseUnreadBodies(srv.Handler)
	f.Use(recover.New())
	if len(opts.TrustedProxies) == 0 {
		f.Use(warnUntrustedProxy(opts.Logger))
	}
	// Before any route and before timing: a refused request costs nothing
	// more, and a stalled body does not count as a slow route.
	f.Use(httpx.SameSite(opts.AllowedOrigins), limits.ReadBodies())
	if opts.Metrics != nil {
		f.Use(opts.Metrics.Middleware())
		f.Get("/metrics", opts.Metrics.Handler(opts.MetricsToken))
	}
	api2.Register(f.Group("/api2"), core, api2.Options{Logger: opts.Logger, SecureCookies: opts.SecureCookies})
	api.Register(f.Group("/api"), core, api.Options{Logger: opts.Logger, SecureCookies: opts.SecureCookies,
		KeepAlive: opts.KeepAlive})
	dashboard.Register(f, core, dashboard.Options{Logger: opts.Logger, SecureCookies: opts.SecureCookies,
		TileURL: opts.TileURL, TileAttribution: opts.TileAttribution, Static: dashboard.EmbeddedStatic(opts.Logger), Trackers: opts.Trackers, AutoPort: opts.AutoPort})
	return f
}

// Listener is ln with the cap on connections per client address, unless
// a trusted proxy is every client's address.
func Listener(ln net.Listener, opts Options) net.Listener {
	if len(opts.TrustedProxies) > 0 {
		return ln
	}
	return httpx.LimitPerAddress(ln, opts.Limits.OrDefaults().MaxConnsPerIP)
}

// warnUntrustedProxy logs once when requests come through a reverse proxy
// that web.trustedProxies does not name: every client then counts as the
// proxy for the login and OTP budgets, and one caller can use them up for
// everyone.
func warnUntrustedProxy(log *slog.Logger) fiber.Handler {
	var warned atomic.Bool
	return func(c *fiber.Ctx) error {
		if !warned.Load() {
			if h := httpx.ForwardedBy(c); h != "" && warned.CompareAndSwap(false, true) {
				log.Warn("requests arrive through a reverse proxy that web.trustedProxies does not name; "+
					"all its clients share one login and OTP budget (docs/operations.md, \"Behind a reverse proxy\")",
					"proxy", c.IP(), "header", h)
			}
		}
		return c.Next()
	}
}
