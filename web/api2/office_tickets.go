package api2

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// F1: the caller's tickets (an administrator's: all), searched and paged.
func (h *handlers) listTickets(c *fiber.Ctx) error {
	p, err := readPaging(c, 10)
	if err != nil {
		return err
	}
	list, err := h.core.Office.Tickets(httpx.User(c), office.TicketQuery{Search: c.Query("search"), Status: c.Query("status")})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"page": p.page, "limit": p.limit, "total": len(list), "data": pageOf(list, p)})
}

// F2: the answer names the new ticket; id is our addition, so the client
// can open it (F3) without listing.
func (h *handlers) createTicket(c *fiber.Ctx) error {
	t, err := h.core.Office.CreateTicket(httpx.User(c), func(t *model.Ticket) error { return httpx.Decode(c, t) })
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "data": fiber.Map{"id": t.ID, "ticket_no": t.TicketNo, "title": t.Title}})
}

// F3
func (h *handlers) getTicket(c *fiber.Ctx) error {
	id, err := pathID(c, "ticketId", "Ticket")
	if err != nil {
		return err
	}
	t, err := h.core.Office.Ticket(httpx.User(c), id)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

// F4
func (h *handlers) deleteTicket(c *fiber.Ctx) error {
	id, err := pathID(c, "ticketId", "Ticket")
	if err != nil {
		return err
	}
	if err := h.core.Office.DeleteTicket(httpx.User(c), id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "message": msgTicketDeleted})
}

// Our extension: PUT /support/tickets/:ticketId/status {"status"}.
func (h *handlers) setTicketStatus(c *fiber.Ctx) error {
	id, err := pathID(c, "ticketId", "Ticket")
	if err != nil {
		return err
	}
	var in struct{ Status string }
	if err := httpx.DecodeJSON(c, &in); err != nil {
		return err
	}
	t, err := h.core.Office.SetTicketStatus(httpx.User(c), id, in.Status)
	if err != nil {
		return err
	}
	return c.JSON(t)
}

// F5: oldest first, as a conversation reads; paged like G1.
func (h *handlers) listResponses(c *fiber.Ctx) error {
	id, err := pathID(c, "ticketId", "Ticket")
	if err != nil {
		return err
	}
	q, err := readWindow(c)
	if err != nil {
		return err
	}
	list, total, err := h.core.Office.TicketResponses(httpx.User(c), id, q)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"total": total, "data": list})
}

// F6: the spec's body names the text content; message is accepted too.
func (h *handlers) respond(c *fiber.Ctx) error {
	var in struct {
		TicketID model.TextID   `json:"ticketId"`
		Content  string         `json:"content"`
		Message  string         `json:"message"`
		FileIDs  []model.TextID `json:"fileIds"`
	}
	if err := httpx.DecodeJSON(c, &in); err != nil {
		return err
	}
	if in.TicketID == 0 {
		return model.Invalid("ticketId is required")
	}
	text := in.Content
	if text == "" {
		text = in.Message
	}
	r, err := h.core.Office.Respond(httpx.User(c), int64(in.TicketID), text, in.FileIDs)
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// F7: the whole response comes back (ticket_id and message included).
func (h *handlers) updateResponse(c *fiber.Ctx) error {
	id, err := pathID(c, "responseId", "Response")
	if err != nil {
		return err
	}
	r, err := h.core.Office.UpdateResponse(httpx.User(c), id, func(r *model.TicketResponse) error {
		return httpx.Decode(c, r)
	})
	if err != nil {
		return err
	}
	return c.JSON(r)
}

// F8
func (h *handlers) deleteResponse(c *fiber.Ctx) error {
	id, err := pathID(c, "responseId", "Response")
	if err != nil {
		return err
	}
	if err := h.core.Office.DeleteResponse(httpx.User(c), id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"success": true, "message": msgResponseDeleted})
}
