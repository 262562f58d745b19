package office

import (
	"cmp"
	"slices"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// The office has two paths to its records, so a reader of a caller sees
// which rule applies:
//
//   - the owner path, the Service's own methods, which /api2 calls: the
//     caller's own documents and service records, administrators included
//     (the spec's "the caller's", G1); tickets and their files also reach
//     administrators, who answer them as support;
//   - the administrative path, Admin, which the dashboard calls: an
//     administrator reaches every user's tickets, documents and service
//     records, a manager its own and those of the users it manages, anyone
//     else its own.

// reach is whose records one call may touch.
type reach struct {
	everyone bool
	owners   []int64
}

func (r reach) has(owner int64) bool { return r.everyone || slices.Contains(r.owners, owner) }

// own reaches the actor's records only.
func own(actor *model.User) reach { return reach{owners: []int64{actor.ID}} }

// support also reaches everyone's for administrators (tickets in /api2).
func support(actor *model.User) reach {
	return reach{everyone: actor.Administrator, owners: []int64{actor.ID}}
}

// path works out a call's reach in its transaction.
type path func(tx model.Tx, actor *model.User) (reach, error)

func ownPath(_ model.Tx, actor *model.User) (reach, error)     { return own(actor), nil }
func supportPath(_ model.Tx, actor *model.User) (reach, error) { return support(actor), nil }

// adminPath is the administrative path's reach: everyone for
// administrators, else the actor and the users it manages (Traccar's
// user-to-managed-user permission).
func adminPath(tx model.Tx, actor *model.User) (reach, error) {
	if actor.Administrator {
		return reach{everyone: true}, nil
	}
	owners, err := access.Guard{Tx: tx, Actor: actor}.OwnerIDs()
	return reach{owners: owners}, err
}

// reachable is record id when p lets the actor reach its owner; otherwise
// it is "not found".
func (k cabinet[T, P]) reachable(tx model.Tx, actor *model.User, p path, id int64) (*T, error) {
	r, err := p(tx, actor)
	if err != nil {
		return nil, err
	}
	return k.get(tx, id, r.has)
}

// readVia is reachable in a transaction of its own.
func (k cabinet[T, P]) readVia(store model.Store, actor *model.User, p path, id int64) (v *T, err error) {
	err = store.View(func(tx model.Tx) error {
		v, err = k.reachable(tx, actor, p, id)
		return err
	})
	return v, err
}

// listVia lists the records p lets the actor reach, in id order: only
// owner's when owner is not 0, and "not found" for an owner out of reach,
// so callers cannot probe for users they may not see.
func (k cabinet[T, P]) listVia(tx model.Tx, actor *model.User, p path, owner int64) ([]*T, error) {
	r, err := p(tx, actor)
	switch {
	case err != nil:
		return nil, err
	case owner != 0 && !r.has(owner):
		return nil, model.NotFound("User")
	case owner != 0:
		return k.grouped(tx, owner)
	case r.everyone:
		return k.all(tx)
	}
	var out []*T
	for _, o := range r.owners {
		list, err := k.grouped(tx, o)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	slices.SortFunc(out, func(a, b *T) int { return cmp.Compare(P(a).GetID(), P(b).GetID()) })
	return out, nil
}

// ownerOf is the user who owns a record the actor reached: the record's
// vehicle or driver must be one its owner sees, and files attached to it
// become the owner's.
func ownerOf(tx model.Tx, actor *model.User, owner int64) (*model.User, error) {
	if owner == actor.ID {
		return actor, nil
	}
	return tx.Users().Get(owner)
}
