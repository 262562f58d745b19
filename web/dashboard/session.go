package dashboard

import (
	"net/url"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

const (
	userKey    = "dashboard.user"
	tokenKey   = "dashboard.csrf"
	displayKey = "dashboard.display"
)

// session admits callers whose JSESSIONID names a live session; others go
// to the login page (htmx requests via HX-Redirect, so a whole page
// replaces the fragment). Users who are neither administrators nor
// managers get their profile only.
func (d *Dashboard) session(c *fiber.Ctx) error {
	token := c.Cookies(httpx.SessionCookie)
	u, err := d.core.Accounts.SessionUser(token)
	if model.ClassOf(err) == model.ClassUnauthorized {
		return d.toLogin(c)
	}
	if err != nil {
		return d.fail(c, err)
	}
	c.Locals(userKey, u)
	c.Locals(tokenKey, csrfToken("session", token))
	srv, err := d.core.Accounts.ServerFor(u)
	if err != nil {
		return d.fail(c, err)
	}
	c.Locals(displayKey, prefs.For(u, srv))
	if !mayUseDashboard(u) && !forEveryone(c.Path()) {
		if strings.TrimSuffix(c.Path(), "/") == Prefix {
			return redirect(c, profilePath)
		}
		return d.fail(c, errNotForUsers)
	}
	return c.Next()
}

// mayUseDashboard: administrators, and managers for what they manage.
func mayUseDashboard(u *model.User) bool { return u.Administrator || u.Manager() }

// forEveryone: the paths every signed-in user may use, whatever their
// role: their profile (password, e-mail, phone, preferences) and signing out.
func forEveryone(path string) bool {
	return path == Prefix+"/logout" || path == profilePath || strings.HasPrefix(path, profilePath+"/")
}

// landing is where u goes after signing in: next, or the profile for
// users who may use nothing else.
func landing(u *model.User, next string) string {
	next = safeNext(next)
	if !mayUseDashboard(u) && !forEveryone(strings.SplitN(next, "?", 2)[0]) {
		return profilePath
	}
	return next
}

var errSessionEnded = model.Unauthorized("Your session has ended: sign in again.")

var errNotForUsers = model.Forbidden("The dashboard is for administrators and managers; use the app or the API.")

func (d *Dashboard) toLogin(c *fiber.Ctx) error {
	// A script's request for JSON (the vehicle page's route) is told why,
	// in JSON: a redirect would hand it the login page's HTML.
	if c.Get("HX-Request") == "" && c.Accepts(fiber.MIMETextHTML, fiber.MIMEApplicationJSON) == fiber.MIMEApplicationJSON {
		status, body := httpx.Classify(errSessionEnded)
		return c.Status(status).JSON(body)
	}
	target := Prefix + "/login"
	if c.Method() == fiber.MethodGet && c.Path() != Prefix+"/" {
		target += "?next=" + url.QueryEscape(c.OriginalURL())
	}
	return reload(c, target)
}

// user is the caller admitted by session.
func user(c *fiber.Ctx) *model.User {
	u, _ := c.Locals(userKey).(*model.User)
	return u
}

// loginNonceCookie carries the random value the login form's CSRF token is
// derived from, before there is a session to derive it from.
const loginNonceCookie = "fleetd_login"

func (d *Dashboard) loginPage(c *fiber.Ctx) error {
	if u, err := d.core.Accounts.SessionUser(c.Cookies(httpx.SessionCookie)); err == nil {
		return redirect(c, landing(u, c.Query("next")))
	}
	return d.renderLogin(c, fiber.StatusOK, "", "")
}

func (d *Dashboard) renderLogin(c *fiber.Ctx, status int, email, problem string) error {
	nonce := c.Cookies(loginNonceCookie)
	if len(nonce) < 16 {
		nonce = randomToken()
		c.Cookie(&fiber.Cookie{Name: loginNonceCookie, Value: nonce, Path: Prefix + "/login",
			HTTPOnly: true, Secure: d.opts.SecureCookies, SameSite: fiber.CookieSameSiteStrictMode})
	}
	form := loginForm{Email: email, Next: safeNext(c.Query("next", c.FormValue("next"))),
		Problem: problem, CSRF: csrfToken("login", nonce)}
	return render(c, status, loginPage(d.page(c, "Sign in", ""), form))
}

func (d *Dashboard) login(c *fiber.Ctx) error {
	email := strings.TrimSpace(c.FormValue("email"))
	u, err := d.core.Accounts.Login(email, c.FormValue("password"), c.FormValue("code"), c.IP())
	if err != nil {
		status, body := httpx.Classify(err)
		if status == fiber.StatusInternalServerError {
			return err
		}
		return d.renderLogin(c, status, email, body.Text())
	}
	token, expires, err := d.core.Accounts.CreateSession(u, c.IP())
	if err != nil {
		return err
	}
	httpx.SetSessionCookie(c, token, expires, d.opts.SecureCookies)
	return redirect(c, landing(u, c.FormValue("next")))
}

func (d *Dashboard) logout(c *fiber.Ctx) error {
	if err := d.core.Accounts.Logout(c.Cookies(httpx.SessionCookie)); err != nil {
		return err
	}
	httpx.SetSessionCookie(c, "", time.Unix(0, 0), d.opts.SecureCookies)
	return reload(c, Prefix+"/login")
}

// safeNext keeps a post-login redirect inside the dashboard, so the login
// form cannot be used to send someone elsewhere.
func safeNext(next string) string {
	if strings.HasPrefix(next, Prefix+"/") && !strings.HasPrefix(next, "//") && !strings.Contains(next, `\`) {
		return next
	}
	return Prefix + "/"
}
