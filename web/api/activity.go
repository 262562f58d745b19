package api

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// statistics lists the daily usage records in [from, to]; administrators.
func (h *handlers) statistics(c *fiber.Ctx) error {
	from, to, err := span(c)
	if err != nil {
		return err
	}
	list, err := h.core.Activity.Statistics(httpx.User(c), from, to)
	return send(c, list, err)
}

// audit lists who changed what in [from, to], in time order, streamed;
// administrators.
func (h *handlers) audit(c *fiber.Ctx) error {
	from, to, err := span(c)
	if err != nil {
		return err
	}
	var entries []*model.AuditEntry
	err = h.core.Activity.Audit(httpx.User(c), from, to, func(e *model.AuditEntry) error {
		entries = append(entries, e)
		return nil
	})
	if entries == nil {
		entries = []*model.AuditEntry{}
	}
	return send(c, entries, err)
}

// span reads from and to.
func span(c *fiber.Ctx) (from, to time.Time, err error) {
	if from, err = httpx.QueryTime(c, "from"); err == nil {
		to, err = httpx.QueryTime(c, "to")
	}
	return from, to, err
}
