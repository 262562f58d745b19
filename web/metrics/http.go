package metrics

import (
	"crypto/subtle"
	"strings"
	"time"

	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// unmatchedRoute labels requests no route answered (scanners probing
// random paths must not create a series each).
const unmatchedRoute = "unmatched"

// Middleware records each request's latency under its route pattern
// ("/api/devices/:id"), never the raw path. Live socket sessions last for
// hours and are left out.
func (m *Metrics) Middleware() fiber.Handler {
	return func(c *fiber.Ctx) error {
		if strings.EqualFold(c.Get(fiber.HeaderUpgrade), "websocket") {
			return c.Next()
		}
		own, began := c.Route(), time.Now()
		err := c.Next()
		route := c.Route()
		path := route.Path
		if route == own {
			path = unmatchedRoute
		}
		m.http.WithLabelValues(strings.Clone(c.Method()), path).Observe(time.Since(began).Seconds())
		return err
	}
}

// Handler serves the metrics to loopback clients, and to others only with
// "Authorization: Bearer <token>" when a token is configured. A request
// that came through a reverse proxy (forwarding headers) is not taken for
// a local one.
func (m *Metrics) Handler(token string) fiber.Handler {
	// ContinueOnError: one failing sample must not hide all the others.
	serve := adaptor.HTTPHandler(promhttp.HandlerFor(m.registry,
		promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, Registry: m.registry}))
	return func(c *fiber.Ctx) error {
		if !allowed(c, token) {
			if token != "" {
				c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="fleetd metrics"`)
				return fiber.NewError(fiber.StatusUnauthorized, "metrics need the metrics.token bearer token")
			}
			return fiber.NewError(fiber.StatusForbidden, "metrics are served to loopback clients only (set metrics.token to allow others)")
		}
		return serve(c)
	}
}

func allowed(c *fiber.Ctx, token string) bool {
	if token != "" {
		got, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
		if ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1 {
			return true
		}
	}
	// A request a local reverse proxy forwards comes from loopback too.
	if httpx.ForwardedBy(c) != "" {
		return false
	}
	ip := c.Context().RemoteIP()
	return ip != nil && ip.IsLoopback()
}
