package api

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// credentials is POST /api/session's body: Traccar sends a form (email,
// password and, for two-factor login, code); JSON with the same names is
// accepted too.
type credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	Code     string `json:"code"`
}

// createSession logs in and sets the JSESSIONID cookie. A user with
// two-factor login who sent no code gets 401 with WWW-Authenticate: TOTP,
// which Traccar's apps answer by asking for it.
func (h *handlers) createSession(c *fiber.Ctx) error {
	var cred credentials
	if strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationJSON) {
		if err := httpx.DecodeJSON(c, &cred); err != nil {
			return err
		}
	} else {
		cred = credentials{Email: c.FormValue("email"), Password: c.FormValue("password"), Code: c.FormValue("code")}
	}
	if strings.TrimSpace(cred.Email) == "" || cred.Password == "" {
		return model.Invalid("email and password are required")
	}
	u, err := h.core.Accounts.Login(cred.Email, cred.Password, cred.Code, c.IP())
	if errors.Is(err, accounts.ErrCodeRequired) {
		c.Set(fiber.HeaderWWWAuthenticate, "TOTP")
	}
	if err != nil {
		return err
	}
	token, expires, err := h.core.Accounts.CreateSession(u, c.IP())
	if err != nil {
		return err
	}
	h.setCookie(c, token, expires)
	return sendUser(c, u, nil)
}

// getSession returns the caller; Traccar answers 404 when there is none.
// With ?token= it logs in with a token from POST /session/token: the
// cookie session it opens lasts as long as the token (401 for a token
// that is not, or no longer, valid).
func (h *handlers) getSession(c *fiber.Ctx) error {
	if token := c.Query("token"); token != "" {
		u, err := h.core.Accounts.SessionUser(token)
		if err != nil {
			return err
		}
		session, expires, err := h.core.Accounts.CreateSession(u, c.IP())
		if err != nil {
			return err
		}
		if ends := h.core.Accounts.SessionExpiry(token); ends.Before(expires) {
			expires = ends
		}
		h.setCookie(c, session, expires)
		return sendUser(c, u, nil)
	}
	u := httpx.User(c)
	if u == nil {
		return model.NotFound("Session")
	}
	return sendUser(c, u, nil)
}

// sessionAs opens a session as another user (administrators; managers
// for their users) and sets its cookie.
func (h *handlers) sessionAs(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	u, token, expires, err := h.core.Accounts.SessionAs(httpx.User(c), id, c.IP())
	if err != nil {
		return err
	}
	h.setCookie(c, token, expires)
	return sendUser(c, u, nil)
}

// createToken answers a token (text, as Traccar) for the caller's apps;
// the form's expiration (ISO 8601) defaults to a week.
func (h *handlers) createToken(c *fiber.Ctx) error {
	expires, err := formExpiration(c)
	if err != nil {
		return err
	}
	var sessionEnds time.Time
	if s := httpx.SessionToken(c); s != "" {
		sessionEnds = h.core.Accounts.SessionExpiry(s)
	}
	token, err := h.core.Accounts.CreateToken(httpx.User(c), expires, sessionEnds)
	if err != nil {
		return err
	}
	return c.SendString(token)
}

// revokeToken ends a token (form field token) of the caller's.
func (h *handlers) revokeToken(c *fiber.Ctx) error {
	token := c.FormValue("token")
	if token == "" {
		return model.Invalid("token is required")
	}
	return noContent(c, h.core.Accounts.RevokeToken(httpx.User(c), token))
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

// share answers a link token (text) that shows one device or group,
// read-only, until the form's expiration; Traccar's web app makes
// https://host/?token=TOKEN of it.
func (h *handlers) share(kind string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		id, err := strconv.ParseInt(c.FormValue(kind+"Id"), 10, 64)
		if err != nil || id <= 0 {
			return model.Invalid("%sId is required", kind)
		}
		expires, err := formExpiration(c)
		if err != nil {
			return err
		}
		token, err := h.core.Accounts.Share(httpx.User(c), kind, id, expires)
		if err != nil {
			return err
		}
		return c.SendString(token)
	}
}

// formExpiration reads the form's expiration (ISO 8601); zero when absent.
func formExpiration(c *fiber.Ctx) (time.Time, error) {
	v := c.FormValue("expiration")
	if v == "" {
		return time.Time{}, nil
	}
	t, ok := httpx.ParseTime(v)
	if !ok {
		return time.Time{}, model.Invalid("expiration must be an ISO 8601 time")
	}
	return t, nil
}
