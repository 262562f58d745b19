package storage

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/fleetd/fleetd/app"
)

// crudCase runs the same CRUD script against one entity table.
type crudCase[T any, P entity[T]] struct {
	name  string
	table func(app.Tx) app.Table[T]
	make  func(i int) *T // a valid, distinct record
	edit  func(*T)       // a change Put must persist
	what  string         // expected in not-found messages
}

func (c crudCase[T, P]) run(t *testing.T) {
	db := openTestDB(t)
	var created []*T
	mustUpdate(t, db, func(tx app.Tx) error {
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

	mustView(t, db, func(tx app.Tx) error {
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

	mustUpdate(t, db, func(tx app.Tx) error {
		c.edit(created[1])
		return c.table(tx).Put(created[1])
	})
	mustView(t, db, func(tx app.Tx) error {
		got, err := c.table(tx).Get(2)
		if err == nil && !reflect.DeepEqual(got, created[1]) {
			t.Errorf("after Put Get = %+v, want %+v", got, created[1])
		}
		return err
	})

	mustUpdate(t, db, func(tx app.Tx) error { return c.table(tx).Delete(2) })
	mustUpdate(t, db, func(tx app.Tx) error {
		tbl := c.table(tx)
		_, err := tbl.Get(2)
		wantKind(t, err, app.ErrNotFound)
		if want := c.what + " not found"; err.(*app.Error).Description != want {
			t.Errorf("not-found description = %q, want %q", err.(*app.Error).Description, want)
		}
		for _, id := range []int64{0, -1, 1 << 40} {
			_, err := tbl.Get(id)
			wantKind(t, err, app.ErrNotFound)
		}
		wantKind(t, tbl.Delete(2), app.ErrNotFound)
		missing := c.make(7)
		P(missing).SetID(2)
		wantKind(t, tbl.Put(missing), app.ErrNotFound)
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
	attrs := func(i int) app.Attributes { return app.Attributes{"n": float64(i), "s": "x"} }
	t.Run("users", crudCase[app.User, *app.User]{
		table: app.Tx.Users, what: "user",
		make: func(i int) *app.User {
			return &app.User{Name: fmt.Sprint("u", i), Email: fmt.Sprintf("u%d@example.com", i), PasswordHash: "h", Attributes: attrs(i)}
		},
		edit: func(u *app.User) { u.Name, u.Administrator = "renamed", true },
	}.run)
	t.Run("devices", crudCase[app.Device, *app.Device]{
		table: app.Tx.Devices, what: "device",
		make: func(i int) *app.Device {
			return &app.Device{Name: fmt.Sprint("d", i), UniqueID: fmt.Sprint("imei", i), Attributes: attrs(i)}
		},
		edit: func(d *app.Device) { d.Name, d.GroupID = "renamed", 5 },
	}.run)
	t.Run("groups", crudCase[app.Group, *app.Group]{
		table: app.Tx.Groups, what: "group",
		make: func(i int) *app.Group { return &app.Group{Name: fmt.Sprint("g", i), Attributes: attrs(i)} },
		edit: func(g *app.Group) { g.GroupID = 1 },
	}.run)
	t.Run("commands", crudCase[app.Command, *app.Command]{
		table: app.Tx.Commands, what: "command",
		make: func(i int) *app.Command { return &app.Command{Description: fmt.Sprint("c", i), Type: "custom"} },
		edit: func(c *app.Command) { c.TextChannel = true },
	}.run)
	t.Run("geofences", crudCase[app.Geofence, *app.Geofence]{
		table: app.Tx.Geofences, what: "geofence",
		make: func(i int) *app.Geofence {
			return &app.Geofence{Name: fmt.Sprint("f", i), Area: "CIRCLE (1 2, 30)"}
		},
		edit: func(f *app.Geofence) { f.Area = "CIRCLE (3 4, 50)" },
	}.run)
}

func TestSequencesArePerTable(t *testing.T) {
	db := openTestDB(t)
	mustUpdate(t, db, func(tx app.Tx) error {
		g, f := &app.Group{Name: "g"}, &app.Geofence{Name: "f"}
		if err := tx.Groups().Create(g); err != nil {
			return err
		}
		if err := tx.Geofences().Create(f); err != nil {
			return err
		}
		if g.ID != 1 || f.ID != 1 {
			t.Errorf("ids = %d, %d; want 1, 1", g.ID, f.ID)
		}
		return nil
	})
}
