package fleet

import (
	"maps"
	"slices"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/limits"
	"github.com/fleetd/fleetd/app/model"
)

// Objects is the one implementation of list/get/create/update/delete for
// the user-owned object kinds (devices, groups, commands, geofences); the
// differences between kinds live in their hooks.
type Objects[T any, P interface {
	*T
	model.Entity
}] struct {
	store model.Store
	kind  string
	table func(model.Tx) model.Table[T]
	// prepare validates a create (before == nil) or an update and restores
	// server-managed fields the caller may not set.
	prepare func(a access.Guard, before, after *T) error
	// created and remove maintain what depends on the object (indexes,
	// positions) after it is stored and before it goes. remove may return
	// work to do once the deletion is committed (removing files).
	created func(tx model.Tx, v *T) error
	remove  func(tx model.Tx, v *T) (after func(), err error)
	// stored runs once a create or an update has committed: in-memory
	// state must not change for a write that is refused or rolled back.
	stored func(v *T)
	// drain, when set, deletes a bounded part of what depends on the
	// object (a device's history) and reports whether nothing is left. Delete
	// runs it in transactions of its own until done, before the one that
	// removes the object, so no transaction grows with the object's history.
	drain func(tx model.Tx, v *T) (done bool, err error)
	// match applies kind-specific list filters (devices: ids, uniqueIds).
	match func(q model.Query, v *T) bool
	// index, when set, resolves the filters of q it can through the
	// store's keys and indexes (devices: ids, uniqueIds), so a list reads
	// those objects instead of every one; ok is false when q has none.
	index func(tx model.Tx, q model.Query) (ids []int64, ok bool, err error)
	// view completes a record read from the store for the caller (devices:
	// the ingest's live status, positionId and lastUpdate).
	view func(v *T)
}

// List returns the objects the actor may see that q selects, in id order:
// Page without the total.
func (o *Objects[T, P]) List(actor *model.User, q model.Query) ([]*T, error) {
	items, _, err := o.Page(actor, q)
	return items, err
}

// listSet is the set of ids to return; nil means every object.
func (o *Objects[T, P]) listSet(a access.Guard, q model.Query) (map[int64]bool, error) {
	var set map[int64]bool
	var err error
	switch {
	case q.UserID > 0:
		if err := mayListFor(a, q.UserID); err != nil {
			return nil, err
		}
		set, err = a.VisibleTo([]int64{q.UserID}, o.kind)
	case q.All && !a.Actor.Administrator && !a.Actor.Manager():
		return nil, model.Forbidden("Only administrators and managers may use all")
	case a.Actor.Administrator:
		set = nil
	default:
		set, err = a.Visible(o.kind)
	}
	if err != nil {
		return nil, err
	}
	for _, link := range []struct {
		kind string
		id   int64
	}{{model.KindDevice, q.DeviceID}, {model.KindGroup, q.GroupID}} {
		if link.id == 0 || link.kind == o.kind {
			continue
		}
		if err := a.MustSee(link.kind, link.id); err != nil {
			return nil, err
		}
		ids, err := a.Tx.Linked(link.kind, link.id, o.kind)
		if err != nil {
			return nil, err
		}
		linked := map[int64]bool{}
		for _, id := range ids {
			if set == nil || set[id] {
				linked[id] = true
			}
		}
		set = linked
	}
	return set, nil
}

// mayListFor: the objects of user id are listed for administrators,
// managers and the user themselves, when they see the user.
func mayListFor(a access.Guard, id int64) error {
	if !a.Actor.Administrator && !a.Actor.Manager() && id != a.Actor.ID {
		return model.Forbidden("Only administrators and managers may list another user's objects")
	}
	return a.MustSee(model.KindUser, id)
}

// Get returns one object the actor may see.
func (o *Objects[T, P]) Get(actor *model.User, id int64) (*T, error) {
	var v *T
	err := o.store.View(func(tx model.Tx) (err error) {
		if err = (access.Guard{Tx: tx, Actor: actor}).MustSee(o.kind, id); err != nil {
			return err
		}
		v, err = o.table(tx).Get(id)
		return err
	})
	if err != nil {
		return nil, err
	}
	o.complete(v)
	return v, nil
}

// complete runs the view hook, always after the read transaction: the
// devices' hook takes the device's ingest lock, and a reader holding a
// transaction while waiting for it could block a commit that needs to
// grow the file, which waits for every reader.
func (o *Objects[T, P]) complete(v *T) {
	if o.view != nil {
		o.view(v)
	}
}

// Create builds a new object with apply (which fills it from the request),
// stores it and links it to the actor, in one transaction.
func (o *Objects[T, P]) Create(actor *model.User, apply func(*T) error) (*T, error) {
	return o.CreateWith(actor, apply, nil)
}

