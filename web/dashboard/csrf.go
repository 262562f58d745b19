package dashboard

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"

	"github.com/gofiber/fiber/v2"
)

// CSRF tokens are derived from a secret the browser holds in an HttpOnly
// cookie (the session token, or the login form's nonce) that another site
// can neither read nor compute from the token, which the page shows. They
// need no server-side state and survive restarts.

// CSRFField is the form field and CSRFHeader the header (set by htmx from
// the body's hx-headers) that carry the token.
const (
	CSRFField  = "_csrf"
	CSRFHeader = "X-CSRF-Token"
)

func csrfToken(purpose, secret string) string {
	m := hmac.New(sha256.New, []byte("fleetd dashboard csrf "+purpose))
	m.Write([]byte(secret))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// validCSRF reports whether the request carries want in the header or the
// form field.
func validCSRF(c *fiber.Ctx, want string) bool {
	got := c.Get(CSRFHeader)
	if got == "" {
		got = c.FormValue(CSRFField)
	}
	return got != "" && hmac.Equal([]byte(got), []byte(want))
}

// checkCSRF rejects state-changing requests without the session's token.
func (d *Dashboard) checkCSRF(c *fiber.Ctx) error {
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return c.Next()
	}
	want, _ := c.Locals(tokenKey).(string)
	if want == "" || !validCSRF(c, want) {
		return d.fail(c, fiber.NewError(fiber.StatusForbidden, "The form expired or did not come from this dashboard. Reload the page and try again."))
	}
	return c.Next()
}

// checkLoginCSRF is checkCSRF for the login form, whose token comes from
// the nonce cookie set with the form.
func (d *Dashboard) checkLoginCSRF(c *fiber.Ctx) error {
	nonce := c.Cookies(loginNonceCookie)
	if nonce == "" || !validCSRF(c, csrfToken("login", nonce)) {
		return d.renderLogin(c, fiber.StatusForbidden, c.FormValue("email"), "The form expired. Please sign in again.")
	}
	return c.Next()
}

func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails (crypto/rand panics instead)
	return base64.RawURLEncoding.EncodeToString(b)
}
