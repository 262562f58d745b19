package api

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// uploadDeviceImage stores the body (an image, its type in Content-Type)
// as the device's picture and answers its file name as text, as Traccar.
func (h *handlers) uploadDeviceImage(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	name, err := h.core.Fleet.SetDeviceImage(httpx.User(c), id, c.Get(fiber.HeaderContentType), c.Body())
	if err != nil {
		return err
	}
	return c.SendString(name)
}

// media serves a device's file to those who see the device.
func (h *handlers) media(c *fiber.Ctx) error {
	uniqueID, err := httpx.Param(c, "uniqueId")
	if err != nil {
		return err
	}
	name, err := httpx.Param(c, "name")
	if err != nil {
		return err
	}
	b, err := h.core.Fleet.Media(httpx.User(c), uniqueID, name)
	return sendBlob(c, b, err)
}

// uploadWebFile stores the body as a web file; administrators only.
func (h *handlers) uploadWebFile(c *fiber.Ctx) error {
	name, err := httpx.Param(c, "*")
	if err != nil {
		return err
	}
	return noContent(c, h.core.Accounts.UploadWebFile(httpx.User(c), name, c.Body()))
}

// webFile serves an uploaded web file to anyone.
func (h *handlers) webFile(c *fiber.Ctx) error {
	name, err := httpx.Param(c, "*")
	if err != nil {
		return err
	}
	b, err := h.core.Accounts.WebFile(name)
	return sendBlob(c, b, err)
}

// sendBlob answers a stored file. A sandboxing policy keeps an HTML or SVG
// file served from the API's origin from running script there.
func sendBlob(c *fiber.Ctx, b *model.Blob, err error) error {
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, b.Type)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	return c.Send(b.Data)
}

// reboot restarts the server (app/ops.RequestRestart) once this answer
// is sent.
func (h *handlers) reboot(c *fiber.Ctx) error {
	return noContent(c, h.core.Ops.RequestRestart(httpx.User(c)))
}
