package httpx

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// timeLayouts are the ISO 8601 forms clients send: RFC 3339 with or without
// fractional seconds (time.RFC3339 parses both), and the colon-less offset
// some Java clients produce.
var timeLayouts = []string{time.RFC3339, "2006-01-02T15:04:05.999999999Z0700"}

// ParseTime parses an ISO 8601 timestamp and returns it in UTC.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// QueryTime reads an optional timestamp parameter; absent is the zero time.
func QueryTime(c *fiber.Ctx, name string) (time.Time, error) {
	s := c.Query(name)
	if s == "" {
		return time.Time{}, nil
	}
	t, ok := ParseTime(s)
	if !ok {
		return time.Time{}, model.Invalid("%s must be an ISO 8601 timestamp (like 2024-01-01T00:00:00Z), not %q", name, s)
	}
	return t, nil
}

// QueryID reads an optional id parameter; absent is 0.
func QueryID(c *fiber.Ctx, name string) (int64, error) {
	s := c.Query(name)
	if s == "" {
		return 0, nil
	}
	return parseID(name, s)
}

// QueryIDs reads a repeatable id parameter (?id=1&id=2).
func QueryIDs(c *fiber.Ctx, name string) ([]int64, error) {
	var ids []int64
	for _, raw := range c.Context().QueryArgs().PeekMulti(name) {
		id, err := parseID(name, string(raw))
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// QueryStrings reads a repeatable string parameter.
func QueryStrings(c *fiber.Ctx, name string) []string {
	var out []string
	for _, raw := range c.Context().QueryArgs().PeekMulti(name) {
		out = append(out, string(raw))
	}
	return out
}

// QueryBool reads an optional boolean parameter; absent is false.
func QueryBool(c *fiber.Ctx, name string) (bool, error) {
	s := c.Query(name)
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return false, model.Invalid("%s must be true or false, not %q", name, s)
	}
	return b, nil
}

// QueryInt reads an optional whole-number parameter of at least least
// (paging's limit, offset, page); absent is def.
func QueryInt(c *fiber.Ctx, name string, least, def int) (int, error) {
	s := c.Query(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < least {
		return 0, model.Invalid("%s must be a whole number from %d, not %q", name, least, s)
	}
	return n, nil
}

// ParamID reads the :id path parameter.
func ParamID(c *fiber.Ctx) (int64, error) { return parseID("id", c.Params("id")) }

func parseID(name, s string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || id <= 0 {
		return 0, model.Invalid("%s must be a positive integer, not %q", name, s)
	}
	return id, nil
}

// Param reads a path parameter as the client meant it: Fiber gives path
// parameters as sent, percent-escapes included ("a%2F..").
func Param(c *fiber.Ctx, name string) (string, error) {
	v, err := url.PathUnescape(c.Params(name))
	if err != nil {
		return "", model.Invalid("path parameter %s is not a valid escaped path: %v", name, err)
	}
	return v, nil
}
