package fleet

import (
	"slices"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// permissionPairs lists the owner -> property links fleetd supports, as
// Traccar's "<owner>Id"/"<property>Id" pairs; any other pair is refused
// with a clear 400 rather than stored dangling.
var permissionPairs = map[string][]string{
	model.KindUser: {model.KindDevice, model.KindGroup, model.KindGeofence, model.KindCommand, model.KindDriver, model.KindAttribute,
		model.KindManagedUser, model.KindCalendar, model.KindMaintenance, model.KindNotification, model.KindReport},
	model.KindDevice: {model.KindGeofence, model.KindCommand, model.KindDriver, model.KindAttribute, model.KindMaintenance,
		model.KindNotification, model.KindReport},
	model.KindGroup: {model.KindGeofence, model.KindCommand, model.KindDriver, model.KindAttribute, model.KindMaintenance,
		model.KindNotification, model.KindReport},
}

// PermissionKinds lists every kind that can appear in a permission, for the
// web layer's parsing of "<kind>Id" keys.
var PermissionKinds = []string{model.KindUser, model.KindDevice, model.KindGroup, model.KindGeofence, model.KindCommand, model.KindManagedUser,
	model.KindNotification, model.KindCalendar, model.KindAttribute, model.KindDriver, model.KindMaintenance, model.KindReport}

// MaxBulkPermissions bounds one bulk change: it is checked and written in
// one write transaction, which holds the store's single writer.
const MaxBulkPermissions = 1000

func checkBulk(ps []model.Permission) error {
	if len(ps) > MaxBulkPermissions {
		return model.Invalid("at most %d permissions per request", MaxBulkPermissions)
	}
	return nil
}

// Link adds permissions (all or none) after checking the actor may see both
// objects of each and may edit; linking a device to a user counts against
// that user's deviceLimit.
func (fl *Service) Link(actor *model.User, ps ...model.Permission) error {
	if err := checkBulk(ps); err != nil {
		return err
	}
	return fl.store.As(actor).Update(func(tx model.Tx) error {
		for _, p := range ps {
			if err := fl.link(tx, actor, p); err != nil {
				return err
			}
		}
		return nil
	})
}

func (fl *Service) link(tx model.Tx, actor *model.User, p model.Permission) error {
	if err := fl.checkPermission(tx, actor, p); err != nil {
		return err
	}
	if p.OwnerKind == model.KindUser && p.PropKind == model.KindDevice {
		owner, err := tx.Users().Get(p.OwnerID)
		if err != nil {
			return err
		}
		linked, err := tx.Linked(model.KindUser, owner.ID, model.KindDevice)
		if err != nil {
			return err
		}
		if !slices.Contains(linked, p.PropID) {
			if err := (access.Guard{Tx: tx, Actor: actor}).CheckDeviceLimit(owner); err != nil {
				return err
			}
		}
	}
	return tx.Link(p)
}

// Unlink removes permissions (all or none) under the same checks as Link.
func (fl *Service) Unlink(actor *model.User, ps ...model.Permission) error {
	if err := checkBulk(ps); err != nil {
		return err
	}
	return fl.store.As(actor).Update(func(tx model.Tx) error {
		for _, p := range ps {
			if err := fl.checkPermission(tx, actor, p); err != nil {
				return err
			}
			if err := tx.Unlink(p); err != nil {
				return err
			}
		}
		return nil
	})
}

func (fl *Service) checkPermission(tx model.Tx, actor *model.User, p model.Permission) error {
	a := access.Guard{Tx: tx, Actor: actor}
	if err := checkPair(a, p); err != nil {
		return err
	}
	for _, obj := range []struct {
		kind string
		id   int64
	}{{p.OwnerKind, p.OwnerID}, {p.PropKind, p.PropID}} {
		if err := a.MustSee(obj.kind, obj.id); err != nil {
			return err
		}
		if err := a.Exists(obj.kind, obj.id); err != nil {
			return err
		}
	}
	return nil
}

// checkPair is what checkPermission checks of a permission itself, before
// whether the actor reaches its two objects: a pair Traccar links, ids,
// and the actor's right to edit.
func checkPair(a access.Guard, p model.Permission) error {
	if !slices.Contains(permissionPairs[p.OwnerKind], p.PropKind) {
		return model.Invalid("unsupported permission pair %sId/%sId", p.OwnerKind, p.PropKind)
	}
	if p.OwnerID <= 0 || p.PropID <= 0 {
		return model.Invalid("%sId and %sId must be positive ids", p.OwnerKind, p.PropKind)
	}
	if err := a.CheckEdit(p.PropKind); err != nil {
		return err
	}
	if p.PropKind == model.KindManagedUser && !a.Actor.Administrator && !a.Actor.Manager() {
		return model.Forbidden("Only managers may manage users")
	}
	return nil
}

// Links lists the ids of propKind linked straight to the owner (not those
// reached through a group or a managed user) that the actor may see: what
// a form of the owner's links shows ticked, and may change with Link and
// Unlink. The actor must see the owner.
func (fl *Service) Links(actor *model.User, ownerKind string, ownerID int64, propKind string) ([]int64, error) {
	if !slices.Contains(permissionPairs[ownerKind], propKind) {
		return nil, model.Invalid("unsupported permission pair %sId/%sId", ownerKind, propKind)
	}
	var ids []int64
	err := fl.store.View(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.MustSee(ownerKind, ownerID); err != nil {
			return err
		}
		linked, err := tx.Linked(ownerKind, ownerID, propKind)
		if err != nil || actor.Administrator {
			ids = linked
			return err
		}
		visible, err := a.Visible(propKind)
		ids = slices.DeleteFunc(linked, func(id int64) bool { return !visible[id] })
		return err
	})
	return ids, err
}
