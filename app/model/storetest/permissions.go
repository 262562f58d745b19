package storetest

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

func perm(ownerKind string, ownerID int64, propKind string, propID int64) model.Permission {
	return model.Permission{OwnerKind: ownerKind, OwnerID: ownerID, PropKind: propKind, PropID: propID}
}

// linkQuery is a Linked or Owners call and the ids it must give (in any
// order: the interface does not say).
type linkQuery struct {
	owners bool // Owners(kind, id, other) instead of Linked(kind, id, other)
	kind   string
	id     int64
	other  string
	want   []int64
}

func linked(ownerKind string, ownerID int64, propKind string, want ...int64) linkQuery {
	return linkQuery{kind: ownerKind, id: ownerID, other: propKind, want: want}
}

func owners(propKind string, propID int64, ownerKind string, want ...int64) linkQuery {
	return linkQuery{owners: true, kind: propKind, id: propID, other: ownerKind, want: want}
}

func (q linkQuery) String() string {
	if q.owners {
		return fmt.Sprintf("Owners(%s, %d, %s)", q.kind, q.id, q.other)
	}
	return fmt.Sprintf("Linked(%s, %d, %s)", q.kind, q.id, q.other)
}

func (q linkQuery) check(t *testing.T, tx model.Tx) {
	t.Helper()
	var ids []int64
	var err error
	if q.owners {
		ids, err = tx.Owners(q.kind, q.id, q.other)
	} else {
		ids, err = tx.Linked(q.kind, q.id, q.other)
	}
	if err != nil {
		t.Errorf("%s: %v", q, err)
		return
	}
	sameSet(t, q.String(), ids, q.want)
}

