package storage

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// crudCase runs the same CRUD script against one entity table.
type crudCase[T any, P entity[T]] struct {
	table func(model.Tx) model.Table[T]
	make  func(i int) *T // a valid, distinct record
	edit  func(*T)       // a change Put must persist
	what  string         // expected in not-found messages
}

func (c crudCase[T, P]) run(t *testing.T) {
	db := openTestDB(t)
	var created []*T
	mustUpdate(t, db, func(tx model.Tx) error {
		for i := range 3 {
			v := c.make(i)
			P(v).SetID(99) // Create must ignore a caller's id
			if err := c.table(tx).Create(v); err != nil {
				return err
			}
			created = append(created, v)
		}
		return nil
	})
	for i, v := range created {
		if got := P(v).GetID(); got != int64(i+1) {
			t.Fatalf("record %d got id %d, want %d", i, got, i+1)
		}
	}

	mustView(t, db, func(tx model.Tx) error {
		for _, want := range created {
			got, err := c.table(tx).Get(P(want).GetID())
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Get = %+v, want %+v", got, want)
			}
		}
		var ids []int64
		err := c.table(tx).List(func(v *T) bool { ids = append(ids, P(v).GetID()); return true })
		if err != nil || !reflect.DeepEqual(ids, []int64{1, 2, 3}) {
			t.Errorf("List ids = %v, %v; want [1 2 3]", ids, err)
		}
		ids = nil
		c.table(tx).List(func(v *T) bool { ids = append(ids, P(v).GetID()); return false })
		if len(ids) != 1 {
			t.Errorf("List after false visited %d records, want 1", len(ids))
		}
		if n, err := c.table(tx).Count(); n != 3 || err != nil {
			t.Errorf("Count = %d, %v; want 3", n, err)
		}
		return nil
	})

	mustUpdate(t, db, func(tx model.Tx) error {
		c.edit(created[1])
		return c.table(tx).Put(created[1])
	})
	mustView(t, db, func(tx model.Tx) error {
		got, err := c.table(tx).Get(2)
		if err == nil && !reflect.DeepEqual(got, created[1]) {
			t.Errorf("after Put Get = %+v, want %+v", got, created[1])
		}
		return err
	})

	mustUpdate(t, db, func(tx model.Tx) error { return c.table(tx).Delete(2) })
	mustUpdate(t, db, func(tx model.Tx) error {
		tbl := c.table(tx)
		_, err := tbl.Get(2)
		wantKind(t, err, model.ErrNotFound)
		if want := c.what + " not found"; err.(*model.Error).Description != want {
			t.Errorf("not-found description = %q, want %q", err.(*model.Error).Description, want)
		}
		for _, id := range []int64{0, -1, 1 << 40} {
			_, err := tbl.Get(id)
			wantKind(t, err, model.ErrNotFound)
		}
		wantKind(t, tbl.Delete(2), model.ErrNotFound)
		missing := c.make(7)
		P(missing).SetID(2)
		wantKind(t, tbl.Put(missing), model.ErrNotFound)
		if n, _ := tbl.Count(); n != 2 {
			t.Errorf("Count after delete = %d, want 2", n)
		}
		// Ids are never reused.
		v := c.make(8)
		if err := tbl.Create(v); err != nil {
			return err
		}
		if P(v).GetID() != 4 {
			t.Errorf("id after delete = %d, want 4", P(v).GetID())
		}
		return nil
	})
}

func TestTableCRUD(t *testing.T) {
	attrs := func(i int) model.Attributes { return model.Attributes{"n": float64(i), "s": "x"} }
	t.Run("users", crudCase[model.User, *model.User]{
		table: model.Tx.Users, what: "user",
		make: func(i int) *model.User {
			return &model.User{Name: fmt.Sprint("u", i), Email: fmt.Sprintf("u%d@example.com", i), PasswordHash: "h", Attributes: attrs(i)}
		},
		edit: func(u *model.User) { u.Name, u.Administrator = "renamed", true },
	}.run)
	t.Run("devices", crudCase[model.Device, *model.Device]{
		table: model.Tx.Devices, what: "device",
		make: func(i int) *model.Device {
			return &model.Device{Name: fmt.Sprint("d", i), UniqueID: fmt.Sprint("imei", i), Attributes: attrs(i)}
		},
		edit: func(d *model.Device) { d.Name, d.GroupID = "renamed", 5 },
	}.run)
	t.Run("groups", crudCase[model.Group, *model.Group]{
		table: model.Tx.Groups, what: "group",
		make: func(i int) *model.Group { return &model.Group{Name: fmt.Sprint("g", i), Attributes: attrs(i)} },
		edit: func(g *model.Group) { g.GroupID = 1 },
	}.run)
	t.Run("commands", crudCase[model.Command, *model.Command]{
		table: model.Tx.Commands, what: "command",
		make: func(i int) *model.Command { return &model.Command{Description: fmt.Sprint("c", i), Type: "custom"} },
		edit: func(c *model.Command) { c.TextChannel = true },
	}.run)
	t.Run("geofences", crudCase[model.Geofence, *model.Geofence]{
		table: model.Tx.Geofences, what: "geofence",
		make: func(i int) *model.Geofence {
			return &model.Geofence{Name: fmt.Sprint("f", i), Area: "CIRCLE (1 2, 30)"}
		},
		edit: func(f *model.Geofence) { f.Area = "CIRCLE (3 4, 50)" },
	}.run)
}
