package storetest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// The seed is a small store with something in every part of it; state reads
// every part back, so comparing two states shows any change.

// Names of the seed's records and keys, and of collections it never writes.
const (
	seedRecords  = "storetest_things"
	seedKeys     = "storetest_names"
	freshRecords = "storetest_never_written"
	freshKeys    = "storetest_never_written_keys"
)

// seedEmails, seedUIDs and seedTokens are what state looks up.
var (
	seedEmails = []string{"ann@example.com", "bob@example.com", "new@example.com"}
	seedUIDs   = []string{"111", "222", "333"}
	seedTokens = []string{"token-ann", "token-bob", "token-new"}
	// seedLinks are the links state reads from both ends: the seed's and
	// those the writes make.
	seedLinks = []model.Permission{
		{OwnerKind: model.KindUser, OwnerID: 1, PropKind: model.KindDevice, PropID: 1},
		{OwnerKind: model.KindUser, OwnerID: 2, PropKind: model.KindDevice, PropID: 2},
		{OwnerKind: model.KindGroup, OwnerID: 1, PropKind: model.KindDevice, PropID: 2},
		{OwnerKind: model.KindUser, OwnerID: 1, PropKind: model.KindManagedUser, PropID: 2},
		{OwnerKind: model.KindUser, OwnerID: 3, PropKind: model.KindGeofence, PropID: 1},
		{OwnerKind: model.KindUser, OwnerID: 2, PropKind: model.KindManagedUser, PropID: 1},
		{OwnerKind: model.KindDevice, OwnerID: 2, PropKind: model.KindGeofence, PropID: 1},
	}
)

// seed fills a fresh store: users 1 ann and 2 bob, devices 1 "111" and 2
// "222" (device 1 linked to user 1, device 2 to user 2 and group 1), one of
// each other entity, the server, a session per user, positions and events
// of devices 1 and 2, two records and two keys.
func seed(t *testing.T, s model.Store) {
	t.Helper()
	update(t, s, func(tx model.Tx) error {
		for _, step := range []error{
			tx.Users().Create(&model.User{Name: "Ann", Email: "ann@example.com", PasswordHash: "hash-ann", Attributes: model.Attributes{}}),
			tx.Users().Create(&model.User{Name: "Bob", Email: "bob@example.com", PasswordHash: "hash-bob", Attributes: model.Attributes{}}),
			tx.Devices().Create(&model.Device{Name: "one", UniqueID: "111", Attributes: model.Attributes{}}),
			tx.Devices().Create(&model.Device{Name: "two", UniqueID: "222", GroupID: 1, Attributes: model.Attributes{}}),
			tx.Groups().Create(&model.Group{Name: "g", Attributes: model.Attributes{}}),
			tx.Commands().Create(&model.Command{Description: "c", Type: "custom", Attributes: model.Attributes{}}),
			tx.Geofences().Create(&model.Geofence{Name: "f", Area: "CIRCLE (1 2, 30)", Attributes: model.Attributes{}}),
			tx.QueuedCommands().Create(&model.QueuedCommand{Command: model.Command{DeviceID: 1, Type: "engineStop"}, Queued: t0}),
			tx.Drivers().Create(&model.Driver{Name: "d", UniqueID: "rfid-1", Attributes: model.Attributes{}}),
			tx.ComputedAttributes().Create(&model.ComputedAttribute{Attribute: "a", Expression: "speed > 1", Type: "boolean"}),
			tx.Calendars().Create(&model.Calendar{Name: "weekdays", Data: []byte("BEGIN:VCALENDAR"), Attributes: model.Attributes{}}),
			tx.Maintenances().Create(&model.Maintenance{Name: "oil", Type: "totalDistance", Period: 1e7, Attributes: model.Attributes{}}),
			tx.Notifications().Create(&model.Notification{Type: "ignitionOn", Notificators: "web", Attributes: model.Attributes{}}),
			tx.PutServer(&model.Server{Registration: true, Map: "osm", Attributes: model.Attributes{}}),
			tx.PutSession(&model.Session{Token: "token-ann", UserID: 1, Created: t0, Expires: at(60)}),
			tx.PutSession(&model.Session{Token: "token-bob", UserID: 2, Created: t0, Expires: at(-60)}),
			tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: 1, PropKind: model.KindDevice, PropID: 1}),
			tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: 2, PropKind: model.KindDevice, PropID: 2}),
			tx.Link(model.Permission{OwnerKind: model.KindGroup, OwnerID: 1, PropKind: model.KindDevice, PropID: 2}),
			tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: 1, PropKind: model.KindManagedUser, PropID: 2}),
			tx.AddPosition(&model.Position{DeviceID: 1, FixTime: at(1), Attributes: model.Attributes{}}),
			tx.AddPosition(&model.Position{DeviceID: 1, FixTime: at(2), Attributes: model.Attributes{}}),
			tx.AddPosition(&model.Position{DeviceID: 2, FixTime: at(1), Attributes: model.Attributes{}}),
			tx.AddEvent(&model.Event{DeviceID: 1, Type: "deviceOnline", EventTime: at(1), Attributes: model.Attributes{}}),
			tx.AddEvent(&model.Event{DeviceID: 2, Type: "deviceOnline", EventTime: at(1), Attributes: model.Attributes{}}),
			putRecord(tx, seedRecords, `{"n":1}`),
			putRecord(tx, seedRecords, `{"n":2}`),
			tx.Keys(seedKeys).Put("alpha", 1),
			tx.Keys(seedKeys).Put("beta", 2),
			tx.Office().Tickets().Create(&model.Ticket{Title: "t", Status: "open", Stamp: stamp(0)}),
			tx.Office().TicketResponses().Create(&model.TicketResponse{TicketID: 1, Message: "m", Stamp: stamp(1)}),
			tx.Office().Payments().Create(&model.Payment{Method: "card", Currency: "EUR", Amount: 5, Stamp: stamp(1)}),
			tx.Accounts().OTPs().Create(&model.OTP{Key: "otp-ann", Purpose: "reset", Identifier: "ann@example.com", Sent: t0, Expires: at(10)}),
			tx.Accounts().OTPTokens().Create(&model.OTPToken{Key: "tok-ann", Purpose: "reset", UserID: 1, Expires: at(10)}),
			tx.Accounts().SetDemoUser("+1555", 2),
			tx.Notify().PutNotificationSettings(1, map[string]bool{"alarm": false}),
			tx.Notify().PutPushTokens(1, []model.PushToken{{Token: "push-a", Added: t0}, {Token: "push-b", Added: at(1)}}),
		} {
			if step != nil {
				return step
			}
		}
		return nil
	})
}

