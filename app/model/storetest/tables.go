package storetest

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// tableCase is one of the transaction's tables, with what the generic
// Table cases need to fill it.
type tableCase[T any, P interface {
	*T
	model.Entity
}] struct {
	table func(model.Tx) model.Table[T]
	// make returns a distinct valid record, with every field it sets kept
	// exactly by a store (whole seconds, float64 attribute numbers).
	make func(i int) *T
	// edit changes a record in a way Put must keep.
	edit func(*T)
}

type namedRun struct {
	name string
	run  func(*testing.T)
}

func (s *suite) tables(t *testing.T) {
	attrs := func(i int) model.Attributes {
		return model.Attributes{"n": float64(i), "s": "x", "nested": map[string]any{"b": true}}
	}
	for _, c := range []namedRun{
		{"Users", tableCase[model.User, *model.User]{
			table: model.Tx.Users,
			make: func(i int) *model.User {
				return &model.User{Name: fmt.Sprint("u", i), Email: fmt.Sprintf("u%d@example.com", i),
					PasswordHash: fmt.Sprint("hash", i), ExpirationTime: timep(at(i)), DeviceLimit: -1, Attributes: attrs(i)}
			},
			edit: func(u *model.User) {
				u.Name, u.Administrator, u.PasswordHash, u.ExpirationTime = "renamed", true, "rehashed", nil
			},
		}.runner(s)},
		{"Devices", tableCase[model.Device, *model.Device]{
			table: model.Tx.Devices,
			make: func(i int) *model.Device {
				return &model.Device{Name: fmt.Sprint("d", i), UniqueID: fmt.Sprint("imei", i), Status: model.StatusOffline,
					LastUpdate: timep(at(i)), Attributes: attrs(i)}
			},
			edit: func(d *model.Device) { d.Name, d.GroupID, d.LastUpdate, d.PositionID = "renamed", 5, nil, 9 },
		}.runner(s)},
		{"Groups", tableCase[model.Group, *model.Group]{
			table: model.Tx.Groups,
			make:  func(i int) *model.Group { return &model.Group{Name: fmt.Sprint("g", i), Attributes: attrs(i)} },
			edit:  func(g *model.Group) { g.GroupID, g.Attributes = 1, model.Attributes{} },
		}.runner(s)},
		{"Commands", tableCase[model.Command, *model.Command]{
			table: model.Tx.Commands,
			make: func(i int) *model.Command {
				return &model.Command{Description: fmt.Sprint("c", i), Type: "custom", Attributes: attrs(i)}
			},
			edit: func(c *model.Command) { c.TextChannel, c.DeviceID = true, 3 },
		}.runner(s)},
		{"Geofences", tableCase[model.Geofence, *model.Geofence]{
			table: model.Tx.Geofences,
			make: func(i int) *model.Geofence {
				return &model.Geofence{Name: fmt.Sprint("f", i), Area: "CIRCLE (1 2, 30)", Attributes: attrs(i)}
			},
			edit: func(f *model.Geofence) { f.Area, f.CalendarID = "CIRCLE (3 4, 50)", 2 },
		}.runner(s)},
		{"QueuedCommands", tableCase[model.QueuedCommand, *model.QueuedCommand]{
			table: model.Tx.QueuedCommands,
			make: func(i int) *model.QueuedCommand {
				return &model.QueuedCommand{Command: model.Command{DeviceID: int64(i + 1), Type: "engineStop", Attributes: attrs(i)}, Queued: at(i)}
			},
			edit: func(q *model.QueuedCommand) { q.Type, q.Queued = "engineResume", at(100) },
		}.runner(s)},
		{"Drivers", tableCase[model.Driver, *model.Driver]{
			table: model.Tx.Drivers,
			make: func(i int) *model.Driver {
				return &model.Driver{Name: fmt.Sprint("driver", i), UniqueID: fmt.Sprint("rfid", i), Attributes: attrs(i)}
			},
			edit: func(d *model.Driver) { d.Name, d.UniqueID = "renamed", "rfid-new" },
		}.runner(s)},
		{"ComputedAttributes", tableCase[model.ComputedAttribute, *model.ComputedAttribute]{
			table: model.Tx.ComputedAttributes,
			make: func(i int) *model.ComputedAttribute {
				return &model.ComputedAttribute{Description: fmt.Sprint("a", i), Attribute: "x", Expression: "speed > 1", Type: "boolean", Priority: i}
			},
			edit: func(a *model.ComputedAttribute) { a.Expression, a.Priority = "speed > 2", -3 },
		}.runner(s)},
	} {
		t.Run(c.name, c.run)
	}
	t.Run("sequences are per table", s.sequencesPerTable)
	t.Run("user password is input only, its hash is kept", s.userPassword)
}

