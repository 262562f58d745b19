package httpx

import (
	"errors"
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name   string
		err    error
		status int
		msg    string
	}{
		{"invalid", model.Invalid("bad %s", "x"), 400, "Invalid request"},
		{"conflict answers 400 like Traccar", model.Conflict("taken"), 400, "Duplicate value"},
		{"unauthorized", model.Unauthorized("no"), 401, "Unauthorized"},
		{"forbidden", model.Forbidden("no"), 403, "Forbidden"},
		{"not found", model.NotFound("Device"), 404, "Not found"},
		{"wrapped not found", fmt.Errorf("ctx: %w", model.NotFound("Device")), 404, "Not found"},
		{"throttled", &model.Error{Class: model.ClassTooMany, Message: "Too many requests"}, 429, "Too many requests"},
		{"unavailable", &model.Error{Class: model.ClassUnavailable, Message: "Store unavailable"}, 503, "Store unavailable"},
		{"unknown kind is internal", &model.Error{Class: 99, Message: "odd"}, 500, "Internal server error"},
		{"fiber 404", fiber.ErrNotFound, 404, "Not Found"},
		{"fiber 405", fiber.ErrMethodNotAllowed, 405, "Method Not Allowed"},
		{"fiber 413", fiber.ErrRequestEntityTooLarge, 413, "Request Entity Too Large"},
		{"fiber 500 hides its text", fiber.NewError(500, "db path /var/lib"), 500, "Internal server error"},
		{"plain error hides its text", errors.New("bolt: tx closed"), 500, "Internal server error"},
	} {
		status, body := Classify(c.err)
		if status != c.status || body.Message != c.msg {
			t.Errorf("%s: %d %q, want %d %q", c.name, status, body.Message, c.status, c.msg)
		}
		if status == 500 && body != internalError {
			t.Errorf("%s: 500 body %+v leaks detail", c.name, body)
		}
	}
}
