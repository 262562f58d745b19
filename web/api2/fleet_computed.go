package api2

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// mileageFailure is J1's error shape.
type mileageFailure struct {
	Message string `json:"message"`
	Error   string `json:"error"`
}

// J1
func (h *handlers) connectMileage(c *fiber.Ctx) error {
	var body struct {
		VehicleID string `json:"vehicleId"`
		Mileage   string `json:"mileage"`
	}
	created, err := func() (bool, error) {
		if err := httpx.DecodeJSON(c, &body); err != nil {
			return false, err
		}
		if body.VehicleID == "" {
			return false, model.Invalid("vehicleId is required")
		}
		id, err := model.ParseTextID(body.VehicleID)
		if err != nil {
			return false, model.Invalid("vehicle %s not found", body.VehicleID)
		}
		return h.core.Fleet.ConnectMileage(httpx.User(c), int64(id), body.Mileage)
	}()
	switch kind := model.ClassOf(err); {
	case err == nil && created:
		return c.Status(fiber.StatusCreated).JSON(httpx.ErrorBody{Message: msgMileage})
	case err == nil:
		return c.JSON(httpx.ErrorBody{Message: msgMileage})
	case kind == model.ClassForbidden || kind == model.ClassUnauthorized:
		return c.Status(fiber.StatusUnauthorized).JSON(mileageFailure{msgRequestsFailed, detail(err)})
	case kind == 0:
		return err // internal: the one error handler logs it
	default:
		return c.Status(fiber.StatusBadRequest).JSON(mileageFailure{msgRequestsFailed, detail(err)})
	}
}

// detail is an expected error's explanation for a person.
func detail(err error) string {
	_, body := httpx.Classify(err)
	return body.Text()
}
