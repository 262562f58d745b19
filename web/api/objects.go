package api

import (
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// listFilters are the list query parameters a kind takes beyond all and
// userId. Parameters a kind does not take are ignored, as Traccar does.
type listFilters int

const (
	filterIDs   listFilters = 1 << iota // devices: repeated id and uniqueId
	filterLinks                         // commands, geofences: deviceId, groupId
)

// objectAPI is the one handler set for the user-owned kinds (devices,
// groups, commands, geofences), over the core's generic app.Objects.
type objectAPI[T any, P interface {
	*T
	model.Entity
}] struct {
	objs    *fleet.Objects[T, P]
	filters listFilters
}

// objectRoutes lists GET/POST on path and GET/PUT/DELETE on path/:id.
func objectRoutes[T any, P interface {
	*T
	model.Entity
}](path string, objs *fleet.Objects[T, P], filters listFilters) []route {
	o := objectAPI[T, P]{objs: objs, filters: filters}
	item := path + "/:id<int>"
	return []route{
		{fiber.MethodGet, path, required, o.list},
		{fiber.MethodPost, path, required, o.create},
		{fiber.MethodGet, item, required, o.get},
		{fiber.MethodPut, item, required, o.update},
		{fiber.MethodDelete, item, required, o.remove},
	}
}

func (o objectAPI[T, P]) list(c *fiber.Ctx) error {
	q, err := o.query(c)
	if err != nil {
		return err
	}
	list, total, err := o.objs.Page(httpx.User(c), q)
	return sendList(c, list, total, err)
}

func (o objectAPI[T, P]) query(c *fiber.Ctx) (q model.Query, err error) {
	if q, err = listQuery(c); err != nil {
		return q, err
	}
	if q.All, err = httpx.QueryBool(c, "all"); err != nil {
		return q, err
	}
	if q.UserID, err = httpx.QueryID(c, "userId"); err != nil {
		return q, err
	}
	if o.filters&filterIDs != 0 {
		if q.IDs, err = httpx.QueryIDs(c, "id"); err != nil {
			return q, err
		}
		q.UniqueIDs = httpx.QueryStrings(c, "uniqueId")
	}
	if o.filters&filterLinks != 0 {
		if q.DeviceID, err = httpx.QueryID(c, "deviceId"); err != nil {
			return q, err
		}
		q.GroupID, err = httpx.QueryID(c, "groupId")
	}
	return q, err
}

func (o objectAPI[T, P]) get(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	v, err := o.objs.Get(httpx.User(c), id)
	return send(c, v, err)
}

func (o objectAPI[T, P]) create(c *fiber.Ctx) error {
	v, err := o.objs.Create(httpx.User(c), applyBody[T](c))
	return send(c, v, err)
}

func (o objectAPI[T, P]) update(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	v, err := o.objs.Update(httpx.User(c), id, applyBody[T](c))
	return send(c, v, err)
}

func (o objectAPI[T, P]) remove(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	return noContent(c, o.objs.Delete(httpx.User(c), id))
}
