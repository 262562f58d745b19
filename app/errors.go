package app

import (
	"errors"
	"fmt"
)

// Kind classifies an error so every adapter (HTTP, CLI, device listener) can
// map it to its own vocabulary in one place.
type Kind int

const (
	KindInvalid      Kind = iota + 1 // bad input: HTTP 400
	KindUnauthorized                 // not authenticated: HTTP 401
	KindForbidden                    // authenticated but not allowed: HTTP 403
	KindNotFound                     // missing or not visible to the caller: HTTP 404
	KindConflict                     // unique value taken: HTTP 400 (Traccar answers 400)
	KindTooMany                      // throttled: HTTP 429
	KindUnavailable                  // server in maintenance or store down: HTTP 503/403
	KindNoSpace                      // the disk is full: HTTP 507
)

// Error is the one error type the core returns for expected failures.
// Message is short and stable; Description explains it to a person.
type Error struct {
	Kind        Kind
	Message     string
	Description string
}

func (e *Error) Error() string {
	if e.Description == "" {
		return e.Message
	}
	return e.Message + ": " + e.Description
}

// Is makes errors.Is(err, ErrNotFound) match any not-found error, whatever its text.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && (t.Message == "" || t.Message == e.Message)
}

// Sentinels matched by kind only (empty Message), for errors.Is.
var (
	ErrNotFound  = &Error{Kind: KindNotFound}
	ErrConflict  = &Error{Kind: KindConflict}
	ErrForbidden = &Error{Kind: KindForbidden}
	ErrInvalid   = &Error{Kind: KindInvalid}
)

func Invalid(format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Message: "Invalid request", Description: fmt.Sprintf(format, args...)}
}

func NotFound(what string) *Error {
	return &Error{Kind: KindNotFound, Message: "Not found", Description: what + " not found"}
}

func Forbidden(format string, args ...any) *Error {
	return &Error{Kind: KindForbidden, Message: "Forbidden", Description: fmt.Sprintf(format, args...)}
}

func Conflict(format string, args ...any) *Error {
	return &Error{Kind: KindConflict, Message: "Duplicate value", Description: fmt.Sprintf(format, args...)}
}

func Unauthorized(desc string) *Error {
	return &Error{Kind: KindUnauthorized, Message: "Unauthorized", Description: desc}
}

// KindOf returns the Kind of err, or 0 for unexpected (internal) errors.
func KindOf(err error) Kind {
	if e, ok := AsError(err); ok {
		return e.Kind
	}
	return 0
}

// AsError finds the core's Error in err's chain. A write the disk had no
// room for, wherever it failed, is ErrNoSpace.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	if outOfSpace(err) {
		return ErrNoSpace, true
	}
	return nil, false
}
