package api2

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// G1: the caller's documents, newest first; limit and offset or page
// (readWindow) pick a part, total counts them all.
func (h *handlers) listDocuments(c *fiber.Ctx) error {
	q, err := readWindow(c)
	if err != nil {
		return err
	}
	list, total, err := h.core.Office.Documents(httpx.User(c), q)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"total": total, "documents": list})
}

// Creating a document is "not shown" in the spec: POST /documents takes
// G3's fields and answers 201 with the document.
func (h *handlers) createDocument(c *fiber.Ctx) error {
	d, err := h.core.Office.CreateDocument(httpx.User(c), func(d *model.Document) error { return httpx.Decode(c, d) })
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(d)
}

// expiry is one entry of G5: the spec's fields plus entityId, status and
// daysLeft (whole UTC days; negative once expired).
type expiry struct {
	ID           model.TextID `json:"$id"`
	CreatedAt    time.Time    `json:"$createdAt"`
	UpdatedAt    time.Time    `json:"$updatedAt"`
	DocumentOf   string       `json:"documentOf"`
	EntityID     model.TextID `json:"entityId"`
	DocumentType string       `json:"documentType"`
	ExpiryDate   model.Date   `json:"expiryDate"`
	IssuedDate   model.Date   `json:"issuedDate"`
	Status       string       `json:"status"`
	DaysLeft     int          `json:"daysLeft"`
}

// G5: documents with an expiry date, soonest first, paged like G1.
func (h *handlers) expiryInfo(c *fiber.Ctx) error {
	q, err := readWindow(c)
	if err != nil {
		return err
	}
	all, err := h.core.Office.ExpiringDocuments(httpx.User(c))
	if err != nil {
		return err
	}
	list := model.Window(all, q)
	out := make([]expiry, len(list))
	for i, d := range list {
		out[i] = expiry{ID: d.ID, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt, DocumentOf: d.DocumentOf,
			EntityID: d.EntityID, DocumentType: d.DocumentType, ExpiryDate: d.ExpiryDate, IssuedDate: d.IssuedDate,
			Status: d.Status, DaysLeft: h.core.Office.DaysUntil(d.ExpiryDate)}
	}
	return c.JSON(fiber.Map{"total": len(all), "documents": out})
}

// G2
func (h *handlers) getDocument(c *fiber.Ctx) error {
	id, err := pathID(c, "docId", "Document")
	if err != nil {
		return err
	}
	d, err := h.core.Office.Document(httpx.User(c), id)
	if err != nil {
		return err
	}
	return c.JSON(d)
}

// G3: fields absent from the body keep their value.
func (h *handlers) updateDocument(c *fiber.Ctx) error {
	id, err := pathID(c, "docId", "Document")
	if err != nil {
		return err
	}
	d, err := h.core.Office.UpdateDocument(httpx.User(c), id, func(d *model.Document) error { return httpx.Decode(c, d) })
	if err != nil {
		return err
	}
	return c.JSON(d)
}

// G4: the document's files go with it.
func (h *handlers) deleteDocument(c *fiber.Ctx) error {
	id, err := pathID(c, "docId", "Document")
	if err != nil {
		return err
	}
	if err := h.core.Office.DeleteDocument(httpx.User(c), id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgDocumentDeleted, "documentId": model.TextID(id)})
}
