package api

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// typed is Traccar's Typed: {"type": name}.
type typed struct {
	Type string `json:"type"`
}

func typedList(names []string) []typed {
	out := make([]typed, len(names))
	for i, n := range names {
		out[i] = typed{n}
	}
	return out
}

// notificationRoutes are Traccar's notifications: the objects, the event
// types and channels they may use, and test messages and announcements.
func (h *handlers) notificationRoutes() []route {
	return append(objectRoutes("/notifications", h.core.Fleet.Notifications, filterLinks),
		route{fiber.MethodGet, "/notifications/types", required, func(c *fiber.Ctx) error { return c.JSON(typedList(model.EventTypes)) }},
		route{fiber.MethodGet, "/notifications/notificators", required, h.notificators},
		route{fiber.MethodPost, "/notifications/test", required, h.testNotification},
		route{fiber.MethodPost, "/notifications/test/:notificator", required, h.testNotification},
		route{fiber.MethodPost, "/notifications/send/:notificator", required, h.sendAnnouncement},
	)
}

// notificators lists the configured channels; announcement=true leaves
// out the web socket, which cannot carry one (as in Traccar).
func (h *handlers) notificators(c *fiber.Ctx) error {
	announcement, err := httpx.QueryBool(c, "announcement")
	if err != nil {
		return err
	}
	var names []string
	for _, n := range h.core.Notify.Notificators() {
		if !announcement || n != model.NotifyWeb {
			names = append(names, n)
		}
	}
	return c.JSON(typedList(names))
}

// testNotification sends the caller a test message on one channel, or on
// every configured one; 204 once delivered.
func (h *handlers) testNotification(c *fiber.Ctx) error {
	return noContent(c, h.core.Notify.Test(c.Context(), httpx.User(c), c.Params("notificator")))
}

// sendAnnouncement sends {subject, body} to the repeated userId users (none:
// every user the caller manages) on one channel.
func (h *handlers) sendAnnouncement(c *fiber.Ctx) error {
	ids, err := httpx.QueryIDs(c, "userId")
	if err != nil {
		return err
	}
	var a notify.Announcement
	if err := httpx.Decode(c, &a); err != nil {
		return err
	}
	return noContent(c, h.core.Notify.Send(c.Context(), httpx.User(c), c.Params("notificator"), ids, a))
}
