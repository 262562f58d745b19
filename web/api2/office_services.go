package api2

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// L1: query vehicleId, from, to (ISO 8601, inclusive, on serviceDate),
// page (1), limit (10, at most 100); latest service first.
func (h *handlers) listServiceRecords(c *fiber.Ctx) error {
	p, err := readPaging(c, 10)
	if err != nil {
		return err
	}
	var q office.ServiceQuery
	if s := c.Query("vehicleId"); s != "" {
		id, err := model.ParseTextID(s)
		if err != nil {
			return model.Invalid("vehicleId must be a device id, not %q", s)
		}
		q.VehicleID = int64(id)
	}
	if q.From, err = queryDate(c, "from"); err != nil {
		return err
	}
	if q.To, err = queryDate(c, "to"); err != nil {
		return err
	}
	list, err := h.core.Office.ServiceRecords(httpx.User(c), q)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"documents": pageOf(list, p), "pagination": fiber.Map{
		"currentPage": p.page, "totalPages": p.pages(len(list)), "totalRecords": len(list)}})
}

// queryDate reads an optional date or timestamp parameter; a bare date
// as "to" means through the end of that day.
func queryDate(c *fiber.Ctx, name string) (time.Time, error) {
	s := c.Query(name)
	if s == "" {
		return time.Time{}, nil
	}
	d, err := model.ParseDate(s)
	if err != nil {
		return time.Time{}, model.Invalid("%s must be an ISO 8601 date or timestamp, not %q", name, s)
	}
	if name == "to" && len(s) == len(time.DateOnly) {
		return d.AddDate(0, 0, 1).Add(-time.Nanosecond), nil
	}
	return d.Time, nil
}

// L2
func (h *handlers) getServiceRecord(c *fiber.Ctx) error {
	id, err := pathID(c, "serviceId", "Service record")
	if err != nil {
		return err
	}
	r, err := h.core.Office.ServiceRecord(httpx.User(c), id)
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// L3
func (h *handlers) createServiceRecord(c *fiber.Ctx) error {
	r, err := h.core.Office.CreateServiceRecord(httpx.User(c), func(r *model.ServiceRecord) error { return httpx.Decode(c, r) })
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(r)
}

// L4: fields absent from the body keep their value.
func (h *handlers) updateServiceRecord(c *fiber.Ctx) error {
	id, err := pathID(c, "serviceId", "Service record")
	if err != nil {
		return err
	}
	_, err = h.core.Office.UpdateServiceRecord(httpx.User(c), id, func(r *model.ServiceRecord) error { return httpx.Decode(c, r) })
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgRecordUpdated})
}

// L5: the record's files go with it.
func (h *handlers) deleteServiceRecord(c *fiber.Ctx) error {
	id, err := pathID(c, "serviceId", "Service record")
	if err != nil {
		return err
	}
	if err := h.core.Office.DeleteServiceRecord(httpx.User(c), id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgRecordDeleted})
}

// taskLabel reads {"label"} from the body, or ?label= for clients that
// cannot send a body with DELETE.
func taskLabel(c *fiber.Ctx) (string, error) {
	var in struct{ Label string }
	if len(c.Body()) > 0 {
		if err := httpx.DecodeJSON(c, &in); err != nil {
			return "", err
		}
	}
	if in.Label == "" {
		in.Label = c.Query("label")
	}
	return in.Label, nil
}

// L6
func (h *handlers) createServiceTask(c *fiber.Ctx) error {
	label, err := taskLabel(c)
	if err != nil {
		return err
	}
	t, err := h.core.Office.CreateServiceTask(httpx.User(c), label)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(t)
}

// L7: public tasks (userId null), then the caller's own.
func (h *handlers) listServiceTasks(c *fiber.Ctx) error {
	list, err := h.core.Office.ServiceTasks(httpx.User(c))
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// L8: only the caller's own task with that label.
func (h *handlers) deleteServiceTask(c *fiber.Ctx) error {
	label, err := taskLabel(c)
	if err != nil {
		return err
	}
	if err := h.core.Office.DeleteServiceTask(httpx.User(c), label); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgTaskDeleted})
}
