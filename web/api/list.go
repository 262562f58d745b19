package api

import (
	"strconv"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// totalHeader carries a list's number of matches before limit and offset
// cut it, so a client can page without guessing: Traccar's answer is the
// bare array, which stays as it is.
const totalHeader = "X-Total-Count"

// listQuery reads the parameters every Traccar list takes for paging and
// search (BaseObjectResource and its kinds, UserResource): limit, absent or
// 0 for everything as Traccar's clients expect; offset, which counts only
// with a limit (in Traccar it is SQL's OFFSET after LIMIT); keyword, a
// case-insensitive substring of the kind's searched fields.
func listQuery(c *fiber.Ctx) (q model.Query, err error) {
	q.Keyword = c.Query("keyword")
	if q.Limit, err = httpx.QueryInt(c, "limit", 0, 0); err == nil {
		q.Offset, err = httpx.QueryInt(c, "offset", 0, 0)
	}
	if q.Limit == 0 {
		q.Offset = 0
	}
	return q, err
}

// sendList renders one page of a list with its total.
func sendList[T any](c *fiber.Ctx, items []T, total int, err error) error {
	if err != nil {
		return err
	}
	c.Set(totalHeader, strconv.Itoa(total))
	return c.JSON(items)
}
