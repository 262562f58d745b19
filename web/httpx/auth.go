package httpx

import (
	"encoding/base64"
	"strings"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// SessionCookie is the session cookie's name, Traccar's (and Java
// servlets') JSESSIONID, so existing clients keep their session handling.
const SessionCookie = "JSESSIONID"

const (
	userKey    = "fleetd.user"
	sessionKey = "fleetd.session" // the cookie value, when it authenticated
)

// Authenticator resolves the caller of a request: the JSESSIONID cookie
// first, then the Authorization header: a token from POST
// /api/session/token as "Bearer TOKEN" (as Traccar takes them), or HTTP
// Basic credentials. Basic cannot carry a one-time code, so users with
// two-factor login use a session or a token.
type Authenticator struct {
	Core *app.Core
}

// Required is middleware that admits only authenticated callers.
func (a Authenticator) Required() fiber.Handler {
	return func(c *fiber.Ctx) error {
		u, err := a.resolve(c)
		if err != nil {
			return err
		}
		if u == nil {
			return model.Unauthorized("Authentication required: send the JSESSIONID cookie or HTTP Basic credentials")
		}
		c.Locals(userKey, u)
		return c.Next()
	}
}

// Optional is middleware for public endpoints that behave differently for a
// known caller (self-registration versus a manager creating a user). Wrong
// Basic credentials still fail: the caller meant to authenticate.
func (a Authenticator) Optional() fiber.Handler {
	return func(c *fiber.Ctx) error {
		u, err := a.resolve(c)
		if err != nil {
			return err
		}
		if u != nil {
			c.Locals(userKey, u)
		}
		return c.Next()
	}
}

// Session is middleware that admits only callers with a live session
// cookie: the extended API (/api2) is documented as cookie-only.
func (a Authenticator) Session() fiber.Handler {
	return func(c *fiber.Ctx) error {
		token := c.Cookies(SessionCookie)
		u, err := a.Core.Accounts.SessionUser(token)
		if err != nil {
			return err
		}
		c.Locals(userKey, u)
		c.Locals(sessionKey, token)
		return c.Next()
	}
}

// User is the caller stored by Required or Optional; nil when anonymous.
func User(c *fiber.Ctx) *model.User {
	u, _ := c.Locals(userKey).(*model.User)
	return u
}

// SessionToken is the session cookie that authenticated the caller, ""
// when Basic credentials did (or nobody).
func SessionToken(c *fiber.Ctx) string {
	token, _ := c.Locals(sessionKey).(string)
	return token
}

// resolve returns the caller, nil when no usable credentials were sent. A
// stale cookie counts as none, so Basic credentials sent beside it still work.
func (a Authenticator) resolve(c *fiber.Ctx) (*model.User, error) {
	if token := c.Cookies(SessionCookie); token != "" {
		u, err := a.Core.Accounts.SessionUser(token)
		if err == nil {
			c.Locals(sessionKey, token)
			return u, nil
		}
		if model.ClassOf(err) != model.ClassUnauthorized {
			return nil, err
		}
	}
	header := c.Get(fiber.HeaderAuthorization)
	if header == "" {
		return nil, nil
	}
	if scheme, token, _ := strings.Cut(header, " "); strings.EqualFold(scheme, "Bearer") {
		token = strings.TrimSpace(token)
		u, err := a.Core.Accounts.SessionUser(token)
		if err == nil {
			c.Locals(sessionKey, token)
		}
		return u, err
	}
	email, password, ok := parseBasic(header)
	if !ok {
		return nil, model.Unauthorized("Malformed Authorization header: HTTP Basic or Bearer expected")
	}
	return a.Core.Accounts.Login(email, password, "", c.IP())
}

// parseBasic decodes "Basic base64(email:password)".
func parseBasic(header string) (email, password string, ok bool) {
	scheme, encoded, found := strings.Cut(header, " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(encoded))
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(raw), ":")
}
