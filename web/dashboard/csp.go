package dashboard

import (
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// contentPolicy gives the dashboard's HTML pages a Content-Security-Policy:
// scripts only from this server (no inline code: htmx runs without eval),
// images from here and the map's tile server, connections to here (the
// live socket included). Other responses (downloads) keep their own.
func (d *Dashboard) contentPolicy(c *fiber.Ctx) error {
	err := c.Next()
	if strings.HasPrefix(string(c.Response().Header.ContentType()), fiber.MIMETextHTML) {
		c.Set(fiber.HeaderContentSecurityPolicy, policy(tileSource(d.tiles().URL), string(c.Request().Host())))
	}
	return err
}

// policy is the pages' policy with the tile server tiles (a source
// expression, "" for this server) and the live socket at host.
// Inline styles stay allowed: Leaflet and markercluster position their
// elements with them.
func policy(tiles, host string) string {
	img := "'self' data: blob:"
	if tiles != "" {
		img += " " + tiles
	}
	// CSP 3's 'self' covers ws: and wss: to this host, older browsers
	// need them named.
	connect := "'self'"
	if hostPort.MatchString(host) {
		connect += " ws://" + host + " wss://" + host
	}
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src " + img +
		"; connect-src " + connect + "; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'"
}

// hostPort is a Host header fit for a source expression (a name or an
// address, with a port).
var hostPort = regexp.MustCompile(`^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?$`)

// tileSource is the source expression that admits the tiles of the URL
// template tmpl: its scheme and host, a host with {s} (subdomains) as a
// wildcard; "" for tiles on this server (a path). A host that cannot be
// written as a source admits its scheme (https: any https host).
func tileSource(tmpl string) string {
	scheme, rest, ok := strings.Cut(tmpl, "//")
	if !ok || (scheme != "http:" && scheme != "https:" && scheme != "") {
		return ""
	}
	host, _, _ := strings.Cut(rest, "/")
	if _, after, found := strings.Cut(host, "{s}"); found {
		_, parent, _ := strings.Cut(after, ".")
		host = "*." + parent
	}
	if !hostPort.MatchString(strings.TrimPrefix(host, "*.")) {
		return scheme // "" for a protocol-relative URL: nothing more is admitted
	}
	if scheme == "" { // protocol-relative: the page's own scheme
		return host
	}
	return scheme + "//" + host
}
