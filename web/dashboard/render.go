package dashboard

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/a-h/templ"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// Page is what every page's layout needs.
type Page struct {
	Title string
	// Nav is the active navigation entry ("overview", "fleet", ...).
	Nav    string
	User   *model.User
	CSRF   string
	Assets *Static
	// LowSpace is the data directory's free space when it is low and the
	// viewer an administrator, who can make room (the layout warns).
	LowSpace *ops.Space
	// BackupFailed is the last scheduled backup when it failed, and the
	// last good one, for an administrator (the layout warns).
	BackupFailed, LastGoodBackup *model.BackupReport
}

// Admin reports whether the viewer is an administrator (managers see less).
func (p Page) Admin() bool { return p.User != nil && p.User.Administrator }

func (d *Dashboard) page(c *fiber.Ctx, title, nav string) Page {
	token, _ := c.Locals(tokenKey).(string)
	p := Page{Title: title, Nav: nav, User: user(c), CSRF: token, Assets: d.opts.Static}
	if !p.Admin() {
		return p
	}
	if space, err := d.core.Ops.Space(); err == nil && space.Low {
		p.LowSpace = &space
	}
	if last, good := d.core.Ops.Backups(); last.Err != "" {
		p.BackupFailed, p.LastGoodBackup = &last, &good
	}
	return p
}

// render writes the component to a buffer and sends it only when the whole
// page rendered: a failing component leaves an error, not half a page.
func render(c *fiber.Ctx, status int, comp templ.Component) error {
	var buf bytes.Buffer
	ctx := context.WithValue(context.Background(), displayCtx{}, display(c))
	if err := comp.Render(ctx, &buf); err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Type("html", "utf-8")
	return c.Status(status).Send(buf.Bytes())
}

// redirect sends the browser to url after an action: htmx requests get
// HX-Location (htmx loads the page and pushes it to the history), others a
// 303 See Other.
func redirect(c *fiber.Ctx, url string) error {
	if c.Get("HX-Request") == "true" {
		loc, err := json.Marshal(map[string]string{"path": url, "target": "body"})
		if err != nil {
			return err
		}
		c.Set("HX-Location", string(loc))
		return c.SendStatus(fiber.StatusNoContent)
	}
	return c.Redirect(url, fiber.StatusSeeOther)
}

// reload is redirect for a page outside the signed-in frame (the login
// page): htmx requests get HX-Redirect, a full page load, since swapping
// the body would keep the old body's attributes.
func reload(c *fiber.Ctx, url string) error {
	if c.Get("HX-Request") == "true" {
		c.Set("HX-Redirect", url)
		return c.SendStatus(fiber.StatusNoContent)
	}
	return c.Redirect(url, fiber.StatusSeeOther)
}

// htmlErrors turns an error a handler returns into the dashboard's error
// page (the API's error handler would answer JSON).
func (d *Dashboard) htmlErrors(c *fiber.Ctx) error {
	if err := c.Next(); err != nil {
		return d.fail(c, err)
	}
	return nil
}

// fail renders the error page for err with its status; unexpected errors
// are logged and shown without detail.
func (d *Dashboard) fail(c *fiber.Ctx, err error) error {
	status, body := httpx.Classify(err)
	if status == fiber.StatusInternalServerError {
		d.log.Error("dashboard request failed", "method", c.Method(), "path", c.Path(), "err", err)
	}
	if status == fiber.StatusUnauthorized {
		return d.toLogin(c)
	}
	return render(c, status, errorPage(d.page(c, body.Message, ""), status, body.Message, body.Description))
}

// hxTarget reports whether an htmx request asked for just the element with
// this id (a list refreshed by its filters), so the handler can render only
// that fragment.
func hxTarget(c *fiber.Ctx, id string) bool {
	return c.Get("HX-Request") == "true" && c.Get("HX-Target") == id && c.Get("HX-Boosted") != "true"
}

// navItems are the navigation entries the viewer may open: users who are
// neither administrators nor managers have only their profile.
func (p Page) navItems() []navItem {
	if p.User != nil && !mayUseDashboard(p.User) {
		return []navItem{{Key: "profile", Label: "Profile", Path: profilePath}}
	}
	items := make([]navItem, 0, len(navItems))
	for _, item := range navItems {
		if !item.AdminOnly || p.Admin() {
			items = append(items, item)
		}
	}
	return items
}