// runner runs every generic Table case on c, each on a fresh store.
func (c tableCase[T, P]) runner(s *suite) func(*testing.T) {
	return func(t *testing.T) {
		for _, k := range []struct {
			name string
			fn   func(*testing.T, model.Store)
		}{
			{"Create assigns ids 1, 2, 3 from the sequence, whatever id the record carries", c.createAssignsIDs},
			{"Get returns the record as stored, in the transaction and after", c.getRoundTrip},
			{"Get of a missing id is ErrNotFound", c.getMissing},
			{"List is in id order and stops when fn returns false", c.list},
			{"List and Count of an empty table", c.empty},
			{"Put overwrites the whole record and only it", c.put},
			{"Put of a missing id is ErrNotFound and stores nothing", c.putMissing},
			{"Delete removes the record and only it", c.delete},
			{"Delete of a missing id is ErrNotFound", c.deleteMissing},
			{"ids are never reused after Delete", c.idsNotReused},
		} {
			t.Run(k.name, func(t *testing.T) { k.fn(t, s.open(t)) })
		}
	}
}

// create stores n records made by c.make(0..n-1) in one transaction.
func (c tableCase[T, P]) create(t *testing.T, s model.Store, n int) []*T {
	t.Helper()
	var out []*T
	update(t, s, func(tx model.Tx) error {
		for i := range n {
			v := c.make(i)
			if err := c.table(tx).Create(v); err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	return out
}

func (c tableCase[T, P]) ids(t *testing.T, s model.Store) []int64 {
	t.Helper()
	var ids []int64
	view(t, s, func(tx model.Tx) error {
		return c.table(tx).List(func(v *T) bool { ids = append(ids, P(v).GetID()); return true })
	})
	return ids
}

func (c tableCase[T, P]) count(t *testing.T, s model.Store) int {
	t.Helper()
	var n int
	view(t, s, func(tx model.Tx) (err error) { n, err = c.table(tx).Count(); return err })
	return n
}

func (c tableCase[T, P]) createAssignsIDs(t *testing.T, s model.Store) {
	update(t, s, func(tx model.Tx) error {
		for i, carried := range []int64{0, 99, 1} {
			v := c.make(i)
			P(v).SetID(carried)
			if err := c.table(tx).Create(v); err != nil {
				return err
			}
			if got := P(v).GetID(); got != int64(i+1) {
				t.Errorf("record %d (carrying id %d) got id %d, want %d", i, carried, got, i+1)
			}
		}
		return nil
	})
	sameIDs(t, "List ids", c.ids(t, s), []int64{1, 2, 3})
	view(t, s, func(tx model.Tx) error {
		_, err := c.table(tx).Get(99)
		wantIs(t, err, model.ErrNotFound, "Get of the id a created record carried")
		return nil
	})
}

func (c tableCase[T, P]) getRoundTrip(t *testing.T, s model.Store) {
	var created []*T
	update(t, s, func(tx model.Tx) error {
		for i := range 3 {
			v := c.make(i)
			if err := c.table(tx).Create(v); err != nil {
				return err
			}
			created = append(created, v)
			got, err := c.table(tx).Get(P(v).GetID())
			if err != nil {
				return fmt.Errorf("Get in the creating transaction: %w", err)
			}
			same(t, "Get in the creating transaction", got, v)
		}
		return nil
	})
	view(t, s, func(tx model.Tx) error {
		for _, want := range created {
			got, err := c.table(tx).Get(P(want).GetID())
			if err != nil {
				return err
			}
			same(t, fmt.Sprint("Get(", P(want).GetID(), ")"), got, want)
		}
		var all []*T
		if err := c.table(tx).List(func(v *T) bool { all = append(all, v); return true }); err != nil {
			return err
		}
		same(t, "List", all, created)
		return nil
	})
}

func (c tableCase[T, P]) getMissing(t *testing.T, s model.Store) {
	c.create(t, s, 2)
	update(t, s, func(tx model.Tx) error { return c.table(tx).Delete(2) })
	view(t, s, func(tx model.Tx) error {
		for _, id := range []int64{2, 3, 0, -1, 1 << 40} {
			v, err := c.table(tx).Get(id)
			wantIs(t, err, model.ErrNotFound, fmt.Sprint("Get(", id, ")"))
			if v != nil {
				t.Errorf("Get(%d) returned %+v with the error", id, v)
			}
		}
		return nil
	})
}

func (c tableCase[T, P]) list(t *testing.T, s model.Store) {
	c.create(t, s, 5)
	update(t, s, func(tx model.Tx) error { return c.table(tx).Delete(2) })
	sameIDs(t, "List ids", c.ids(t, s), []int64{1, 3, 4, 5})
	for _, stop := range []int{1, 2, 4} {
		var seen []int64
		view(t, s, func(tx model.Tx) error {
			return c.table(tx).List(func(v *T) bool {
				seen = append(seen, P(v).GetID())
				return len(seen) < stop
			})
		})
		sameIDs(t, fmt.Sprintf("List stopping after %d", stop), seen, []int64{1, 3, 4, 5}[:stop])
	}
	// In the writing transaction, List sees its writes.
	update(t, s, func(tx model.Tx) error {
		if err := c.table(tx).Delete(4); err != nil {
			return err
		}
		if err := c.table(tx).Create(c.make(9)); err != nil {
			return err
		}
		var ids []int64
		err := c.table(tx).List(func(v *T) bool { ids = append(ids, P(v).GetID()); return true })
		sameIDs(t, "List in the writing transaction", ids, []int64{1, 3, 5, 6})
		n, cerr := c.table(tx).Count()
		if n != 4 || cerr != nil {
			t.Errorf("Count in the writing transaction = %d, %v; want 4", n, cerr)
		}
		return err
	})
}

func (c tableCase[T, P]) empty(t *testing.T, s model.Store) {
	for _, via := range []struct {
		name string
		run  func(func(model.Tx) error) error
	}{{"View", s.View}, {"Update", s.Update}} {
		err := via.run(func(tx model.Tx) error {
			visited := 0
			if err := c.table(tx).List(func(*T) bool { visited++; return true }); err != nil {
				return err
			}
			n, err := c.table(tx).Count()
			if visited != 0 || n != 0 {
				t.Errorf("%s of an empty table: List visited %d, Count %d", via.name, visited, n)
			}
			return err
		})
		if err != nil {
			t.Errorf("%s: %v", via.name, err)
		}
	}
	c.create(t, s, 3)
	if n := c.count(t, s); n != 3 {
		t.Errorf("Count after 3 Creates = %d", n)
	}
	update(t, s, func(tx model.Tx) error { return c.table(tx).Delete(1) })
	if n := c.count(t, s); n != 2 {
		t.Errorf("Count after a Delete = %d, want 2", n)
	}
}

func (c tableCase[T, P]) put(t *testing.T, s model.Store) {
	created := c.create(t, s, 3)
	edited := *created[1]
	c.edit(&edited)
	update(t, s, func(tx model.Tx) error {
		if err := c.table(tx).Put(&edited); err != nil {
			return err
		}
		got, err := c.table(tx).Get(2)
		if err == nil {
			same(t, "Get after Put, same transaction", got, &edited)
		}
		return err
	})
	view(t, s, func(tx model.Tx) error {
		for i, want := range []*T{created[0], &edited, created[2]} {
			got, err := c.table(tx).Get(int64(i + 1))
			if err != nil {
				return err
			}
			same(t, fmt.Sprint("Get(", i+1, ") after Put(2)"), got, want)
		}
		return nil
	})
	if n := c.count(t, s); n != 3 {
		t.Errorf("Count after Put = %d, want 3", n)
	}
	// Put back the original: every field is overwritten, none merged.
	update(t, s, func(tx model.Tx) error { return c.table(tx).Put(created[1]) })
	view(t, s, func(tx model.Tx) error {
		got, err := c.table(tx).Get(2)
		if err == nil {
			same(t, "Get after putting the original back", got, created[1])
		}
		return err
	})
}

func (c tableCase[T, P]) putMissing(t *testing.T, s model.Store) {
	c.create(t, s, 2)
	update(t, s, func(tx model.Tx) error { return c.table(tx).Delete(2) })
	before := state(t, s)
	for _, id := range []int64{2, 3, 0, -1} {
		err := s.Update(func(tx model.Tx) error {
			v := c.make(7)
			P(v).SetID(id)
			return c.table(tx).Put(v)
		})
		wantIs(t, err, model.ErrNotFound, fmt.Sprint("Put of id ", id))
	}
	diffState(t, "Put of missing ids", state(t, s), before)
}

func (c tableCase[T, P]) delete(t *testing.T, s model.Store) {
	created := c.create(t, s, 3)
	update(t, s, func(tx model.Tx) error {
		if err := c.table(tx).Delete(2); err != nil {
			return err
		}
		_, err := c.table(tx).Get(2)
		wantIs(t, err, model.ErrNotFound, "Get after Delete, same transaction")
		return nil
	})
	view(t, s, func(tx model.Tx) error {
		_, err := c.table(tx).Get(2)
		wantIs(t, err, model.ErrNotFound, "Get after Delete")
		for _, want := range []*T{created[0], created[2]} {
			got, err := c.table(tx).Get(P(want).GetID())
			if err != nil {
				return err
			}
			same(t, "the other records", got, want)
		}
		return nil
	})
	sameIDs(t, "List after Delete", c.ids(t, s), []int64{1, 3})
}

func (c tableCase[T, P]) deleteMissing(t *testing.T, s model.Store) {
	c.create(t, s, 2)
	update(t, s, func(tx model.Tx) error { return c.table(tx).Delete(2) })
	before := state(t, s)
	for _, id := range []int64{2, 3, 0, -1} {
		err := s.Update(func(tx model.Tx) error { return c.table(tx).Delete(id) })
		wantIs(t, err, model.ErrNotFound, fmt.Sprint("Delete of id ", id))
	}
	diffState(t, "Delete of missing ids", state(t, s), before)
}

func (c tableCase[T, P]) idsNotReused(t *testing.T, s model.Store) {
	c.create(t, s, 3)
	update(t, s, func(tx model.Tx) error { return c.table(tx).Delete(3) })
	next := func() int64 {
		v := c.make(10)
		update(t, s, func(tx model.Tx) error { return c.table(tx).Create(v) })
		return P(v).GetID()
	}
	if id := next(); id != 4 {
		t.Errorf("id after deleting the newest = %d, want 4", id)
	}
	update(t, s, func(tx model.Tx) error {
		for _, id := range []int64{1, 2, 4} {
			if err := c.table(tx).Delete(id); err != nil {
				return err
			}
		}
		return nil
	})
	if id := next(); id != 5 {
		t.Errorf("id after deleting everything = %d, want 5", id)
	}
	// Deleting and creating in one transaction.
	update(t, s, func(tx model.Tx) error {
		if err := c.table(tx).Delete(5); err != nil {
			return err
		}
		v := c.make(11)
		if err := c.table(tx).Create(v); err != nil {
			return err
		}
		if P(v).GetID() != 6 {
			t.Errorf("id created after a Delete in the same transaction = %d, want 6", P(v).GetID())
		}
		return nil
	})
}

// Every table, and every record set, counts from 1 on its own.
func (s *suite) sequencesPerTable(t *testing.T) {
	st := s.open(t)
	update(t, st, func(tx model.Tx) error {
		var ids []int64
		add := func(v model.Entity, err error) {
			if err != nil {
				t.Error(err)
			}
			ids = append(ids, v.GetID())
		}
		u, d, g := &model.User{Email: "a@example.com"}, &model.Device{UniqueID: "1"}, &model.Group{}
		c, f, q := &model.Command{}, &model.Geofence{}, &model.QueuedCommand{}
		dr, ca := &model.Driver{}, &model.ComputedAttribute{}
		add(u, tx.Users().Create(u))
		add(d, tx.Devices().Create(d))
		add(g, tx.Groups().Create(g))
		add(c, tx.Commands().Create(c))
		add(f, tx.Geofences().Create(f))
		add(q, tx.QueuedCommands().Create(q))
		add(dr, tx.Drivers().Create(dr))
		add(ca, tx.ComputedAttributes().Create(ca))
		sameIDs(t, "first ids of the eight tables", ids, []int64{1, 1, 1, 1, 1, 1, 1, 1})
		for _, name := range []string{"storetest_a", "storetest_b"} {
			id, err := tx.Records(name).NextID()
			if id != 1 || err != nil {
				t.Errorf("first NextID of records %q = %d, %v; want 1", name, id, err)
			}
		}
		return nil
	})
}

// User.Password is accepted on input only; PasswordHash is stored.
func (s *suite) userPassword(t *testing.T) {
	st := s.open(t)
	u := &model.User{Email: "a@example.com", Password: "plain-secret", PasswordHash: "hash-1"}
	update(t, st, func(tx model.Tx) error { return tx.Users().Create(u) })
	check := func(want string) {
		t.Helper()
		view(t, st, func(tx model.Tx) error {
			got, err := tx.Users().Get(u.ID)
			if err != nil {
				return err
			}
			if got.Password != "" || got.PasswordHash != want {
				t.Errorf("stored Password %q, PasswordHash %q; want none and %q", got.Password, got.PasswordHash, want)
			}
			byEmail, err := tx.UserByEmail("a@example.com")
			if err == nil && (byEmail.Password != "" || byEmail.PasswordHash != want) {
				t.Errorf("UserByEmail: Password %q, PasswordHash %q; want none and %q", byEmail.Password, byEmail.PasswordHash, want)
			}
			return err
		})
	}
	check("hash-1")
	u2 := *u
	u2.Password, u2.PasswordHash = "plain-secret-2", "hash-2"
	update(t, st, func(tx model.Tx) error { return tx.Users().Put(&u2) })
	check("hash-2")
}