func putRecord(tx model.Tx, name, data string) error {
	set := tx.Records(name)
	id, err := set.NextID()
	if err != nil {
		return err
	}
	return set.Put(id, []byte(data))
}

// state reads back everything seed and the write cases touch, as text.
func state(t *testing.T, s model.Store) string {
	t.Helper()
	var out strings.Builder
	view(t, s, func(tx model.Tx) error {
		w := func(name string, v any, err error) {
			data, merr := json.Marshal(v)
			if merr != nil {
				data = []byte(fmt.Sprintf("%+v", v))
			}
			fmt.Fprintf(&out, "%s = %s (%v)\n", name, data, err)
		}
		tableState(w, "users", tx.Users())
		tableState(w, "devices", tx.Devices())
		tableState(w, "groups", tx.Groups())
		tableState(w, "commands", tx.Commands())
		tableState(w, "geofences", tx.Geofences())
		tableState(w, "queuedCommands", tx.QueuedCommands())
		tableState(w, "drivers", tx.Drivers())
		tableState(w, "computedAttributes", tx.ComputedAttributes())
		tableState(w, "calendars", tx.Calendars())
		tableState(w, "maintenances", tx.Maintenances())
		tableState(w, "notifications", tx.Notifications())
		// PasswordHash is not in the JSON.
		var hashes []string
		tx.Users().List(func(u *model.User) bool { hashes = append(hashes, u.PasswordHash); return true })
		w("passwordHashes", hashes, nil)
		for _, e := range seedEmails {
			u, err := tx.UserByEmail(e)
			w("userByEmail "+e, u, err)
		}
		for _, uid := range seedUIDs {
			d, err := tx.DeviceByUniqueID(uid)
			w("deviceByUniqueID "+uid, d, err)
		}
		srv, err := tx.Server()
		w("server", srv, err)
		for _, tok := range seedTokens {
			sess, err := tx.Session(tok)
			w("session "+tok, sess, err)
		}
		for _, q := range seedLinks {
			ids, err := tx.Linked(q.OwnerKind, q.OwnerID, q.PropKind)
			w(fmt.Sprintf("linked %s %d %s", q.OwnerKind, q.OwnerID, q.PropKind), sorted(ids), err)
			ids, err = tx.Owners(q.PropKind, q.PropID, q.OwnerKind)
			w(fmt.Sprintf("owners %s %d %s", q.PropKind, q.PropID, q.OwnerKind), sorted(ids), err)
		}
		for device := int64(1); device <= 3; device++ {
			var ps []*model.Position
			err := tx.Positions(device, beginning, end, func(p *model.Position) bool { ps = append(ps, p); return true })
			w(fmt.Sprint("positions ", device), ps, err)
			p, err := tx.LatestPosition(device)
			w(fmt.Sprint("latestPosition ", device), p, err)
			var es []*model.Event
			err = tx.Events(device, beginning, end, func(e *model.Event) bool { es = append(es, e); return true })
			w(fmt.Sprint("events ", device), es, err)
		}
		for id := int64(1); id <= 4; id++ {
			p, err := tx.Position(id)
			w(fmt.Sprint("position ", id), p, err)
			e, err := tx.Event(id)
			w(fmt.Sprint("event ", id), e, err)
		}
		for _, name := range []string{seedRecords, freshRecords} {
			var recs []string
			err := tx.Records(name).List(false, func(id int64, data []byte) bool {
				recs = append(recs, fmt.Sprintf("%d:%s", id, data))
				return true
			})
			w("records "+name, recs, err)
			n, err := tx.Records(name).Count()
			w("records count "+name, n, err)
		}
		officeState(w, tx.Office())
		accountsState(w, tx.Accounts())
		notifyState(w, tx.Notify())
		for _, name := range []string{seedKeys, freshKeys} {
			var keys []string
			err := tx.Keys(name).Scan("", func(k string, id int64) bool {
				keys = append(keys, fmt.Sprintf("%s:%d", k, id))
				return true
			})
			w("keys "+name, keys, err)
		}
		return nil
	})
	return out.String()
}

