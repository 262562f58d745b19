package api2

import (
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
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
	limit, err := httpx.QueryInt(c, "limit", 1, maxListItems)
	if err != nil {
		return model.Query{}, err
	}
	limit = min(limit, maxListItems)
	offset, err := httpx.QueryInt(c, "offset", 0, 0)
	if err != nil {
		return model.Query{}, err
	}
	page, err := httpx.QueryInt(c, "page", 1, 0)
	switch {
	case err != nil:
		return model.Query{}, err
	case page > 0 && c.Query("offset") != "":
		return model.Query{}, model.Invalid("give offset or page, not both")
	case page > 0:
		return model.PageQuery(page, limit), nil
	}
	return model.Query{Offset: offset, Limit: limit}, nil
}
