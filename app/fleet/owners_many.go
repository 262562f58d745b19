package fleet

import (
	"slices"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// ownerReader reads the visible owners of many objects in one
// transaction: the actor's visible set of each owner kind (a scan of the
// groups and devices) is computed once, not once per object.
type ownerReader struct {
	a       access.Guard
	visible map[string]map[int64]bool
}

func newOwnerReader(a access.Guard) *ownerReader {
	return &ownerReader{a: a, visible: map[string]map[int64]bool{}}
}

// owners are the ownerKind objects linked to (kind, id) the actor sees.
func (r *ownerReader) owners(kind string, id int64, ownerKind string) ([]int64, error) {
	ids, err := r.a.Tx.Owners(kind, id, ownerKind)
	if err != nil || r.a.Actor.Administrator {
		return ids, err
	}
	set, err := r.seen(ownerKind)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ids, func(id int64) bool { return !set[id] }), nil
}

// seen is the set of kind the actor sees (not used for administrators).
func (r *ownerReader) seen(kind string) (map[int64]bool, error) {
	if set, ok := r.visible[kind]; ok {
		return set, nil
	}
	set, err := r.a.Visible(kind)
	if err != nil {
		return nil, err
	}
	r.visible[kind] = set
	return set, nil
}

// OwnersOfEach is Owners for many objects of kind at once: the visible
// ownerKind objects linked to each, by id. Each id must be one the actor
// sees (not found otherwise).
func (fl *Service) OwnersOfEach(actor *model.User, kind string, ids []int64, ownerKind string) (map[int64][]int64, error) {
	out := make(map[int64][]int64, len(ids))
	err := fl.store.View(func(tx model.Tx) error {
		r := newOwnerReader(access.Guard{Tx: tx, Actor: actor})
		for _, id := range ids {
			if err := r.mustSee(kind, id); err != nil {
				return err
			}
			owners, err := r.owners(kind, id, ownerKind)
			if err != nil {
				return err
			}
			out[id] = owners
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// mustSee is Guard.MustSee with the visible set read once.
func (r *ownerReader) mustSee(kind string, id int64) error {
	if r.a.Actor.Administrator || kind == model.KindUser || kind == model.KindManagedUser {
		return r.a.MustSee(kind, id)
	}
	set, err := r.seen(kind)
	if err != nil {
		return err
	}
	if !set[id] {
		return r.a.MustSee(kind, id) // the not-found error, worded as everywhere
	}
	return nil
}
