package api2

import (
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	"github.com/gofiber/fiber/v2"
)

// maxListItems bounds the lists that had no bound (G1 documents, G5 expiry
// information, F5 responses, payments): without limit they answer their
// first maxListItems items, a cap no client with fewer ever notices, and a
// larger limit is cut to it. Their total still counts every item (in the
// body, or in X-Total-Count for payments, whose body is a bare array).
const maxListItems = 1000

// totalHeader is the total of a list whose body has no room for it.
const totalHeader = "X-Total-Count"

// readWindow reads the part of such a list a client asks for: limit (from
// 1, default and at most maxListItems), and offset (from 0) or page (from
// 1, of limit items), not both. Anything else is 400.
func readWindow(c *fiber.Ctx) (model.Query, error) {
	var n [3]int
	for i, name := range []string{"limit", "offset", "page"} {
		s := c.Query(name)
		if s == "" {
			continue
		}
		v, err := strconv.Atoi(strings.TrimSpace(s))
		least := 1
		if name == "offset" {
			least = 0
		}
		if err != nil || v < least {
			return model.Query{}, model.Invalid("%s must be a whole number from %d, not %q", name, least, s)
		}
		n[i] = v
	}
	limit, offset, page := min(n[0], maxListItems), n[1], n[2]
	if limit == 0 {
		limit = maxListItems
	}
	switch {
	case page > 0 && c.Query("offset") != "":
		return model.Query{}, model.Invalid("give offset or page, not both")
	case page > 0:
		return model.PageQuery(page, limit), nil
	}
	return model.Query{Offset: offset, Limit: limit}, nil
}
