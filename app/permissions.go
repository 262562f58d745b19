package app

import (
	"slices"
	"strings"
)

// permissionPairs lists the owner -> property links fleetd supports, as
// Traccar's "<owner>Id"/"<property>Id" pairs. Kinds fleetd has no objects
// for yet (notifications, calendars, maintenance) are
// refused with a clear 400 rather than stored dangling.
var permissionPairs = map[string][]string{
	KindUser:   {KindDevice, KindGroup, KindGeofence, KindCommand, KindDriver, KindAttribute, KindManagedUser},
	KindDevice: {KindGeofence, KindCommand, KindDriver, KindAttribute},
	KindGroup:  {KindGeofence, KindCommand, KindDriver, KindAttribute},
}

// PermissionKinds lists every kind that can appear in a permission, for the
// web layer's parsing of "<kind>Id" keys.
var PermissionKinds = []string{KindUser, KindDevice, KindGroup, KindGeofence, KindCommand, KindManagedUser,
	KindNotification, KindCalendar, KindAttribute, KindDriver, KindMaintenance}

// MaxBulkPermissions bounds one bulk change: it is checked and written in
// one write transaction, which holds the store's single writer.
const MaxBulkPermissions = 1000

func checkBulk(ps []Permission) error {
	if len(ps) > MaxBulkPermissions {
		return Invalid("at most %d permissions per request", MaxBulkPermissions)
	}
	return nil
}

// Link adds permissions (all or none) after checking the actor may see both
// objects of each and may edit; linking a device to a user counts against
// that user's deviceLimit.
func (c *Core) Link(actor *User, ps ...Permission) error {
	if err := checkBulk(ps); err != nil {
		return err
	}
	defer c.hub.invalidate()
	return c.store.Update(func(tx Tx) error {
		for _, p := range ps {
			if err := c.link(tx, actor, p); err != nil {
				return err
			}
		}
		return nil
	})
}

func (c *Core) link(tx Tx, actor *User, p Permission) error {
	if err := c.checkPermission(tx, actor, p); err != nil {
		return err
	}
	if p.OwnerKind == KindUser && p.PropKind == KindDevice {
		owner, err := tx.Users().Get(p.OwnerID)
		if err != nil {
			return err
		}
		linked, err := tx.Linked(KindUser, owner.ID, KindDevice)
		if err != nil {
			return err
		}
		if !slices.Contains(linked, p.PropID) {
			if err := (access{tx: tx, actor: actor}).checkDeviceLimit(owner); err != nil {
				return err
			}
		}
	}
	return tx.Link(p)
}

// Unlink removes permissions (all or none) under the same checks as Link.
func (c *Core) Unlink(actor *User, ps ...Permission) error {
	if err := checkBulk(ps); err != nil {
		return err
	}
	defer c.hub.invalidate()
	return c.store.Update(func(tx Tx) error {
		for _, p := range ps {
			if err := c.checkPermission(tx, actor, p); err != nil {
				return err
			}
			if err := tx.Unlink(p); err != nil {
				return err
			}
		}
		return nil
	})
}

func (c *Core) checkPermission(tx Tx, actor *User, p Permission) error {
	if !slices.Contains(permissionPairs[p.OwnerKind], p.PropKind) {
		return Invalid("unsupported permission pair %sId/%sId", p.OwnerKind, p.PropKind)
	}
	if p.OwnerID <= 0 || p.PropID <= 0 {
		return Invalid("%sId and %sId must be positive ids", p.OwnerKind, p.PropKind)
	}
	a := access{tx: tx, actor: actor}
	if err := a.checkEdit(p.PropKind); err != nil {
		return err
	}
	if p.PropKind == KindManagedUser && !actor.Administrator {
		if !actor.Manager() {
			return Forbidden("Only managers may manage users")
		}
	}
	for _, obj := range []struct {
		kind string
		id   int64
	}{{p.OwnerKind, p.OwnerID}, {p.PropKind, p.PropID}} {
		if err := a.mustSee(obj.kind, obj.id); err != nil {
			return err
		}
		if err := a.exists(obj.kind, obj.id); err != nil {
			return err
		}
	}
	return nil
}

// exists returns a not-found error for an id with no object behind it:
// canSee is true for administrators whatever the id.
func (a access) exists(kind string, id int64) error {
	var err error
	switch kind {
	case KindUser, KindManagedUser:
		_, err = a.tx.Users().Get(id)
	case KindDevice:
		_, err = a.tx.Devices().Get(id)
	case KindGroup:
		_, err = a.tx.Groups().Get(id)
	case KindGeofence:
		_, err = a.tx.Geofences().Get(id)
	case KindCommand:
		_, err = a.tx.Commands().Get(id)
	case KindDriver:
		_, err = driversTable(a.tx).Get(id)
	case KindAttribute:
		_, err = computedTable(a.tx).Get(id)
	}
	return err
}

// reference checks an id a request points at (a parent group, a target
// device): it must exist and be visible, else the request is invalid.
func (a access) reference(kind string, id int64) error {
	ok, err := a.canSee(kind, id)
	if err == nil && ok {
		err = a.exists(kind, id)
	}
	if KindOf(err) == KindNotFound || (err == nil && !ok) {
		return Invalid("%s %d not found", strings.ToLower(kindNames[kind]), id)
	}
	return err
}
