package office

import (
	"fmt"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// The "fleet office" (support tickets, documents, files, maintenance) keeps
// records that belong to one user. This file holds what they share: string
// ids, flexible dates, the owner and time stamps, and the cabinet that
// stores them with an index by owner.

// Stamp is the bookkeeping of an office record: its owner and the times the
// service sets. Callers can never change it.
type Stamp struct {
	UserID    model.TextID `json:"userId"`
	CreatedAt time.Time    `json:"$createdAt"`
	UpdatedAt time.Time    `json:"$updatedAt"`
}

func (s *Stamp) stamp() *Stamp { return s }

// Owner is the owning user's id.
func (s *Stamp) Owner() int64 { return int64(s.UserID) }

// filed is an office record: an Entity with a Stamp.
type filed interface {
	model.Entity
	stamp() *Stamp
}

// cabinet stores one office record kind as a RecordTable, with a key index
// "<group>/<id>" so one group's records (a user's, or a ticket's
// responses) are found without reading the whole collection.
type cabinet[T any, P interface {
	*T
	filed
}] struct {
	name, what string
	// group is the index's grouping; the owner when nil.
	group func(*T) int64
}

func (k cabinet[T, P]) table(tx model.Tx) model.Table[T] {
	return model.RecordTable[T, P](tx, k.name, k.what)
}

func (k cabinet[T, P]) keys(tx model.Tx) model.KeySet { return tx.Keys(k.name + "_by_group") }

func (k cabinet[T, P]) groupOf(v *T) int64 {
	if k.group != nil {
		return k.group(v)
	}
	return P(v).stamp().Owner()
}

func groupPrefix(group int64) string { return fmt.Sprintf("%016x/", group) }

func (k cabinet[T, P]) key(v *T) string {
	return groupPrefix(k.groupOf(v)) + fmt.Sprintf("%016x", P(v).GetID())
}

// create stamps v for owner at now and stores it.
func (k cabinet[T, P]) create(tx model.Tx, owner int64, now time.Time, v *T) error {
	s := P(v).stamp()
	s.UserID, s.CreatedAt, s.UpdatedAt = model.TextID(owner), now.UTC(), now.UTC()
	P(v).SetID(0)
	if err := k.table(tx).Create(v); err != nil {
		return err
	}
	return k.keys(tx).Put(k.key(v), P(v).GetID())
}

// update stores after over before, keeping the stamp and moving the index
// entry when the group changed.
func (k cabinet[T, P]) update(tx model.Tx, before, after *T, now time.Time) error {
	*P(after).stamp() = *P(before).stamp()
	P(after).stamp().UpdatedAt = now.UTC()
	P(after).SetID(P(before).GetID())
	if k.key(before) != k.key(after) {
		if err := k.keys(tx).Delete(k.key(before)); err != nil {
			return err
		}
		if err := k.keys(tx).Put(k.key(after), P(after).GetID()); err != nil {
			return err
		}
	}
	return k.table(tx).Put(after)
}

func (k cabinet[T, P]) remove(tx model.Tx, v *T) error {
	if err := k.keys(tx).Delete(k.key(v)); err != nil {
		return err
	}
	return k.table(tx).Delete(P(v).GetID())
}

// deleteOwn removes one of the actor's own records (owner-only kinds) with
// its attached files; read-only accounts delete nothing.
func (k cabinet[T, P]) deleteOwn(svc *Service, actor *model.User, id int64, files func(*T) []model.TextID) error {
	var dropped []model.TextID
	err := svc.store.Update(func(tx model.Tx) error {
		v, err := k.get(tx, id, ownerOnly(actor))
		if err != nil {
			return err
		}
		if err := (access.Guard{Tx: tx, Actor: actor}).CheckEdit(""); err != nil {
			return err
		}
		dropped = files(v)
		return model.FirstError(dropFiles(tx, dropped), k.remove(tx, v))
	})
	if err == nil {
		svc.removeFileContent(dropped)
	}
	return err
}

// get returns record id when reach allows its owner; otherwise the record
// is "not found", so callers cannot probe for other users' ids.
func (k cabinet[T, P]) get(tx model.Tx, id int64, reach func(owner int64) bool) (*T, error) {
	v, err := k.table(tx).Get(id)
	if err != nil {
		return nil, err
	}
	if !reach(P(v).stamp().Owner()) {
		return nil, model.NotFound(k.what)
	}
	return v, nil
}

// grouped returns one group's records in id (creation) order.
func (k cabinet[T, P]) grouped(tx model.Tx, group int64) ([]*T, error) {
	out, _, err := k.groupedPage(tx, group, model.Query{}, false)
	return out, err
}

// groupedPage is q's window of one group's records in id order (newest
// first when newestFirst) and how many the group has: the ids come from
// the index, and only the window's records are read.
func (k cabinet[T, P]) groupedPage(tx model.Tx, group int64, q model.Query, newestFirst bool) ([]*T, int, error) {
	if err := q.Check(); err != nil {
		return nil, 0, err
	}
	var ids []int64
	if err := k.keys(tx).Scan(groupPrefix(group), func(_ string, id int64) bool {
		ids = append(ids, id)
		return true
	}); err != nil {
		return nil, 0, err
	}
	if newestFirst {
		slices.Reverse(ids)
	}
	window := model.Window(ids, q)
	out := make([]*T, 0, len(window))
	for _, id := range window {
		v, err := k.table(tx).Get(id)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, len(ids), nil
}

// all returns every record in id order.
func (k cabinet[T, P]) all(tx model.Tx) ([]*T, error) {
	out := []*T{}
	err := k.table(tx).List(func(v *T) bool { out = append(out, v); return true })
	return out, err
}

// ownerOnly reaches the actor's own records.
func ownerOnly(actor *model.User) func(int64) bool {
	return func(owner int64) bool { return owner == actor.ID }
}

// ownerOrAdmin also lets administrators reach everyone's records.
func ownerOrAdmin(actor *model.User) func(int64) bool {
	return func(owner int64) bool { return actor.Administrator || owner == actor.ID }
}
