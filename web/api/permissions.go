package api

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// ownerKinds are the kinds that can own a permission, in the order the
// owner of a pair is chosen: {"userId":1,"deviceId":2} is user -> device.
var ownerKinds = []string{model.KindUser, model.KindDevice, model.KindGroup}

func (h *handlers) link(c *fiber.Ctx) error       { return h.permissions(c, false, h.core.Fleet.Link) }
func (h *handlers) unlink(c *fiber.Ctx) error     { return h.permissions(c, false, h.core.Fleet.Unlink) }
func (h *handlers) linkBulk(c *fiber.Ctx) error   { return h.permissions(c, true, h.core.Fleet.Link) }
func (h *handlers) unlinkBulk(c *fiber.Ctx) error { return h.permissions(c, true, h.core.Fleet.Unlink) }

// permissions parses one permission object (or, for bulk, an array of
// them) and applies them in one core call, so a bulk change is all or
// nothing.
func (h *handlers) permissions(c *fiber.Ctx, bulk bool, apply func(*model.User, ...model.Permission) error) error {
	var objs []map[string]json.RawMessage
	var err error
	if bulk {
		err = httpx.DecodeJSON(c, &objs)
	} else {
		objs = make([]map[string]json.RawMessage, 1)
		err = httpx.DecodeJSON(c, &objs[0])
	}
	if err != nil {
		return err
	}
	ps := make([]model.Permission, 0, len(objs))
	for _, obj := range objs {
		p, err := parsePermission(obj)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	return noContent(c, apply(httpx.User(c), ps...))
}

// permissionID reads an id given as a JSON integer or, as Traccar takes it
// (Jackson coerces scalars) and its web app sends it from the Connections
// pages ({"deviceId":"6","geofenceId":1}), as a string of decimal digits.
func permissionID(raw json.RawMessage) (int64, bool) {
	var id int64
	if json.Unmarshal(raw, &id) == nil {
		return id, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil
}

// parsePermission reads an object of exactly two "<kind>Id" keys.
func parsePermission(obj map[string]json.RawMessage) (model.Permission, error) {
	if len(obj) != 2 {
		return model.Permission{}, model.Invalid("a permission is an object with exactly two <kind>Id keys, like {\"userId\":1,\"deviceId\":2}")
	}
	ids := map[string]int64{}
	for key, raw := range obj {
		kind, ok := strings.CutSuffix(key, "Id")
		if !ok || !slices.Contains(fleet.PermissionKinds, kind) {
			return model.Permission{}, model.Invalid("unknown permission key %q", key)
		}
		id, ok := permissionID(raw)
		if !ok {
			return model.Permission{}, model.Invalid("%s must be an integer id", key)
		}
		ids[kind] = id
	}
	for _, owner := range ownerKinds {
		ownerID, ok := ids[owner]
		if !ok {
			continue
		}
		delete(ids, owner)
		for prop, propID := range ids { // the one key left
			return model.Permission{OwnerKind: owner, OwnerID: ownerID, PropKind: prop, PropID: propID}, nil
		}
	}
	kinds := make([]string, 0, len(ids))
	for k := range ids {
		kinds = append(kinds, k+"Id")
	}
	slices.Sort(kinds)
	return model.Permission{}, model.Invalid("unsupported permission pair %s", strings.Join(kinds, "/"))
}
