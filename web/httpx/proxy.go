package httpx

import "github.com/gofiber/fiber/v2"

// ForwardedBy names the forwarding header a request carries ("" for
// none): the common ones and the app's configured proxy header. A request
// with one came through a reverse proxy, whatever its peer address says.
func ForwardedBy(c *fiber.Ctx) string {
	for _, h := range []string{fiber.HeaderXForwardedFor, "X-Real-Ip", "Forwarded", c.App().Config().ProxyHeader} {
		if h != "" && c.Get(h) != "" {
			return h
		}
	}
	return ""
}
