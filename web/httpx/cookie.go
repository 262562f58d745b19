package httpx

import (
	"time"

	"github.com/gofiber/fiber/v2"
)

// SetSessionCookie sets (or, with an empty value and a past expiry,
// clears) the JSESSIONID cookie that /api, /api2 and the dashboard share.
func SetSessionCookie(c *fiber.Ctx, value string, expires time.Time, secure bool) {
	c.Cookie(&fiber.Cookie{
		Name:     SessionCookie,
		Value:    value,
		Path:     "/",
		Expires:  expires,
		HTTPOnly: true,
		Secure:   secure,
		SameSite: fiber.CookieSameSiteLaxMode,
	})
}