// officeState reads every filing, whole and by group, and the seed flag.
func officeState(w func(string, any, error), o model.OfficeTx) {
	filingState(w, "tickets", o.Tickets())
	filingState(w, "ticketResponses", o.TicketResponses())
	filingState(w, "documents", o.Documents())
	filingState(w, "files", o.Files())
	filingState(w, "serviceRecords", o.ServiceRecords())
	filingState(w, "serviceTasks", o.ServiceTasks())
	filingState(w, "payments", o.Payments())
	seeded, err := o.TasksSeeded()
	w("tasksSeeded", seeded, err)
}

func filingState[T any](w func(string, any, error), name string, f model.Filing[T]) {
	tableState(w, name, f)
	for group := int64(0); group <= 3; group++ {
		list, total, err := f.Group(group, model.Query{}, false)
		w(fmt.Sprint(name, " group ", group), list, err)
		w(fmt.Sprint(name, " group ", group, " total"), total, nil)
	}
}

// accountsState reads the keyed tables by key too.
func accountsState(w func(string, any, error), a model.AccountsTx) {
	tableState(w, "otps", a.OTPs())
	for _, key := range []string{"otp-ann", "otp-new", "otp-moved"} {
		v, err := a.OTPs().ByKey(key)
		w("otp "+key, v, err)
	}
	tableState(w, "otpTokens", a.OTPTokens())
	for _, key := range []string{"tok-ann", "tok-new"} {
		v, err := a.OTPTokens().ByKey(key)
		w("otpToken "+key, v, err)
	}
	for _, phone := range []string{"+1555", "+1666"} {
		id, ok, err := a.DemoUser(phone)
		w("demoUser "+phone, []any{id, ok}, err)
	}
	on, err := a.Maintenance()
	w("maintenance", on, err)
}

func notifyState(w func(string, any, error), n model.NotifyTx) {
	for user := int64(1); user <= 3; user++ {
		s, err := n.NotificationSettings(user)
		w(fmt.Sprint("notificationSettings ", user), s, err)
		t, err := n.PushTokens(user)
		w(fmt.Sprint("pushTokens ", user), t, err)
	}
	for _, token := range []string{"push-a", "push-b", "push-c"} {
		id, ok, err := n.PushTokenOwner(token)
		w("pushTokenOwner "+token, []any{id, ok}, err)
	}
	holders, err := n.PushTokenHolders()
	w("pushTokenHolders", holders, err)
}