func (s *suite) permissions(t *testing.T) {
	const (
		user, device, group = model.KindUser, model.KindDevice, model.KindGroup
		geofence, managed   = model.KindGeofence, model.KindManagedUser
	)
	links := []model.Permission{
		perm(user, 1, device, 10),
		perm(user, 1, device, 3),
		perm(user, 1, group, 10),
		perm(user, 2, device, 10),
		perm(user, 256, device, 11), // ids with a zero byte
		perm(user, 1<<40, device, 1<<33),
		perm(group, 1, device, 10),
		perm(user, 1, managed, 2),
		perm(user, 3, managed, 1),
		perm(device, 10, geofence, 5),
	}
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			for _, p := range links {
				if err := tx.Link(p); err != nil {
					return err
				}
			}
			return nil
		})
		return st
	}
	check := func(t *testing.T, st model.Store, queries ...linkQuery) {
		t.Helper()
		view(t, st, func(tx model.Tx) error {
			for _, q := range queries {
				q.check(t, tx)
			}
			return nil
		})
	}
	// Everything setup links, seen from both ends.
	initial := []linkQuery{
		linked(user, 1, device, 3, 10),
		linked(user, 1, group, 10),
		linked(user, 1, managed, 2),
		linked(user, 2, device, 10),
		linked(user, 256, device, 11),
		linked(user, 1<<40, device, 1<<33),
		linked(user, 3, managed, 1),
		linked(group, 1, device, 10),
		linked(device, 10, geofence, 5),
		linked(user, 9, device),
		linked(user, 1, geofence),
		linked(device, 10, user),
		owners(device, 10, user, 1, 2),
		owners(device, 10, group, 1),
		owners(device, 3, user, 1),
		owners(device, 11, user, 256),
		owners(device, 1<<33, user, 1<<40),
		owners(group, 10, user, 1),
		owners(managed, 1, user, 3),
		owners(managed, 2, user, 1),
		owners(geofence, 5, device, 10),
		owners(device, 4, user),
		owners(user, 1, device),
		// (managedUser, 2) is another object than (user, 2).
		owners(user, 2, user),
		linked(user, 2, managed),
	}

	t.Run("Linked and Owners see every link from both ends", func(t *testing.T) {
		check(t, setup(t), initial...)
	})
	t.Run("Link is idempotent", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			for _, p := range links {
				if err := tx.Link(p); err != nil {
					return err
				}
			}
			return tx.Link(links[0])
		})
		check(t, st, initial...)
	})
	t.Run("Unlink removes one link from both ends and is idempotent", func(t *testing.T) {
		st := setup(t)
		for range 2 {
			update(t, st, func(tx model.Tx) error { return tx.Unlink(perm(user, 1, device, 3)) })
			check(t, st,
				linked(user, 1, device, 10),
				owners(device, 3, user),
				linked(user, 1, group, 10),
				owners(device, 10, user, 1, 2),
			)
		}
		update(t, st, func(tx model.Tx) error {
			// Never linked: no error, no change.
			return firstErr(tx.Unlink(perm(user, 77, device, 3)), tx.Unlink(perm(device, 3, user, 1)))
		})
		check(t, st, linked(user, 1, device, 10), owners(device, 10, user, 1, 2))
	})
	t.Run("UnlinkAll removes every link of an object as owner and as property", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error { return tx.UnlinkAll(device, 10) })
		check(t, st,
			linked(user, 1, device, 3),
			linked(user, 2, device),
			linked(group, 1, device),
			owners(device, 10, user),
			owners(device, 10, group),
			linked(device, 10, geofence),
			owners(geofence, 5, device),
			// Untouched:
			linked(user, 1, group, 10),
			owners(group, 10, user, 1),
			linked(user, 256, device, 11),
			owners(device, 3, user, 1),
		)
		update(t, st, func(tx model.Tx) error { return tx.UnlinkAll(user, 1) })
		check(t, st,
			linked(user, 1, device),
			linked(user, 1, group),
			linked(user, 1, managed),
			owners(device, 3, user),
			owners(group, 10, user),
			owners(managed, 2, user),
			// (managedUser, 1) is not (user, 1):
			linked(user, 3, managed, 1),
			owners(managed, 1, user, 3),
		)
		update(t, st, func(tx model.Tx) error { return tx.UnlinkAll(managed, 1) })
		check(t, st, linked(user, 3, managed), owners(managed, 1, user), linked(user, 256, device, 11))
		// Of an object without links: no error, no change.
		update(t, st, func(tx model.Tx) error { return tx.UnlinkAll(geofence, 99) })
		check(t, st, linked(user, 256, device, 11), linked(user, 1<<40, device, 1<<33))
	})
	t.Run("Link after Unlink and UnlinkAll links again", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			return firstErr(tx.UnlinkAll(device, 10), tx.Unlink(perm(user, 1, device, 3)),
				tx.Link(perm(user, 1, device, 10)), tx.Link(perm(user, 1, device, 3)))
		})
		check(t, st, linked(user, 1, device, 3, 10), owners(device, 10, user, 1), owners(device, 10, group))
	})
	t.Run("Linked and Owners see the transaction's own links", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			if err := firstErr(tx.Link(perm(user, 1, device, 4)), tx.Unlink(perm(user, 1, device, 3)),
				tx.UnlinkAll(group, 1)); err != nil {
				return err
			}
			for _, q := range []linkQuery{
				linked(user, 1, device, 4, 10),
				owners(device, 4, user, 1),
				owners(device, 3, user),
				linked(group, 1, device),
				owners(device, 10, group),
			} {
				q.check(t, tx)
			}
			return nil
		})
	})
	t.Run("Linked and Owners list each id once", func(t *testing.T) {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			for range 3 {
				for id := int64(1); id <= 5; id++ {
					if err := firstErr(tx.Link(perm(user, 1, device, id)), tx.Link(perm(group, id, device, 1))); err != nil {
						return err
					}
				}
			}
			return nil
		})
		check(t, st, linked(user, 1, device, 1, 2, 3, 4, 5), owners(device, 1, group, 1, 2, 3, 4, 5))
	})
}
