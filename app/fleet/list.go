package fleet

import (
	"errors"
	"maps"
	"slices"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// Page is the one way objects are listed (the /api lists, the extended
// API and the dashboard): the objects the actor may see that q's filters
// and keyword select, in id order, cut to q's window, and how many match
// in all.
//
// It reads no more than it must: the ids the kind's index resolves q's
// filters to (a device by uniqueId), else the ids the actor may see when
// the actor does not see everything, else the whole table. The visibility
// rules are listSet's whatever is read.
func (o *Objects[T, P]) Page(actor *model.User, q model.Query) ([]*T, int, error) {
	if err := q.Check(); err != nil {
		return nil, 0, err
	}
	page := model.NewPager[*T](q)
	err := o.store.View(func(tx model.Tx) error {
		set, err := o.listSet(access.Guard{Tx: tx, Actor: actor}, q)
		if err != nil {
			return err
		}
		offer := func(v *T) {
			if (set == nil || set[P(v).GetID()]) && (o.match == nil || o.match(q, v)) && q.Matches(v) {
				page.Add(v)
			}
		}
		ids, some, err := o.candidates(tx, set, q)
		if err != nil {
			return err
		}
		if !some {
			return o.table(tx).List(func(v *T) bool { offer(v); return true })
		}
		for _, id := range ids {
			v, err := o.table(tx).Get(id)
			if errors.Is(err, model.ErrNotFound) {
				continue // an unknown id asked for, or a link to nothing
			}
			if err != nil {
				return err
			}
			offer(v)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	for _, v := range page.Items {
		o.complete(v)
	}
	return page.Items, page.Total, nil
}

// candidates are the ids worth reading, in id order, when they are fewer
// than the whole table: the ones the kind's index resolves q to, else the
// visible set (nil: everything). some is false when the table must be read.
func (o *Objects[T, P]) candidates(tx model.Tx, set map[int64]bool, q model.Query) (ids []int64, some bool, err error) {
	if o.index != nil {
		if ids, some, err = o.index(tx, q); err != nil || some {
			slices.Sort(ids)
			return slices.Compact(ids), some, err
		}
	}
	if set != nil {
		return slices.Sorted(maps.Keys(set)), true, nil
	}
	return nil, false, nil
}

// deviceIndex finds the devices of the id and uniqueId filters by key and
// through the store's uniqueId index: one device among thousands without
// reading the others.
func deviceIndex(tx model.Tx, q model.Query) ([]int64, bool, error) {
	if len(q.IDs) == 0 && len(q.UniqueIDs) == 0 {
		return nil, false, nil
	}
	ids := slices.Clone(q.IDs)
	for _, uniqueID := range q.UniqueIDs {
		d, err := tx.DeviceByUniqueID(uniqueID)
		if errors.Is(err, model.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		ids = append(ids, d.ID)
	}
	return ids, true, nil
}
