package fleet

import (
	"slices"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// Links are the devices and groups a form links an object to, by kind
// (model.KindDevice, model.KindGroup); a kind left out keeps its links.
type Links map[string][]int64

// linkKinds are the owner kinds of Links, in the order they are written.
var linkKinds = []string{model.KindDevice, model.KindGroup}

// Owners lists the ids of the ownerKind objects (devices, groups) linked
// to object (kind, id) that the actor sees: what a form shows as linked.
func (fl *Service) Owners(actor *model.User, kind string, id int64, ownerKind string) ([]int64, error) {
	var out []int64
	err := fl.store.View(func(tx model.Tx) (err error) {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.MustSee(kind, id); err != nil {
			return err
		}
		out, err = newOwnerReader(a).owners(kind, id, ownerKind)
		return err
	})
	return out, err
}

// setOwners makes the ownerKind objects linked to (kind, id) that the
// actor sees exactly wanted, under Link's checks; links to objects the
// actor does not see (another manager's vehicles) stay. The actor's
// visible set is read once, not once per link: linking devices and groups
// to an object does not change what the actor sees.
func (fl *Service) setOwners(tx model.Tx, actor *model.User, kind string, id int64, ownerKind string, wanted []int64) error {
	wanted = slices.Compact(slices.Sorted(slices.Values(wanted)))
	if len(wanted) > MaxBulkPermissions {
		return model.Invalid("at most %d links per request", MaxBulkPermissions)
	}
	a := access.Guard{Tx: tx, Actor: actor}
	if err := a.MustSee(kind, id); err != nil {
		return err
	}
	r := newOwnerReader(a)
	current, err := r.owners(kind, id, ownerKind)
	if err != nil {
		return err
	}
	var added []int64
	for _, owner := range wanted {
		if slices.Contains(current, owner) {
			continue
		}
		if err := r.mustSee(ownerKind, owner); err != nil {
			return err
		}
		added = append(added, owner)
	}
	for _, owner := range current {
		if slices.Contains(wanted, owner) {
			continue
		}
		p := model.Permission{OwnerKind: ownerKind, OwnerID: owner, PropKind: kind, PropID: id}
		if err := checkPair(a, p); err != nil {
			return err
		}
		if err := tx.Unlink(p); err != nil {
			return err
		}
	}
	for _, owner := range added {
		p := model.Permission{OwnerKind: ownerKind, OwnerID: owner, PropKind: kind, PropID: id}
		if err := checkPair(a, p); err != nil {
			return err
		}
		if err := a.Exists(ownerKind, owner); err != nil {
			return err
		}
		if err := tx.Link(p); err != nil {
			return err
		}
	}
	return nil
}

// saveLinked creates (id 0) or updates an object of o with apply and sets
// its links, then runs also, all in one transaction.
func saveLinked[T any, P interface {
	*T
	model.Entity
}](fl *Service, o *Objects[T, P], actor *model.User, id int64, apply func(*T) error, links Links, also func(model.Tx, *T) error) (*T, error) {
	then := func(tx model.Tx, v *T) error {
		for _, kind := range linkKinds {
			if ids, ok := links[kind]; ok {
				if err := fl.setOwners(tx, actor, o.kind, P(v).GetID(), kind, ids); err != nil {
					return err
				}
			}
		}
		if also != nil {
			return also(tx, v)
		}
		return nil
	}
	if id == 0 {
		return o.CreateWith(actor, apply, then)
	}
	return o.UpdateWith(actor, id, apply, then)
}

// SaveGeofence creates (id 0) or changes a geofence and sets the devices
// and groups it applies to, in one transaction.
func (fl *Service) SaveGeofence(actor *model.User, id int64, apply func(*model.Geofence) error, links Links) (*model.Geofence, error) {
	return saveLinked(fl, fl.Geofences, actor, id, apply, links, nil)
}