func tableState[T any](w func(string, any, error), name string, tbl model.Table[T]) {
	var all []*T
	err := tbl.List(func(v *T) bool { all = append(all, v); return true })
	w(name, all, err)
	n, err := tbl.Count()
	w(name+" count", n, err)
}

func sorted(ids []int64) []int64 {
	out := append([]int64{}, ids...)
	slices.Sort(out)
	return out
}

// diffState fails when two states differ, naming the lines that do.
func diffState(t *testing.T, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var diff []string
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			diff = append(diff, "  got  "+gl, "  want "+wl)
		}
	}
	t.Errorf("%s changed the store:\n%s", what, strings.Join(diff, "\n"))
}

// write is one operation that changes the seeded store.
type write struct {
	name string
	op   func(model.Tx) error
}

// writes lists one change of every kind the store offers, each valid on
// the seeded store.
func writes() []write {
	perm := func(ok string, oid int64, pk string, pid int64) model.Permission {
		return model.Permission{OwnerKind: ok, OwnerID: oid, PropKind: pk, PropID: pid}
	}
	return []write{
		{"Users.Create", func(tx model.Tx) error {
			return tx.Users().Create(&model.User{Email: "new@example.com", Attributes: model.Attributes{}})
		}},
		{"Users.Put", func(tx model.Tx) error {
			return tx.Users().Put(&model.User{Base: model.Base{ID: 1}, Name: "Ann2", Email: "new@example.com", Attributes: model.Attributes{}})
		}},
		{"Users.Delete", func(tx model.Tx) error { return tx.Users().Delete(2) }},
		{"Devices.Create", func(tx model.Tx) error {
			return tx.Devices().Create(&model.Device{UniqueID: "333", Attributes: model.Attributes{}})
		}},
		{"Devices.Put", func(tx model.Tx) error {
			return tx.Devices().Put(&model.Device{Base: model.Base{ID: 1}, UniqueID: "333", Attributes: model.Attributes{}})
		}},
		{"Devices.Delete", func(tx model.Tx) error { return tx.Devices().Delete(1) }},
		{"Groups.Create", func(tx model.Tx) error { return tx.Groups().Create(&model.Group{Name: "g2"}) }},
		{"Groups.Put", func(tx model.Tx) error { return tx.Groups().Put(&model.Group{Base: model.Base{ID: 1}, Name: "g1"}) }},
		{"Groups.Delete", func(tx model.Tx) error { return tx.Groups().Delete(1) }},
		{"Commands.Create", func(tx model.Tx) error { return tx.Commands().Create(&model.Command{Type: "x"}) }},
		{"Commands.Put", func(tx model.Tx) error { return tx.Commands().Put(&model.Command{Base: model.Base{ID: 1}, Type: "y"}) }},
		{"Commands.Delete", func(tx model.Tx) error { return tx.Commands().Delete(1) }},
		{"Geofences.Create", func(tx model.Tx) error { return tx.Geofences().Create(&model.Geofence{Name: "f2"}) }},
		{"Geofences.Put", func(tx model.Tx) error {
			return tx.Geofences().Put(&model.Geofence{Base: model.Base{ID: 1}, Name: "f1"})
		}},
		{"Geofences.Delete", func(tx model.Tx) error { return tx.Geofences().Delete(1) }},
		{"QueuedCommands.Create", func(tx model.Tx) error {
			return tx.QueuedCommands().Create(&model.QueuedCommand{Command: model.Command{DeviceID: 2}, Queued: t0})
		}},
		{"QueuedCommands.Put", func(tx model.Tx) error {
			return tx.QueuedCommands().Put(&model.QueuedCommand{Command: model.Command{Base: model.Base{ID: 1}, DeviceID: 2}})
		}},
		{"QueuedCommands.Delete", func(tx model.Tx) error { return tx.QueuedCommands().Delete(1) }},
		{"Drivers.Create", func(tx model.Tx) error { return tx.Drivers().Create(&model.Driver{UniqueID: "rfid-2"}) }},
		{"Drivers.Put", func(tx model.Tx) error {
			return tx.Drivers().Put(&model.Driver{Base: model.Base{ID: 1}, UniqueID: "rfid-3"})
		}},
		{"Drivers.Delete", func(tx model.Tx) error { return tx.Drivers().Delete(1) }},
		{"ComputedAttributes.Create", func(tx model.Tx) error {
			return tx.ComputedAttributes().Create(&model.ComputedAttribute{Attribute: "b"})
		}},
		{"ComputedAttributes.Put", func(tx model.Tx) error {
			return tx.ComputedAttributes().Put(&model.ComputedAttribute{Base: model.Base{ID: 1}, Attribute: "c"})
		}},
		{"ComputedAttributes.Delete", func(tx model.Tx) error { return tx.ComputedAttributes().Delete(1) }},
		{"Calendars.Create", func(tx model.Tx) error { return tx.Calendars().Create(&model.Calendar{Name: "b"}) }},
		{"Calendars.Put", func(tx model.Tx) error {
			return tx.Calendars().Put(&model.Calendar{Base: model.Base{ID: 1}, Name: "c"})
		}},
		{"Calendars.Delete", func(tx model.Tx) error { return tx.Calendars().Delete(1) }},
		{"Maintenances.Create", func(tx model.Tx) error { return tx.Maintenances().Create(&model.Maintenance{Name: "b"}) }},
		{"Maintenances.Put", func(tx model.Tx) error {
			return tx.Maintenances().Put(&model.Maintenance{Base: model.Base{ID: 1}, Name: "c"})
		}},
		{"Maintenances.Delete", func(tx model.Tx) error { return tx.Maintenances().Delete(1) }},
		{"Notifications.Create", func(tx model.Tx) error { return tx.Notifications().Create(&model.Notification{Type: "alarm"}) }},
		{"Notifications.Put", func(tx model.Tx) error {
			return tx.Notifications().Put(&model.Notification{Base: model.Base{ID: 1}, Type: "alarm"})
		}},
		{"Notifications.Delete", func(tx model.Tx) error { return tx.Notifications().Delete(1) }},
		{"PutServer", func(tx model.Tx) error { return tx.PutServer(&model.Server{Map: "other"}) }},
		{"PutSession", func(tx model.Tx) error {
			return tx.PutSession(&model.Session{Token: "token-new", UserID: 1, Created: t0, Expires: at(60)})
		}},
		{"DeleteSession", func(tx model.Tx) error { return tx.DeleteSession("token-ann") }},
		{"DeleteSessions", func(tx model.Tx) error { _, err := tx.DeleteSessions(1, t0); return err }},
		{"Link", func(tx model.Tx) error { return tx.Link(perm(model.KindUser, 3, model.KindGeofence, 1)) }},
		{"Unlink", func(tx model.Tx) error { return tx.Unlink(perm(model.KindUser, 1, model.KindDevice, 1)) }},
		{"UnlinkAll", func(tx model.Tx) error { return tx.UnlinkAll(model.KindDevice, 2) }},
		{"AddPosition", func(tx model.Tx) error { return tx.AddPosition(&model.Position{DeviceID: 3, FixTime: at(5)}) }},
		{"DeletePositions", func(tx model.Tx) error {
			_, err := tx.DeletePositions(1, beginning, end, 10)
			return err
		}},
		{"AddEvent", func(tx model.Tx) error { return tx.AddEvent(&model.Event{DeviceID: 3, EventTime: at(5)}) }},
		{"DeleteEvents", func(tx model.Tx) error { _, err := tx.DeleteEvents(1, 10); return err }},
		{"Records.NextID", func(tx model.Tx) error {
			// A new id is a change: the next caller must get another.
			_, err := tx.Records(seedRecords).NextID()
			if err != nil {
				return err
			}
			return tx.Records(seedRecords).Put(3, []byte(`{"n":3}`))
		}},
		{"Records.Put", func(tx model.Tx) error { return tx.Records(seedRecords).Put(1, []byte(`{"n":10}`)) }},
		{"Records.Delete", func(tx model.Tx) error { _, err := tx.Records(seedRecords).Delete(1); return err }},
		{"Records.Put of a new collection", func(tx model.Tx) error { return tx.Records(freshRecords).Put(1, []byte(`{}`)) }},
		{"Records.NextID of a new collection", func(tx model.Tx) error {
			id, err := tx.Records(freshRecords).NextID()
			if err != nil {
				return err
			}
			return tx.Records(freshRecords).Put(id, []byte(`{}`))
		}},
		{"Office.Tickets.Create", func(tx model.Tx) error {
			return tx.Office().Tickets().Create(&model.Ticket{Title: "t2", Stamp: stamp(1)})
		}},
		{"Office.Tickets.Put to another owner", func(tx model.Tx) error {
			return tx.Office().Tickets().Put(&model.Ticket{ID: 1, Title: "t1", Stamp: stamp(1)})
		}},
		{"Office.Tickets.Delete", func(tx model.Tx) error { return tx.Office().Tickets().Delete(1) }},
		{"Office.TicketResponses.Create", func(tx model.Tx) error {
			return tx.Office().TicketResponses().Create(&model.TicketResponse{TicketID: 1, Stamp: stamp(0)})
		}},
		{"Office.TicketResponses.Put to another ticket", func(tx model.Tx) error {
			return tx.Office().TicketResponses().Put(&model.TicketResponse{ID: 1, TicketID: 2, Stamp: stamp(1)})
		}},
		{"Office.TicketResponses.Delete", func(tx model.Tx) error { return tx.Office().TicketResponses().Delete(1) }},
		{"Office.Documents.Create", func(tx model.Tx) error {
			return tx.Office().Documents().Create(&model.Document{DocumentOf: "vehicle", EntityID: 1, Stamp: stamp(0)})
		}},
		{"Office.Files.Create", func(tx model.Tx) error { return tx.Office().Files().Create(&model.File{Name: "f", Stamp: stamp(0)}) }},
		{"Office.ServiceRecords.Create", func(tx model.Tx) error {
			return tx.Office().ServiceRecords().Create(&model.ServiceRecord{Title: "s", VehicleID: 1, Stamp: stamp(0)})
		}},
		{"Office.ServiceTasks.Create", func(tx model.Tx) error {
			return tx.Office().ServiceTasks().Create(&model.ServiceTask{Label: "public"})
		}},
		{"Office.Payments.Put", func(tx model.Tx) error {
			return tx.Office().Payments().Put(&model.Payment{ID: 1, Method: "cash", Stamp: stamp(1)})
		}},
		{"Office.Payments.Delete", func(tx model.Tx) error { return tx.Office().Payments().Delete(1) }},
		{"Office.SetTasksSeeded", func(tx model.Tx) error { return tx.Office().SetTasksSeeded() }},
		{"Accounts.OTPs.Create", func(tx model.Tx) error {
			return tx.Accounts().OTPs().Create(&model.OTP{Key: "otp-new", Sent: t0, Expires: at(10)})
		}},
		{"Accounts.OTPs.Put to a new key", func(tx model.Tx) error {
			return tx.Accounts().OTPs().Put(&model.OTP{Base: model.Base{ID: 1}, Key: "otp-moved", Sent: t0, Expires: at(10)})
		}},
		{"Accounts.OTPs.Delete", func(tx model.Tx) error { return tx.Accounts().OTPs().Delete(1) }},
		{"Accounts.OTPTokens.Create", func(tx model.Tx) error {
			return tx.Accounts().OTPTokens().Create(&model.OTPToken{Key: "tok-new", Expires: at(10)})
		}},
		{"Accounts.OTPTokens.Delete", func(tx model.Tx) error { return tx.Accounts().OTPTokens().Delete(1) }},
		{"Accounts.SetDemoUser", func(tx model.Tx) error { return tx.Accounts().SetDemoUser("+1666", 1) }},
		{"Accounts.SetMaintenance", func(tx model.Tx) error { return tx.Accounts().SetMaintenance(true) }},
		{"Notify.PutNotificationSettings", func(tx model.Tx) error {
			return tx.Notify().PutNotificationSettings(2, map[string]bool{"ignition": false})
		}},
		{"Notify.DeleteNotificationSettings", func(tx model.Tx) error { return tx.Notify().DeleteNotificationSettings(1) }},
		{"Notify.PutPushTokens taking a token", func(tx model.Tx) error {
			return tx.Notify().PutPushTokens(2, []model.PushToken{{Token: "push-b", Added: at(2)}, {Token: "push-c", Added: at(2)}})
		}},
		{"Notify.PutPushTokens of none", func(tx model.Tx) error { return tx.Notify().PutPushTokens(1, nil) }},
		{"Keys.Put", func(tx model.Tx) error { return tx.Keys(seedKeys).Put("alpha", 7) }},
		{"Keys.Delete", func(tx model.Tx) error { return tx.Keys(seedKeys).Delete("alpha") }},
		{"Keys.Put of a new set", func(tx model.Tx) error { return tx.Keys(freshKeys).Put("k", 1) }},
	}
}