// CreateWith is Create with also run in the same transaction once the
// object is stored and linked, for records that must commit with it (a
// device's installation record).
func (o *Objects[T, P]) CreateWith(actor *model.User, apply func(*T) error, also func(model.Tx, *T) error) (*T, error) {
	v := new(T)
	err := o.store.As(actor).Update(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.CheckEdit(o.kind); err != nil {
			return err
		}
		*v = *new(T)
		if err := limits.FromRequest(apply, v); err != nil {
			return err
		}
		P(v).SetID(0)
		if err := o.prepare(a, nil, v); err != nil {
			return err
		}
		if err := o.table(tx).Create(v); err != nil {
			return err
		}
		if o.created != nil {
			if err := o.created(tx, v); err != nil {
				return err
			}
		}
		if actor.ID != 0 { // the CLI's system actor owns nothing
			err := tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: actor.ID, PropKind: o.kind, PropID: P(v).GetID()})
			if err != nil {
				return err
			}
		}
		if also != nil {
			return also(tx, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if o.stored != nil {
		o.stored(v)
	}
	return v, nil
}

// Update applies a change to a copy of the stored object and saves it.
func (o *Objects[T, P]) Update(actor *model.User, id int64, apply func(*T) error) (*T, error) {
	return o.UpdateWith(actor, id, apply, nil)
}

// UpdateWith is Update with also run in the same transaction once the
// object is stored, for records that must commit with it (its links).
func (o *Objects[T, P]) UpdateWith(actor *model.User, id int64, apply func(*T) error, also func(model.Tx, *T) error) (*T, error) {
	var after *T
	err := o.store.As(actor).Update(func(tx model.Tx) error {
		a := access.Guard{Tx: tx, Actor: actor}
		before, err := o.editable(a, id)
		if err != nil {
			return err
		}
		after = new(T)
		*after = *before
		cloneAttributes(after)
		if err := limits.FromRequest(apply, after); err != nil {
			return err
		}
		P(after).SetID(id)
		if err := o.prepare(a, before, after); err != nil {
			return err
		}
		if err := o.table(tx).Put(after); err != nil {
			return err
		}
		if o.created != nil {
			if err := o.created(tx, after); err != nil {
				return err
			}
		}
		if also != nil {
			return also(tx, after)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if o.stored != nil {
		o.stored(after)
	}
	o.complete(after)
	return after, nil
}

// Delete removes an object, what depends on it and every link to it.
func (o *Objects[T, P]) Delete(actor *model.User, id int64) error {
	for done := o.drain == nil; !done; {
		err := o.store.As(actor).Update(func(tx model.Tx) error {
			v, err := o.editable(access.Guard{Tx: tx, Actor: actor}, id)
			if err == nil {
				done, err = o.drain(tx, v)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	var after func()
	err := o.store.As(actor).Update(func(tx model.Tx) error {
		v, err := o.editable(access.Guard{Tx: tx, Actor: actor}, id)
		if err != nil {
			return err
		}
		if o.remove != nil {
			if after, err = o.remove(tx, v); err != nil {
				return err
			}
		}
		if err := tx.UnlinkAll(o.kind, id); err != nil {
			return err
		}
		return o.table(tx).Delete(id)
	})
	if err == nil && after != nil {
		after()
	}
	return err
}

// editable returns object id for a change by a.actor: it must be visible
// (else not found) and the actor's and server's read-only flags must allow
// editing this kind.
func (o *Objects[T, P]) editable(a access.Guard, id int64) (*T, error) {
	if err := a.MayEdit(o.kind, id); err != nil {
		return nil, err
	}
	return o.table(a.Tx).Get(id)
}

// cloneAttributes gives an update its own attributes map, so decoding the
// request into it cannot alter the stored "before" value.
func cloneAttributes(v any) {
	switch x := v.(type) {
	case *model.Device:
		x.Attributes = maps.Clone(x.Attributes)
	case *model.Group:
		x.Attributes = maps.Clone(x.Attributes)
	case *model.Command:
		x.Attributes = maps.Clone(x.Attributes)
	case *model.Geofence:
		x.Attributes = maps.Clone(x.Attributes)
	case *model.Driver:
		x.Attributes = maps.Clone(x.Attributes)
	}
}

// matchIDs is the devices' id / uniqueId filter.
func matchIDs(q model.Query, d *model.Device) bool {
	if len(q.IDs) == 0 && len(q.UniqueIDs) == 0 {
		return true
	}
	return slices.Contains(q.IDs, d.ID) || slices.Contains(q.UniqueIDs, d.UniqueID)
}
