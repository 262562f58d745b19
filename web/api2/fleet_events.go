package api2

import (
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// timeRange reads the required from and to of E2 and I1.
func timeRange(c *fiber.Ctx) (from, to time.Time, err error) {
	if from, err = httpx.QueryTime(c, "from"); err != nil {
		return from, to, err
	}
	if to, err = httpx.QueryTime(c, "to"); err != nil {
		return from, to, err
	}
	if from.IsZero() || to.IsZero() {
		return from, to, model.Invalid("from and to are required")
	}
	return from, to, nil
}

// E2
func (h *handlers) extendedEvents(c *fiber.Ctx) error {
	q := fleet.EventQuery{Types: httpx.QueryStrings(c, "type")}
	var err error
	if q.DeviceIDs, err = httpx.QueryIDs(c, "deviceIds"); err != nil {
		return err
	}
	from, to, err := timeRange(c)
	if err != nil {
		return err
	}
	q.From, q.To = from, to
	switch c.Query("sort") {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return model.Invalid("sort must be asc or desc, not %q", c.Query("sort"))
	}
	p, err := readPaging(c, fleet.DefaultEventLimit)
	if err != nil {
		return err
	}
	q.Page, q.Limit = p.page, min(p.limit, fleet.MaxEventLimit)
	events, err := h.core.Fleet.ExtendedEvents(httpx.User(c), q)
	if err != nil {
		return err
	}
	return c.JSON(events)
}

// I1
func (h *handlers) alarmAnalytics(c *fiber.Ctx) error {
	ids, err := httpx.QueryIDs(c, "deviceId")
	if err != nil {
		return err
	}
	from, to, err := timeRange(c)
	if err != nil {
		return err
	}
	out, err := h.core.Fleet.AlarmAnalytics(httpx.User(c), ids, from, to)
	if err != nil {
		return err
	}
	return c.JSON(out)
}
