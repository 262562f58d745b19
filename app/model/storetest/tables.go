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
		{"Calendars", tableCase[model.Calendar, *model.Calendar]{
			table: model.Tx.Calendars,
			make: func(i int) *model.Calendar {
				return &model.Calendar{Name: fmt.Sprint("cal", i), Data: []byte(fmt.Sprint("BEGIN:VCALENDAR\r\n", i)), Attributes: attrs(i)}
			},
			edit: func(c *model.Calendar) { c.Name, c.Data = "renamed", []byte{0, 1, 0xff} },
		}.runner(s)},
		{"Maintenances", tableCase[model.Maintenance, *model.Maintenance]{
			table: model.Tx.Maintenances,
			make: func(i int) *model.Maintenance {
				return &model.Maintenance{Name: fmt.Sprint("oil", i), Type: "totalDistance", Start: 1000.5, Period: 1e7, Attributes: attrs(i)}
			},
			edit: func(m *model.Maintenance) { m.Type, m.Start, m.Period = "hours", 0, 3.6e6 },
		}.runner(s)},
		{"Notifications", tableCase[model.Notification, *model.Notification]{
			table: model.Tx.Notifications,
			make: func(i int) *model.Notification {
				return &model.Notification{Type: "alarm", Notificators: "web,mail", Always: i%2 == 0, Attributes: model.Attributes{"alarms": "sos"}}
			},
			edit: func(n *model.Notification) { n.Type, n.CalendarID, n.Notificators = "ignitionOn", 3, "sms" },
		}.runner(s)},
		{"Reports", tableCase[model.Report, *model.Report]{
			table: model.Tx.Reports,
			make: func(i int) *model.Report {
				return &model.Report{Type: "trips", Description: fmt.Sprint("weekly", i), CalendarID: 1, Attributes: attrs(i)}
			},
			edit: func(r *model.Report) { r.Type, r.CalendarID = "summary", 2 },
		}.runner(s)},
		{"Tickets", tableCase[model.Ticket, *model.Ticket]{
			table: func(tx model.Tx) model.Table[model.Ticket] { return tx.Office().Tickets() },
			make: func(i int) *model.Ticket {
				return &model.Ticket{TicketNo: int64(1001 + i), Title: fmt.Sprint("t", i), Category: "app", Status: "open",
					FileIDs: []model.TextID{model.TextID(i + 1)}, Device: &model.TicketDevice{Value: "1", Name: "van"}, Stamp: stamp(i)}
			},
			edit: func(v *model.Ticket) { v.Status, v.Device, v.FileIDs, v.UserID = "closed", nil, nil, 9 },
		}.runner(s)},
		{"TicketResponses", tableCase[model.TicketResponse, *model.TicketResponse]{
			table: func(tx model.Tx) model.Table[model.TicketResponse] { return tx.Office().TicketResponses() },
			make: func(i int) *model.TicketResponse {
				return &model.TicketResponse{TicketID: model.TextID(i%2 + 1), Message: fmt.Sprint("m", i), FileIDs: []model.TextID{},
					SenderInfo: model.SenderInfo{Name: "Ann", ID: 1}, Stamp: stamp(i)}
			},
			edit: func(v *model.TicketResponse) { v.Message, v.TicketID = "edited", 7 },
		}.runner(s)},
		{"Documents", tableCase[model.Document, *model.Document]{
			table: func(tx model.Tx) model.Table[model.Document] { return tx.Office().Documents() },
			make: func(i int) *model.Document {
				amount := float64(i) + 0.5
				return &model.Document{DocumentOf: "vehicle", EntityID: model.TextID(i + 1), DocumentType: fmt.Sprint("d", i),
					Amount: &amount, ExpiryDate: model.Date{Time: at(i)}, ExpiryNotices: []int{30}, Stamp: stamp(i)}
			},
			edit: func(v *model.Document) {
				v.Amount, v.ExpiryDate, v.RenewalDate, v.ExpiryNotices = nil, model.Date{}, model.Date{Time: at(5)}, nil
			},
		}.runner(s)},
		{"Files", tableCase[model.File, *model.File]{
			table: func(tx model.Tx) model.Table[model.File] { return tx.Office().Files() },
			make: func(i int) *model.File {
				return &model.File{Name: fmt.Sprint("f", i, ".pdf"), Size: int64(i), Type: "application/pdf", Stamp: stamp(i)}
			},
			edit: func(v *model.File) { v.AttachedTo = "ticket:1" },
		}.runner(s)},
		{"ServiceRecords", tableCase[model.ServiceRecord, *model.ServiceRecord]{
			table: func(tx model.Tx) model.Table[model.ServiceRecord] { return tx.Office().ServiceRecords() },
			make: func(i int) *model.ServiceRecord {
				odo := float64(1000 * i)
				return &model.ServiceRecord{Title: fmt.Sprint("s", i), VehicleID: 1, ServiceDate: model.Date{Time: at(i)},
					Odometer: &odo, ServiceTasks: []string{"Oil change"}, Stamp: stamp(i)}
			},
			edit: func(v *model.ServiceRecord) { v.Odometer, v.ServiceTasks, v.VehicleID = nil, nil, 2 },
		}.runner(s)},
		{"ServiceTasks", tableCase[model.ServiceTask, *model.ServiceTask]{
			table: func(tx model.Tx) model.Table[model.ServiceTask] { return tx.Office().ServiceTasks() },
			make: func(i int) *model.ServiceTask {
				return &model.ServiceTask{Label: fmt.Sprint("task", i), Stamp: stamp(i)}
			},
			edit: func(v *model.ServiceTask) { v.Label, v.UserID = "public", 0 },
		}.runner(s)},
		{"Payments", tableCase[model.Payment, *model.Payment]{
			table: func(tx model.Tx) model.Table[model.Payment] { return tx.Office().Payments() },
			make: func(i int) *model.Payment {
				return &model.Payment{Method: "card", Amount: float64(i) + 0.25, Currency: "EUR", Status: "completed", Stamp: stamp(i)}
			},
			edit: func(v *model.Payment) { v.Status, v.Reference, v.Discount = "failed", "INV", 1.5 },
		}.runner(s)},
		{"OTPs", tableCase[model.OTP, *model.OTP]{
			table: func(tx model.Tx) model.Table[model.OTP] { return tx.Accounts().OTPs() },
			make: func(i int) *model.OTP {
				return &model.OTP{Key: fmt.Sprint("registration\x00u", i), Purpose: "registration", Identifier: fmt.Sprint("u", i),
					Hash: "hash", Sent: at(i), Expires: at(i + 10)}
			},
			edit: func(v *model.OTP) { v.Tries, v.UserID, v.Name = 2, 5, "Ann" },
		}.runner(s)},
		{"OTPTokens", tableCase[model.OTPToken, *model.OTPToken]{
			table: func(tx model.Tx) model.Table[model.OTPToken] { return tx.Accounts().OTPTokens() },
			make: func(i int) *model.OTPToken {
				return &model.OTPToken{Key: fmt.Sprint("sha", i), Purpose: "reset", Identifier: fmt.Sprint("u", i), Expires: at(i)}
			},
			edit: func(v *model.OTPToken) { v.UserID, v.Expires = 3, at(50) },
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
		tk, py := &model.Ticket{}, &model.Payment{}
		otp := &model.OTP{Key: "k"}
		add(u, tx.Users().Create(u))
		add(d, tx.Devices().Create(d))
		add(g, tx.Groups().Create(g))
		add(c, tx.Commands().Create(c))
		add(f, tx.Geofences().Create(f))
		add(q, tx.QueuedCommands().Create(q))
		add(dr, tx.Drivers().Create(dr))
		add(ca, tx.ComputedAttributes().Create(ca))
		add(tk, tx.Office().Tickets().Create(tk))
		add(py, tx.Office().Payments().Create(py))
		add(otp, tx.Accounts().OTPs().Create(otp))
		sameIDs(t, "first ids of the eleven tables", ids, []int64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
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

// stamp is the Stamp of the i-th office record: owner 1 or 2.
func stamp(i int) model.Stamp {
	return model.Stamp{UserID: model.TextID(i%2 + 1), CreatedAt: at(i), UpdatedAt: at(i + 1)}
}
