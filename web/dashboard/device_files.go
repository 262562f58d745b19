package dashboard

import (
	"mime"
	"net/url"
	"strings"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// deviceFile sends a file a device sent (a photo, a voice message) to
// those who see the device: photos inline for the vehicle page, the rest
// as downloads (browsers play no AMR).
func (d *Dashboard) deviceFile(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	name, err := httpx.Param(c, "name")
	if err != nil {
		return err
	}
	b, err := d.core.Fleet.DeviceMedia(user(c), id, name)
	if err != nil {
		return err
	}
	disposition := "attachment"
	if isPhoto(b.Type) {
		disposition = "inline"
	}
	c.Set(fiber.HeaderContentType, b.Type)
	c.Set(fiber.HeaderContentDisposition, mime.FormatMediaType(disposition, map[string]string{"filename": name}))
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderCacheControl, "private, max-age=86400") // a name is never reused
	return c.Send(b.Data)
}

// isPhoto tells the files the page shows as pictures.
func isPhoto(contentType string) bool { return strings.HasPrefix(contentType, "image/") }

func deviceFileURL(deviceID int64, f fleet.DeviceFile) string {
	return vehicleURL(deviceID) + "/files/" + url.PathEscape(f.Name)
}

// fileKind names a device file for people.
func fileKind(f fleet.DeviceFile) string {
	switch {
	case isPhoto(f.Type):
		return "Photo"
	case strings.HasPrefix(f.Type, "audio/"):
		return "Voice message"
	case strings.HasPrefix(f.Type, "video/"):
		return "Video"
	}
	return "File"
}
