package api2

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// officeRoutes are spec sections F (support tickets), G (documents) and L
// (maintenance), plus the files they attach; see docs/office.md.
func (h *handlers) officeRoutes() []route {
	post, put, get, del := fiber.MethodPost, fiber.MethodPut, fiber.MethodGet, fiber.MethodDelete
	return []route{
		{get, "/support/tickets", session, h.listTickets},
		{post, "/support/tickets", session, h.createTicket},
		{post, "/support/tickets/respond", session, h.respond},
		{put, "/support/tickets/responses/:responseId", session, h.updateResponse},
		{del, "/support/tickets/responses/:responseId", session, h.deleteResponse},
		{get, "/support/tickets/:ticketId", session, h.getTicket},
		{del, "/support/tickets/:ticketId", session, h.deleteTicket},
		{get, "/support/tickets/:ticketId/responses", session, h.listResponses},
		{put, "/support/tickets/:ticketId/status", session, h.setTicketStatus},

		{post, "/files", session, httpx.Upload(h.uploadFile)},
		{get, "/files/:fileId", session, h.downloadFile},
		{del, "/files/:fileId", session, h.deleteFile},

		{get, "/documents", session, h.listDocuments},
		{post, "/documents", session, h.createDocument},
		{get, "/documents/expiry-info", session, h.expiryInfo},
		{get, "/documents/:docId", session, h.getDocument},
		{put, "/documents/:docId", session, h.updateDocument},
		{del, "/documents/:docId", session, h.deleteDocument},

		{get, "/services/history", session, h.listServiceRecords},
		{post, "/services/history", session, h.createServiceRecord},
		{get, "/services/history/:serviceId", session, h.getServiceRecord},
		{put, "/services/history/:serviceId", session, h.updateServiceRecord},
		{del, "/services/history/:serviceId", session, h.deleteServiceRecord},
		{post, "/services/task", session, h.createServiceTask},
		{get, "/services/task", session, h.listServiceTasks},
		{del, "/services/task", session, h.deleteServiceTask},
	}
}

// The spec's success messages of this area (files are our extension).
const (
	msgTicketDeleted   = "Ticket deleted successfully!"
	msgResponseDeleted = "Response deleted successfully!"
	msgDocumentDeleted = "Document deleted successfully"
	msgFileDeleted     = "File deleted successfully"
	msgRecordUpdated   = "Record updated successfully"
	msgRecordDeleted   = "Record deleted successfully"
	msgTaskDeleted     = "Task deleted"
)

// pathID reads an id path parameter. v2 ids are opaque strings to
// clients, so one that cannot exist is simply not found.
func pathID(c *fiber.Ctx, param, what string) (int64, error) {
	id, err := model.ParseTextID(c.Params(param))
	if err != nil {
		return 0, model.NotFound(what)
	}
	return int64(id), nil
}

// Paging of F1 and L1: page from 1, limit from 1, at most maxLimit.
const maxLimit = 100

type paging struct{ page, limit int }

func readPaging(c *fiber.Ctx, defaultLimit int) (p paging, err error) {
	if p.page, err = httpx.QueryInt(c, "page", 1, 1); err == nil {
		p.limit, err = httpx.QueryInt(c, "limit", 1, defaultLimit)
	}
	p.limit = min(p.limit, maxLimit)
	return p, err
}

// pageOf is the page's part of list (empty past the last page).
func pageOf[T any](list []T, p paging) []T {
	return model.Window(list, model.PageQuery(p.page, p.limit))
}

// pages is how many pages total items fill (0 for none).
func (p paging) pages(total int) int { return (total + p.limit - 1) / p.limit }
