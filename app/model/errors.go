package model

import (
	"errors"
	"fmt"
	"syscall"
)

// Class classifies an error so every adapter (HTTP, CLI, device listener) can
// map it to its own vocabulary in one place.
type Class int

const (
	ClassInvalid      Class = iota + 1 // bad input: HTTP 400
	ClassUnauthorized                  // not authenticated: HTTP 401
	ClassForbidden                     // authenticated but not allowed: HTTP 403
	ClassNotFound                      // missing or not visible to the caller: HTTP 404
	ClassConflict                      // unique value taken: HTTP 400 (Traccar answers 400)
	ClassTooMany                       // throttled: HTTP 429
	ClassUnavailable                   // server in maintenance or store down: HTTP 503/403
	ClassNoSpace                       // the disk is full: HTTP 507
)

// Error is the one error type the core returns for expected failures.
// Message is short and stable; Description explains it to a person.
type Error struct {
	Class       Class
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
	return ok && t.Class == e.Class && (t.Message == "" || t.Message == e.Message)
}

// Sentinels matched by kind only (empty Message), for errors.Is.
var (
	ErrNotFound  = &Error{Class: ClassNotFound}
	ErrConflict  = &Error{Class: ClassConflict}
	ErrForbidden = &Error{Class: ClassForbidden}
	ErrInvalid   = &Error{Class: ClassInvalid}
)

func Invalid(format string, args ...any) *Error {
	return &Error{Class: ClassInvalid, Message: "Invalid request", Description: fmt.Sprintf(format, args...)}
}

func NotFound(what string) *Error {
	return &Error{Class: ClassNotFound, Message: "Not found", Description: what + " not found"}
}

func Forbidden(format string, args ...any) *Error {
	return &Error{Class: ClassForbidden, Message: "Forbidden", Description: fmt.Sprintf(format, args...)}
}

func Conflict(format string, args ...any) *Error {
	return &Error{Class: ClassConflict, Message: "Duplicate value", Description: fmt.Sprintf(format, args...)}
}

func Unauthorized(desc string) *Error {
	return &Error{Class: ClassUnauthorized, Message: "Unauthorized", Description: desc}
}

// ClassOf returns the Class of err, or 0 for unexpected (internal) errors.
func ClassOf(err error) Class {
	if e, ok := AsError(err); ok {
		return e.Class
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

// ErrNoSpace refuses a write the disk has no room for (HTTP 507). Any error
// that wraps ENOSPC or EDQUOT is one (AsError).
var ErrNoSpace = &Error{Class: ClassNoSpace, Message: "Insufficient storage",
	Description: "The server's disk is full, so nothing was stored; try again once the administrator has made room"}

// outOfSpace reports an error of a write the disk had no room for: the
// disk is full (ENOSPC) or the user's quota is (EDQUOT).
func outOfSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
