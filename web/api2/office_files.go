package api2

import (
	"errors"
	"fmt"
	"mime"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// Files are our extension: fileIds on tickets, responses, documents and
// service records name files uploaded here first.

// POST /files: multipart/form-data with the form field "file".
func (h *handlers) uploadFile(c *fiber.Ctx) error {
	fh, err := c.FormFile("file")
	if err != nil {
		return model.Invalid("send the file as multipart/form-data in the form field \"file\"")
	}
	if limit := h.core.Office.MaxFileSize(); fh.Size > limit {
		return tooLarge(limit)
	}
	content, err := fh.Open()
	if err != nil {
		return err
	}
	defer content.Close()
	f, err := h.core.Office.UploadFile(httpx.User(c), fh.Filename, fh.Header.Get(fiber.HeaderContentType), fh.Size, content)
	if errors.Is(err, office.ErrFileTooLarge) {
		return tooLarge(h.core.Office.MaxFileSize())
	}
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(f)
}

func tooLarge(limit int64) error {
	return fiber.NewError(fiber.StatusRequestEntityTooLarge, fmt.Sprintf("files may have at most %d bytes", limit))
}

// GET /files/:fileId: the content, to the owner, administrators and who
// may read the ticket it is attached to.
func (h *handlers) downloadFile(c *fiber.Ctx) error {
	id, err := pathID(c, "fileId", "File")
	if err != nil {
		return err
	}
	f, content, err := h.core.Office.OpenFile(httpx.User(c), id)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, f.Type)
	c.Set(fiber.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": f.Name}))
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	return httpx.SendStream(c, content, int(f.Size)) // closes content once sent
}

// DELETE /files/:fileId: only a file no record uses.
func (h *handlers) deleteFile(c *fiber.Ctx) error {
	id, err := pathID(c, "fileId", "File")
	if err != nil {
		return err
	}
	if err := h.core.Office.DeleteFile(httpx.User(c), id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": msgFileDeleted, "fileId": model.TextID(id)})
}
