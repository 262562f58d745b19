package office

import (
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// The "fleet office" (support tickets, documents, files, maintenance) keeps
// records that belong to one user. This file holds what they share: the
// owner and time stamps, and the cabinet that keeps each kind in the
// store's filing of it, grouped by owner.

// filed is an office record: an Entity with a Stamp.
type filed interface {
	model.Entity
	Stamped() *model.Stamp
}

// cabinet is one office record kind: the store's Filing of it, grouped by
// owner (or, for ticket responses, by ticket), so one group's records are
// found without reading the whole collection.
type cabinet[T any, P interface {
	*T
	filed
}] struct {
	what  string
	table func(model.OfficeTx) model.Filing[T]
}

func (k cabinet[T, P]) of(tx model.Tx) model.Filing[T] { return k.table(tx.Office()) }

// create stamps v for owner at now and stores it.
func (k cabinet[T, P]) create(tx model.Tx, owner int64, now time.Time, v *T) error {
	s := P(v).Stamped()
	s.UserID, s.CreatedAt, s.UpdatedAt = model.TextID(owner), now.UTC(), now.UTC()
	P(v).SetID(0)
	return k.of(tx).Create(v)
}

// update stores after over before, keeping the stamp.
func (k cabinet[T, P]) update(tx model.Tx, before, after *T, now time.Time) error {
	*P(after).Stamped() = *P(before).Stamped()
	P(after).Stamped().UpdatedAt = now.UTC()
	P(after).SetID(P(before).GetID())
	return k.of(tx).Put(after)
}

func (k cabinet[T, P]) remove(tx model.Tx, v *T) error { return k.of(tx).Delete(P(v).GetID()) }

// deleteVia removes a record p lets the actor reach with its attached
// files; read-only accounts delete nothing.
func (k cabinet[T, P]) deleteVia(svc *Service, actor *model.User, p path, id int64, files func(*T) []model.TextID) error {
	var dropped []model.TextID
	err := svc.store.As(actor).Update(func(tx model.Tx) error {
		v, err := k.reachable(tx, actor, p, id)
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
	v, err := k.of(tx).Get(id)
	if err != nil {
		return nil, err
	}
	if !reach(P(v).Stamped().Owner()) {
		return nil, model.NotFound(k.what)
	}
	return v, nil
}

// read is get in a transaction of its own.
func (k cabinet[T, P]) read(store model.Store, id int64, reach func(owner int64) bool) (v *T, err error) {
	err = store.View(func(tx model.Tx) error {
		v, err = k.get(tx, id, reach)
		return err
	})
	return v, err
}

// grouped returns one group's records in id (creation) order.
func (k cabinet[T, P]) grouped(tx model.Tx, group int64) ([]*T, error) {
	out, _, err := k.of(tx).Group(group, model.Query{}, false)
	return out, err
}

// groupedPage is q's window of one group's records in id order (newest
// first when newestFirst) and how many the group has.
func (k cabinet[T, P]) groupedPage(tx model.Tx, group int64, q model.Query, newestFirst bool) ([]*T, int, error) {
	return k.of(tx).Group(group, q, newestFirst)
}

// all returns every record in id order.
func (k cabinet[T, P]) all(tx model.Tx) ([]*T, error) {
	out := []*T{}
	err := k.of(tx).List(func(v *T) bool { out = append(out, v); return true })
	return out, err
}
