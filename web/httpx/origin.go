package httpx

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// SameSite is middleware that refuses (403) requests a page of another
// site made a browser send: ones whose Origin names another host and that
// either carry the session cookie, change something (any method but GET,
// HEAD and OPTIONS: a login included) or open a WebSocket. Without an
// Origin, a state-changing request is judged by its Referer. Native apps
// and scripts send neither and pass, as do top-level links from other
// sites (GET, no Origin).
//
// The server's own host is the request's Host, or X-Forwarded-Host when
// the peer is a trusted proxy (not every proxy keeps Host). Ports are not
// compared: the session cookie is not bound to a port either. allowed
// names further origins (scheme://host[:port]) whose pages may call; an
// entry that is not one is ignored (the configuration checks them).
func SameSite(allowed []string) fiber.Handler {
	var origins []string
	for _, a := range allowed {
		if o, err := parseOrigin(a); err == nil {
			origins = append(origins, o)
		}
	}
	return func(c *fiber.Ctx) error {
		source, header := c.Get(fiber.HeaderOrigin), "Origin"
		if source == "" && !safeMethod(c.Method()) {
			source, header = c.Get(fiber.HeaderReferer), "Referer"
		}
		if source == "" || !mayForge(c) || sameSite(c, source, origins) {
			return c.Next()
		}
		return model.Forbidden("cross-site request refused: its %s %q is not this server (web.allowedOrigins lists other sites allowed to call)", header, source)
	}
}

// mayForge: what another site's page could do with the user's browser
// that matters. A GET without the session cookie reads nothing private.
func mayForge(c *fiber.Ctx) bool {
	return c.Cookies(SessionCookie) != "" || !safeMethod(c.Method()) ||
		strings.EqualFold(c.Get(fiber.HeaderUpgrade), "websocket")
}

func safeMethod(m string) bool {
	return m == fiber.MethodGet || m == fiber.MethodHead || m == fiber.MethodOptions
}

// sameSite reports whether source (an Origin, or a Referer URL) is this
// server or one of allowed. "null" (a sandboxed or privacy-redirected
// page) is neither.
func sameSite(c *fiber.Ctx, source string, allowed []string) bool {
	origin, err := parseOrigin(source)
	if err != nil {
		return false
	}
	for _, a := range allowed {
		if origin == a {
			return true
		}
	}
	u, _ := url.Parse(origin)
	host := u.Hostname()
	if strings.EqualFold(host, Hostname(string(c.Request().Host()))) {
		return true
	}
	if c.App().Config().EnableTrustedProxyCheck && c.IsProxyTrusted() {
		forwarded, _, _ := strings.Cut(c.Get(fiber.HeaderXForwardedHost), ",")
		return forwarded != "" && strings.EqualFold(host, Hostname(strings.TrimSpace(forwarded)))
	}
	return false
}

// Hostname is the host of a Host header value: without the port and the
// brackets of an IPv6 address.
func Hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// parseOrigin reduces an origin or a URL to its origin, lower-cased:
// scheme://host[:port], the form a browser's Origin header has.
func parseOrigin(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", fmt.Errorf("%q is not an origin like https://fleet.example.com", s)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}
