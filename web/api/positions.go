package api

import (
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// listPositions is D1: a device's positions in [from, to], positions by
// repeated id, or with no parameters the latest position of every device
// the caller sees.
func (h *handlers) listPositions(c *fiber.Ctx) error {
	var q fleet.PositionQuery
	var err error
	if q.DeviceID, q.From, q.To, err = deviceRange(c); err != nil {
		return err
	}
	if q.IDs, err = httpx.QueryIDs(c, "id"); err != nil {
		return err
	}
	if q.DeviceID != 0 {
		return h.streamHistory(c, q)
	}
	list, err := h.core.Fleet.Positions(httpx.User(c), q)
	return send(c, list, err)
}

// streamHistory answers a device's range as a chunked JSON array written
// while it is read, so a year of history needs no more memory than a page
// of it, and as long as the client keeps taking it (httpx.StreamWriter).
// Errors found before the first byte (range, access) are ordinary error
// responses; one after it can only cut the array short, and is logged.
func (h *handlers) streamHistory(c *fiber.Ctx, q fleet.PositionQuery) error {
	history, err := h.core.Fleet.PositionHistory(httpx.User(c), q.DeviceID, q.From, q.To)
	if err != nil {
		return err
	}
	h.streamArray(c, "position history", func(emit func(any) error) error {
		return history.Each(func(p *model.Position) error { return emit(p) })
	})
	return nil
}

// deletePositions is D2; deviceId, from and to are all required (the core
// says so when one is missing).
func (h *handlers) deletePositions(c *fiber.Ctx) error {
	deviceID, from, to, err := deviceRange(c)
	if err != nil {
		return err
	}
	return noContent(c, h.core.Fleet.DeletePositions(httpx.User(c), deviceID, from, to))
}

// deviceRange reads deviceId, from and to.
func deviceRange(c *fiber.Ctx) (deviceID int64, from, to time.Time, err error) {
	if deviceID, err = httpx.QueryID(c, "deviceId"); err != nil {
		return
	}
	if from, err = httpx.QueryTime(c, "from"); err != nil {
		return
	}
	to, err = httpx.QueryTime(c, "to")
	return
}

// getEvent is E1. The spec documents Basic plus the cookie; either one
// authenticates here, as for every other endpoint.
func (h *handlers) getEvent(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	e, err := h.core.Fleet.Event(httpx.User(c), id)
	return send(c, e, err)
}
