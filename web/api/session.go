package api

import (
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// credentials is POST /api/session's body: Traccar sends a form
// (email, password); JSON with the same names is accepted too.
type credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// createSession logs in and sets the JSESSIONID cookie.
func (h *handlers) createSession(c *fiber.Ctx) error {
	var cred credentials
	if strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationJSON) {
		if err := httpx.DecodeJSON(c, &cred); err != nil {
			return err
		}
	} else {
		cred = credentials{Email: c.FormValue("email"), Password: c.FormValue("password")}
	}
	if strings.TrimSpace(cred.Email) == "" || cred.Password == "" {
		return model.Invalid("email and password are required")
	}
	u, err := h.core.Accounts.Login(cred.Email, cred.Password, c.IP())
	if err != nil {
		return err
	}
	token, expires, err := h.core.Accounts.CreateSession(u)
	if err != nil {
		return err
	}
	h.setCookie(c, token, expires)
	return sendUser(c, u, nil)
}

// getSession returns the caller; Traccar answers 404 when there is none.
func (h *handlers) getSession(c *fiber.Ctx) error {
	u := httpx.User(c)
	if u == nil {
		return model.NotFound("Session")
	}
	return sendUser(c, u, nil)
}

// deleteSession logs out: the session ends and the cookie is cleared.
func (h *handlers) deleteSession(c *fiber.Ctx) error {
	if token := c.Cookies(httpx.SessionCookie); token != "" {
		if err := h.core.Accounts.Logout(token); err != nil {
			return err
		}
	}
	h.setCookie(c, "", time.Unix(0, 0))
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *handlers) setCookie(c *fiber.Ctx, value string, expires time.Time) {
	httpx.SetSessionCookie(c, value, expires, h.opts.SecureCookies)
}
