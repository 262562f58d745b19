// Package httpx is the HTTP plumbing shared by fleetd's APIs: the one error
// handler, authentication, request decoding, query parsing and rendering.
package httpx

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// ErrorBody is the JSON shape of every error answer.
type ErrorBody struct {
	Message     string `json:"message"`
	Description string `json:"description,omitempty"`
}

// classStatus maps the core's error classes to HTTP. Conflicts answer 400 as
// Traccar does for duplicate unique values.
var classStatus = map[model.Class]int{
	model.ClassInvalid:      fiber.StatusBadRequest,
	model.ClassConflict:     fiber.StatusBadRequest,
	model.ClassUnauthorized: fiber.StatusUnauthorized,
	model.ClassForbidden:    fiber.StatusForbidden,
	model.ClassNotFound:     fiber.StatusNotFound,
	model.ClassTooMany:      fiber.StatusTooManyRequests,
	model.ClassUnavailable:  fiber.StatusServiceUnavailable,
	model.ClassNoSpace:      fiber.StatusInsufficientStorage,
}

var internalError = ErrorBody{
	Message:     "Internal server error",
	Description: "The request could not be completed; the error has been logged",
}

// ErrorHandler is the Fiber ErrorHandler: every error a handler returns, a
// recovered panic included, leaves the server as one JSON shape. Expected
// errors keep their text; anything else is logged and answered with a
// generic 500 so no internal detail reaches the client. A full disk (507)
// is logged too: the operator must make room.
func ErrorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		status, body := Classify(err)
		if status == fiber.StatusInternalServerError || status == fiber.StatusInsufficientStorage {
			log.Error("request failed", "method", c.Method(), "path", c.Path(), "err", err)
		}
		return c.Status(status).JSON(body)
	}
}

// Text is the error explained to a person: the description, else the message.
func (b ErrorBody) Text() string {
	if b.Description != "" {
		return b.Description
	}
	return b.Message
}

// Classify returns the status and body err is answered with.
func Classify(err error) (int, ErrorBody) {
	if ae, ok := model.AsError(err); ok {
		if status, ok := classStatus[ae.Class]; ok {
			return status, ErrorBody{Message: ae.Message, Description: ae.Description}
		}
	}
	var fe *fiber.Error
	if errors.As(err, &fe) && fe.Code >= 400 && fe.Code < 500 {
		body := ErrorBody{Message: http.StatusText(fe.Code), Description: fe.Message}
		if body.Message == "" {
			body.Message = "Request failed"
		}
		if body.Description == body.Message {
			body.Description = ""
		}
		return fe.Code, body
	}
	return fiber.StatusInternalServerError, internalError
}
