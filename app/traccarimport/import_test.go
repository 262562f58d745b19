package traccarimport_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/traccarimport"
	tt "github.com/fleetd/fleetd/app/traccarimport/traccartest"
	"github.com/fleetd/fleetd/storage"
	"golang.org/x/crypto/bcrypt"
)

// world is a fake Traccar holding tt.Fleet() and a fleetd store in a
// temporary directory.
type world struct {
	t    *testing.T
	fake *tt.Server
	db   *storage.DB
	core *app.Core
}

func newWorld(t *testing.T) *world {
	t.Helper()
	fake := tt.New(tt.Fleet())
	t.Cleanup(fake.Close)
	db, err := storage.Open(filepath.Join(t.TempDir(), "fleetd.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &world{t: t, fake: fake, db: db, core: app.New(db, app.Options{BcryptCost: bcrypt.MinCost})}
}

// now is the import's clock: long after the data set's day.
var now = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// options imports everything from the fake, with the history of the data
// set's day and the next (and a day either side).
func (w *world) options() traccarimport.Options {
	o := traccarimport.Options{URL: w.fake.URL, Email: tt.AdminEmail, Password: tt.AdminPassword,
		From: tt.Day.AddDate(0, 0, -1), To: tt.Day.AddDate(0, 0, 3), Events: true, Now: func() time.Time { return now }}
	traccarimport.QuickRetries(&o)
	return o
}

func (w *world) run(o traccarimport.Options) (*traccarimport.Summary, error) {
	return traccarimport.Run(context.Background(), traccarimport.Services{Store: w.core.Store(), Accounts: w.core.Accounts,
		Fleet: w.core.Fleet}, o)
}

func (w *world) mustRun(o traccarimport.Options) *traccarimport.Summary {
	w.t.Helper()
	s, err := w.run(o)
	if err != nil {
		w.t.Fatalf("import: %v", err)
	}
	return s
}

// view runs fn in a read transaction of the store.
func (w *world) view(fn func(tx model.Tx) error) {
	w.t.Helper()
	if err := w.db.View(fn); err != nil {
		w.t.Fatal(err)
	}
}

// all lists a table.
func all[T any](w *world, table func(model.Tx) model.Table[T]) []*T {
	var out []*T
	w.view(func(tx model.Tx) error {
		return table(tx).List(func(v *T) bool { out = append(out, v); return true })
	})
	return out
}

// named is the object of a table whose name is name.
func named[T any](w *world, table func(model.Tx) model.Table[T], name func(*T) string, want string) *T {
	w.t.Helper()
	for _, v := range all(w, table) {
		if name(v) == want {
			return v
		}
	}
	w.t.Fatalf("no %T named %q", *new(T), want)
	return nil
}

func device(w *world, name string) *model.Device {
	w.t.Helper()
	return named(w, model.Tx.Devices, func(d *model.Device) string { return d.Name }, name)
}

func group(w *world, name string) *model.Group {
	w.t.Helper()
	return named(w, model.Tx.Groups, func(g *model.Group) string { return g.Name }, name)
}

func geofence(w *world, name string) *model.Geofence {
	w.t.Helper()
	return named(w, model.Tx.Geofences, func(g *model.Geofence) string { return g.Name }, name)
}

func user(w *world, email string) *model.User {
	w.t.Helper()
	var u *model.User
	w.view(func(tx model.Tx) (err error) { u, err = tx.UserByEmail(email); return err })
	return u
}

func positions(w *world, deviceID int64) []*model.Position {
	var out []*model.Position
	w.view(func(tx model.Tx) error {
		return tx.Positions(deviceID, time.Time{}, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), func(p *model.Position) bool {
			out = append(out, p)
			return true
		})
	})
	return out
}

func events(w *world, deviceID int64) []*model.Event {
	var out []*model.Event
	w.view(func(tx model.Tx) error {
		return tx.Events(deviceID, time.Time{}, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), func(e *model.Event) bool {
			out = append(out, e)
			return true
		})
	})
	return out
}

func linked(w *world, ownerKind string, ownerID int64, propKind string) []int64 {
	var ids []int64
	w.view(func(tx model.Tx) (err error) { ids, err = tx.Linked(ownerKind, ownerID, propKind); return err })
	slices.Sort(ids)
	return ids
}

func ids(vs ...int64) []int64 {
	slices.Sort(vs)
	return vs
}

// tally is a kind's counts as "created/existing/updated/skipped".
func tally(s *traccarimport.Summary, kind string) string {
	k := s.Kind(kind)
	if k == nil {
		return "missing"
	}
	return fmt.Sprintf("%d/%d/%d/%d", k.Created, k.Existing, k.Updated, len(k.Skipped))
}

// firstRun is the tally of every kind after the first import.
var firstRun = map[string]string{
	"users": "2/0/0/0", "calendars": "1/0/0/0", "groups": "3/0/0/0", "devices": "3/0/0/0",
	"geofences": "2/0/0/1", // Route B17 is a LINESTRING
	"commands":  "2/0/0/0", "notifications": "2/0/0/0", "maintenance": "1/0/0/0", "drivers": "2/0/0/0",
	"computed attributes": "2/0/0/0",
	// the admin's 16 own links (Company only of the groups: it reaches
	// its subgroups; not Route B17) and its managed user, the
	// dispatcher's 10 (not Vans North: North depot reaches it), Van 1's 4
	// and North depot's 4
	"links": "35/0/0/2",
}

func checkTallies(t *testing.T, s *traccarimport.Summary, want map[string]string) {
	t.Helper()
	for kind, w := range want {
		if got := tally(s, kind); got != w {
			t.Errorf("%s: created/existing/updated/skipped %s, want %s (%+v)", kind, got, w, s.Kind(kind))
		}
	}
}

// Everything arrives, with every reference rewritten to fleetd's ids.
func TestImportEverything(t *testing.T) {
	w := newWorld(t)
	s := w.mustRun(w.options())
	checkTallies(t, s, firstRun)
	if s.Version != "6.6" || s.Server != w.fake.URL {
		t.Errorf("server %q version %q", s.Server, s.Version)
	}
	if k := s.Kind("geofences"); len(k.Skipped) == 1 &&
		(!strings.Contains(k.Skipped[0].What, `geofence 22 "Route B17"`) || !strings.Contains(k.Skipped[0].Reason, `unsupported shape "LINESTRING"`)) {
		t.Errorf("geofence skipped: %+v", k.Skipped)
	}
	if !slices.Equal(s.NeedReset, []string{tt.DispatcherEmail}) {
		t.Errorf("need a reset: %v", s.NeedReset)
	}

	// users: the importing administrator logs in with the password given
	admin, dana := user(w, tt.AdminEmail), user(w, tt.DispatcherEmail)
	if _, err := w.core.Accounts.Login(tt.AdminEmail, tt.AdminPassword, "", ""); err != nil || !admin.Administrator {
		t.Errorf("admin: login %v, administrator %v", err, admin.Administrator)
	}
	if _, err := w.core.Accounts.Login(tt.DispatcherEmail, tt.DispatcherPass, "", ""); err == nil {
		t.Error("the dispatcher's Traccar password works: fleetd cannot know it")
	}
	if dana.Administrator || !dana.DeviceReadonly || !dana.LimitCommands || dana.Phone != "+49 151 23456789" ||
		dana.ExpirationTime == nil || !dana.ExpirationTime.Equal(time.Date(2027, 12, 31, 23, 0, 0, 0, time.UTC)) ||
		dana.Attributes["distanceUnit"] != "km" || admin.Attributes["timezone"] != "Europe/Berlin" {
		t.Errorf("dispatcher %+v", dana)
	}

	// the group hierarchy and the devices' references
	company, north, vans := group(w, "Company"), group(w, "North depot"), group(w, "Vans North")
	if company.GroupID != 0 || north.GroupID != company.ID || vans.GroupID != north.ID || vans.Attributes["speedLimit"] != 48.6 {
		t.Errorf("groups: %+v %+v %+v", company, north, vans)
	}
	cal := named(w, model.Tx.Calendars, func(c *model.Calendar) string { return c.Name }, "Working hours")
	if string(cal.Data) != tt.WorkingHours {
		t.Errorf("calendar data %q", cal.Data)
	}
	van, truck, car := device(w, "Van 1"), device(w, "Truck 7"), device(w, "Car 3")
	if van.GroupID != vans.ID || van.UniqueID != "359710049085611" || van.Model != "FMB920" || van.Attributes["speedLimit"] != 48.6 ||
		truck.GroupID != north.ID || car.GroupID != 0 || car.CalendarID != cal.ID ||
		car.ExpirationTime == nil || !car.ExpirationTime.Equal(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("devices: %+v\n%+v\n%+v", van, truck, car)
	}
	if car.Status != model.StatusOffline || car.PositionID != 0 {
		t.Errorf("Car 3 took Traccar's status or position: %+v", car)
	}
	depot, park := geofence(w, "Depot North"), geofence(w, "Customer park")
	if depot.CalendarID != cal.ID || depot.Area != "CIRCLE (52.5200 13.4050, 150)" || depot.Attributes["color"] != "#3f51b5" ||
		!strings.HasPrefix(park.Area, "POLYGON") {
		t.Errorf("geofences: %+v %+v", depot, park)
	}
	stop := named(w, model.Tx.Commands, func(c *model.Command) string { return c.Description }, "Engine stop")
	reboot := named(w, model.Tx.Commands, func(c *model.Command) string { return c.Description }, "Reboot")
	if reboot.Type != "custom" || !reboot.TextChannel || reboot.Attributes["data"] != "cpureset" {
		t.Errorf("command %+v", reboot)
	}
	alarm := named(w, model.Tx.Notifications, func(n *model.Notification) string { return n.Type }, model.EventAlarm)
	enter := named(w, model.Tx.Notifications, func(n *model.Notification) string { return n.Type }, model.EventGeofenceEnter)
	if alarm.Notificators != "web,mail" || alarm.Attributes["alarms"] != "sos,powerCut" || alarm.CalendarID != cal.ID ||
		!enter.Always || enter.CommandID != stop.ID {
		t.Errorf("notifications: %+v %+v", alarm, enter)
	}
	oil := named(w, model.Tx.Maintenances, func(m *model.Maintenance) string { return m.Name }, "Oil change")
	if oil.Type != "totalDistance" || oil.Period != 15000000 {
		t.Errorf("maintenance %+v", oil)
	}
	anna := named(w, model.Tx.Drivers, func(d *model.Driver) string { return d.Name }, "Anna Schmidt")
	fuel := named(w, model.Tx.ComputedAttributes, func(a *model.ComputedAttribute) string { return a.Attribute }, "fuel")
	ignition := named(w, model.Tx.ComputedAttributes, func(a *model.ComputedAttribute) string { return a.Attribute }, "ignition")
	if anna.UniqueID != "A1B2C3D4" || fuel.Expression != "adc1 * 0.0125" || fuel.Priority != 10 || ignition.Type != "boolean" {
		t.Errorf("driver %+v, attributes %+v %+v", anna, fuel, ignition)
	}

	// the links, and what they let the dispatcher see
	for _, l := range []struct {
		owner string
		id    int64
		prop  string
		want  []int64
	}{
		{model.KindUser, dana.ID, model.KindDevice, ids(car.ID)},
		{model.KindUser, dana.ID, model.KindGroup, ids(north.ID)},
		{model.KindUser, dana.ID, model.KindGeofence, ids(depot.ID)},
		{model.KindUser, dana.ID, model.KindNotification, ids(alarm.ID, enter.ID)},
		{model.KindUser, dana.ID, model.KindCalendar, ids(cal.ID)},
		{model.KindUser, dana.ID, model.KindDriver, ids(anna.ID)},
		{model.KindUser, dana.ID, model.KindAttribute, ids(fuel.ID)},
		{model.KindUser, dana.ID, model.KindCommand, ids(stop.ID)},
		{model.KindUser, dana.ID, model.KindMaintenance, ids(oil.ID)},
		{model.KindUser, admin.ID, model.KindManagedUser, ids(dana.ID)},
		{model.KindUser, admin.ID, model.KindDevice, ids(van.ID, truck.ID, car.ID)},
		{model.KindDevice, van.ID, model.KindGeofence, ids(depot.ID)},
		{model.KindDevice, van.ID, model.KindDriver, ids(anna.ID)},
		{model.KindDevice, van.ID, model.KindAttribute, ids(ignition.ID)},
		{model.KindDevice, van.ID, model.KindMaintenance, ids(oil.ID)},
		{model.KindGroup, north.ID, model.KindGeofence, ids(park.ID)},
		{model.KindGroup, north.ID, model.KindNotification, ids(alarm.ID)},
		{model.KindGroup, north.ID, model.KindCommand, ids(reboot.ID)},
		{model.KindGroup, north.ID, model.KindAttribute, ids(fuel.ID)},
	} {
		if got := linked(w, l.owner, l.id, l.prop); !slices.Equal(got, l.want) {
			t.Errorf("%s %d -> %s: %v, want %v", l.owner, l.id, l.prop, got, l.want)
		}
	}
	seen, err := w.core.Fleet.Devices.List(dana, model.Query{})
	if err != nil || len(seen) != 3 {
		t.Errorf("the dispatcher sees %d devices (%v), want 3: Car 3 and, through North depot, Van 1 and Truck 7", len(seen), err)
	}
	if k := s.Kind("links"); len(k.Skipped) == 2 && !strings.Contains(fmt.Sprint(k.Skipped), "geofence 22") {
		t.Errorf("links skipped: %+v", k.Skipped)
	}

	// the history
	h := s.History
	if h == nil || h.Devices != 3 || h.Positions != tt.Van1Positions+tt.Truck7Positions || h.Events != 8 ||
		h.PositionsThere != 0 || h.EventsWithoutPosition != 0 || len(h.Skipped) != 0 {
		t.Fatalf("history %+v", h)
	}
	vp, tp := positions(w, van.ID), positions(w, truck.ID)
	if len(vp) != tt.Van1Positions || len(tp) != tt.Truck7Positions || len(positions(w, car.ID)) != 0 {
		t.Fatalf("positions: van %d, truck %d", len(vp), len(tp))
	}
	first, last := vp[0], vp[len(vp)-1]
	if !first.FixTime.Equal(tt.Day.Add(6*time.Hour)) || first.Protocol != "teltonika" || !slices.Equal(first.GeofenceIDs, []int64{depot.ID}) ||
		first.Attributes["ignition"] != true || first.Attributes["totalDistance"] == nil || first.Attributes["io239"] != 1.0 ||
		!first.ServerTime.Equal(tt.Day.Add(6*time.Hour+2*time.Second)) || len(vp[10].GeofenceIDs) != 0 {
		t.Errorf("first position %+v", first)
	}
	if tp[0].Address == nil || *tp[0].Address != "Karl-Marx-Straße, Berlin" || tp[0].Network == nil || tp[5].Valid {
		t.Errorf("truck position %+v", tp[0])
	}
	van = device(w, "Van 1")
	if van.PositionID != last.ID || van.LastUpdate == nil || !van.LastUpdate.Equal(last.ServerTime) {
		t.Errorf("Van 1 points at %d (%v), want its last position %d", van.PositionID, van.LastUpdate, last.ID)
	}
	ve, te := events(w, van.ID), events(w, truck.ID)
	if len(ve) != 6 || len(te) != 2 {
		t.Fatalf("events: van %d, truck %d", len(ve), len(te))
	}
	byType := map[string]*model.Event{}
	for _, e := range slices.Concat(ve, te) {
		byType[e.Type] = e
	}
	for _, c := range []struct {
		kind                           string
		position, geofence, maintained int64
	}{
		{"deviceOnline", 0, 0, 0},
		{"ignitionOn", first.ID, 0, 0},
		{"geofenceExit", vp[4].ID, depot.ID, 0},
		{"alarm", vp[72].ID, 0, 0},
		{"maintenance", vp[108].ID, 0, oil.ID},
		{"ignitionOff", last.ID, 0, 0},
		{"deviceOverspeed", tp[6].ID, 0, 0},
		{"geofenceEnter", tp[12].ID, 0, 0}, // Route B17 was not imported
	} {
		e := byType[c.kind]
		if e == nil || e.PositionID != c.position || e.GeofenceID != c.geofence || e.MaintenanceID != c.maintained {
			t.Errorf("%s: %+v, want position %d geofence %d maintenance %d", c.kind, e, c.position, c.geofence, c.maintained)
		}
	}
	if byType["alarm"].Attributes["alarm"] != "sos" {
		t.Errorf("alarm %+v", byType["alarm"])
	}
}

// A second import creates nothing: every object is "already there", and
// the history spans done are not read again.
func TestSecondRunCreatesNothing(t *testing.T) {
	w := newWorld(t)
	w.mustRun(w.options())
	read := w.fake.Requests("positions") + w.fake.Requests("reports/events")
	s := w.mustRun(w.options())
	checkTallies(t, s, map[string]string{
		"users": "0/2/0/0", "calendars": "0/1/0/0", "groups": "0/3/0/0", "devices": "0/3/0/0", "geofences": "0/2/0/1",
		"commands": "0/2/0/0", "notifications": "0/2/0/0", "maintenance": "0/1/0/0", "drivers": "0/2/0/0",
		"computed attributes": "0/2/0/0", "links": "0/35/0/2",
	})
	if h := s.History; h.Positions != 0 || h.Events != 0 || h.Devices != 0 || len(s.NeedReset) != 0 {
		t.Errorf("history %+v, need reset %v", h, s.NeedReset)
	}
	if again := w.fake.Requests("positions") + w.fake.Requests("reports/events"); again != read {
		t.Errorf("the second import read %d history answers", again-read)
	}
	if n := len(all(w, model.Tx.Devices)); n != 3 {
		t.Errorf("%d devices", n)
	}
	if n := len(positions(w, device(w, "Van 1").ID)); n != tt.Van1Positions {
		t.Errorf("%d positions", n)
	}
}

// What changed in Traccar since the last import comes over; what fleetd
// had already (same uniqueId, same e-mail) is matched, not duplicated, and
// a user fleetd has keeps its password.
func TestChangesAndExistingObjects(t *testing.T) {
	w := newWorld(t)
	if _, err := w.core.Accounts.CreateUser(model.System(), func(u *model.User) error {
		u.Email, u.Password, u.Administrator = tt.AdminEmail, "fleetd's own password", true
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.core.Fleet.Devices.Create(model.System(), func(d *model.Device) error {
		d.Name, d.UniqueID = "Old car", "4209917"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s := w.mustRun(w.options())
	checkTallies(t, s, map[string]string{"users": "1/1/0/0", "devices": "2/0/1/0"})
	if _, err := w.core.Accounts.Login(tt.AdminEmail, "fleetd's own password", "", ""); err != nil {
		t.Errorf("the existing administrator's password changed: %v", err)
	}
	if car := device(w, "Car 3"); car.ID != 1 || len(all(w, model.Tx.Devices)) != 3 {
		t.Errorf("Car 3 is %+v", car)
	}

	w.fake.Update(func(d *tt.Data) {
		d.Lists["devices"][0]["name"] = "Van 1 (new plates)"
		d.Lists["devices"] = append(d.Lists["devices"], tt.Object{"id": 13, "name": "Trailer", "uniqueId": "TR-13",
			"groupId": tt.NorthID, "attributes": tt.Object{}})
		d.Lists["geofences"][0]["area"] = "CIRCLE (52.5200 13.4050, 200)"
	})
	s = w.mustRun(w.options())
	checkTallies(t, s, map[string]string{"devices": "1/2/1/0", "geofences": "0/1/1/1", "groups": "0/3/0/0"})
	if trailer := device(w, "Trailer"); trailer.GroupID != group(w, "North depot").ID {
		t.Errorf("trailer %+v", trailer)
	}
	device(w, "Van 1 (new plates)")
	if g := geofence(w, "Depot North"); g.Area != "CIRCLE (52.5200 13.4050, 200)" {
		t.Errorf("geofence %+v", g)
	}
}

// An import that stops (interrupted, or Traccar failing) resumes where it
// stopped: nothing twice, nothing missing.
func TestInterruptedHistoryResumes(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(w *world, o *traccarimport.Options, cancel context.CancelFunc)
		want  string
	}{
		{"interrupted", func(_ *world, o *traccarimport.Options, cancel context.CancelFunc) {
			o.Progress = func(p traccarimport.Progress) {
				if p.Phase == "history" && p.Done == 3 { // Van 1's first pieces are in
					cancel()
				}
			}
		}, "context canceled"},
		{"Traccar fails", func(w *world, _ *traccarimport.Options, _ context.CancelFunc) {
			answered := 0
			w.fake.Fail = func(r *http.Request) int {
				if r.URL.Path == "/api/positions" {
					if answered++; answered > 4 {
						return http.StatusInternalServerError
					}
				}
				return 0
			}
		}, "500 Internal Server Error"},
		{"connection lost", func(w *world, _ *traccarimport.Options, _ context.CancelFunc) {
			answered := 0
			w.fake.Fail = func(r *http.Request) int {
				if r.URL.Path == "/api/reports/events" {
					if answered++; answered > 2 {
						return http.StatusBadGateway // retried, then given up
					}
				}
				return 0
			}
		}, "502 Bad Gateway"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			o := w.options()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.setup(w, &o, cancel)
			s, err := traccarimport.Run(ctx, traccarimport.Services{Store: w.core.Store(), Accounts: w.core.Accounts, Fleet: w.core.Fleet}, o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("first import: %v, want %q", err, c.want)
			}
			if s == nil || s.History == nil || s.History.Positions == 0 || s.History.Positions >= tt.Van1Positions+tt.Truck7Positions {
				t.Fatalf("the first import stored %+v before it stopped", s.History)
			}
			stored := s.History.Positions
			w.fake.Fail = nil
			s = w.mustRun(w.options())
			if s.History.Positions+stored != tt.Van1Positions+tt.Truck7Positions || s.History.PositionsThere != 0 {
				t.Errorf("the second import stored %d positions after %d (%d there)", s.History.Positions, stored, s.History.PositionsThere)
			}
			checkTallies(t, s, map[string]string{"devices": "0/3/0/0", "links": "0/35/0/2"})
			van, truck := device(w, "Van 1"), device(w, "Truck 7")
			if n, m := len(positions(w, van.ID)), len(positions(w, truck.ID)); n != tt.Van1Positions || m != tt.Truck7Positions {
				t.Errorf("positions: van %d, truck %d", n, m)
			}
			if n, m := len(events(w, van.ID)), len(events(w, truck.ID)); n != 6 || m != 2 {
				t.Errorf("events: van %d, truck %d", n, m)
			}
		})
	}
}

// Traccar answers at most report.maxPositions positions: a full answer is
// read on from its last fix time, without losing or doubling one.
func TestCutShortAnswers(t *testing.T) {
	for _, max := range []int{40, 145, 2} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			w := newWorld(t)
			w.fake.MaxPositions = max
			o := w.options()
			o.MaxPositions = max
			o.Events = false
			s, err := w.run(o)
			if err != nil {
				t.Fatal(err)
			}
			vp := positions(w, device(w, "Van 1").ID)
			if len(vp) != tt.Van1Positions || s.History.Positions != tt.Van1Positions+tt.Truck7Positions {
				t.Errorf("%d van positions, %d stored", len(vp), s.History.Positions)
			}
			for i := 1; i < len(vp); i++ {
				if !vp[i].FixTime.After(vp[i-1].FixTime) {
					t.Fatalf("positions %d and %d at %s", i-1, i, vp[i].FixTime)
				}
			}
		})
	}
}

// More positions at one instant than an answer holds cannot be read
// through the API: the import says so and how to fix it.
func TestTooManyAtOneInstant(t *testing.T) {
	w := newWorld(t)
	w.fake.Update(func(d *tt.Data) {
		for i := range 2 { // three fixes at 06:00
			twin := map[string]any{}
			for k, v := range d.Positions[0] {
				twin[k] = v
			}
			twin["id"], twin["latitude"] = 9998+i, 52.6+float64(i)/10
			d.Positions = append(d.Positions, twin)
		}
	})
	w.fake.MaxPositions = 2
	o := w.options()
	o.MaxPositions = 2
	_, err := w.run(o)
	if err == nil || !strings.Contains(err.Error(), "raise Traccar's report.maxPositions") {
		t.Errorf("import: %v", err)
	}
}

// A Traccar that refuses the login, or is no Traccar, stops the import
// before it writes anything.
func TestLoginRefused(t *testing.T) {
	notTraccar := httptest.NewServer(http.NotFoundHandler())
	defer notTraccar.Close()
	for _, c := range []struct {
		name  string
		edit  func(o *traccarimport.Options)
		wants []string
	}{
		{"wrong password", func(o *traccarimport.Options) { o.Password = "wrong" },
			[]string{"Traccar at http://127.0.0.1:", "refused the login of admin@example.com (401 Unauthorized)", "check --email and --password"}},
		{"not an administrator", func(o *traccarimport.Options) { o.Email, o.Password = tt.DispatcherEmail, tt.DispatcherPass },
			[]string{"dana@example.com is not an administrator in Traccar"}},
		{"not Traccar", func(o *traccarimport.Options) { o.URL = notTraccar.URL },
			[]string{"does not look like a Traccar server: POST /api/session answered 404 Not Found"}},
		{"no URL", func(o *traccarimport.Options) { o.URL = "traccar.example.com" }, []string{`--url "traccar.example.com"`}},
		{"nothing there", func(o *traccarimport.Options) { o.URL = "http://127.0.0.1:1" }, []string{"cannot reach Traccar at http://127.0.0.1:1"}},
		{"empty span", func(o *traccarimport.Options) { o.To = o.From }, []string{"the history span is empty"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			o := w.options()
			c.edit(&o)
			_, err := w.run(o)
			for _, want := range c.wants {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("import: %v, want %q", err, want)
				}
			}
			if n := len(all(w, model.Tx.Users)); n != 0 {
				t.Errorf("%d users stored", n)
			}
		})
	}
}

// Traccar's default administrator logs in as "admin", which is no e-mail
// address: into an empty store, the import cannot make it the first
// administrator and stops before any other user becomes it.
func TestFirstAdministratorRefused(t *testing.T) {
	w := newWorld(t)
	w.fake.Update(func(d *tt.Data) {
		d.Lists["users"][0]["email"] = "admin"
		d.Passwords["admin"] = "admin"
	})
	o := w.options()
	o.Email, o.Password = "admin", "admin"
	_, err := w.run(o)
	if err == nil || !strings.Contains(err.Error(), "the store has no user yet and fleetd refuses admin") ||
		!strings.Contains(err.Error(), "fleetd user add --admin") {
		t.Errorf("import: %v", err)
	}
	if n := len(all(w, model.Tx.Users)); n != 0 {
		t.Errorf("%d users stored", n)
	}
	// With an administrator in the store, "admin" is skipped and reported.
	if _, err := w.core.Accounts.CreateUser(model.System(), func(u *model.User) error {
		u.Email, u.Password = "owner@example.com", "pw"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s := w.mustRun(o)
	if k := s.Kind("users"); k.Created != 1 || len(k.Skipped) != 1 || !strings.Contains(k.Skipped[0].Reason, `email "admin" is not a valid address`) {
		t.Errorf("users %+v", k)
	}
	if dana := user(w, tt.DispatcherEmail); dana.Administrator {
		t.Error("the dispatcher became an administrator")
	}
}

// The session ending during the import (Traccar restarted) costs a login.
func TestSessionEnds(t *testing.T) {
	w := newWorld(t)
	o := w.options()
	ended := false
	o.Progress = func(p traccarimport.Progress) {
		if p.Phase == "links" && p.Done == 5 && !ended {
			ended = true
			w.fake.EndSessions()
		}
	}
	checkTallies(t, w.mustRun(o), firstRun)
	if !ended {
		t.Error("the session was never ended")
	}
}

// A store that holds one Traccar's import does not take another's; an
// attempt that imported nothing does not count.
func TestSecondServerRefused(t *testing.T) {
	w := newWorld(t)
	first := w.fake
	w.fake.Fail = func(r *http.Request) int {
		if r.URL.Path == "/api/users" {
			return http.StatusInternalServerError
		}
		return 0
	}
	if _, err := w.run(w.options()); err == nil {
		t.Fatal("an import that cannot read the users succeeded")
	}
	w.fake = tt.New(tt.Fleet())
	defer w.fake.Close()
	o := w.options()
	o.URL = w.fake.URL + "/"
	w.mustRun(o)
	o.URL = first.URL
	first.Fail = nil
	_, err := w.run(o)
	if err == nil || !strings.Contains(err.Error(), "this store holds an import from the Traccar server "+w.fake.URL) {
		t.Errorf("import: %v", err)
	}
}

// Events imported after their positions find them; an import whose span
// ends less than an hour ago leaves that hour to the next one, which
// finds what it stored already.
func TestLaterImports(t *testing.T) {
	w := newWorld(t)
	o := w.options()
	o.Events = false
	o.Now = func() time.Time { return tt.Day.Add(12*time.Hour + 30*time.Minute) } // the van's day half done
	o.To = time.Time{}                                                            // until now
	s := w.mustRun(o)
	if s.History.Positions != 78+25 { // [06:00, 12:30) every 5 min, 08:00..12:00 every 10
		t.Errorf("%d positions by 12:30", s.History.Positions)
	}
	s = w.mustRun(w.options())
	h := s.History
	// from 11:30 on was read again: 12 van and 4 truck positions there
	if h.Positions != tt.Van1Positions+tt.Truck7Positions-103 || h.PositionsThere != 12+4 || h.Events != 8 || h.EventsWithoutPosition != 0 {
		t.Errorf("history %+v", h)
	}
	van := device(w, "Van 1")
	vp := positions(w, van.ID)
	if len(vp) != tt.Van1Positions {
		t.Errorf("%d positions", len(vp))
	}
	for _, e := range events(w, van.ID) {
		if e.Type == "ignitionOn" && e.PositionID != vp[0].ID {
			t.Errorf("ignitionOn points at %d, want %d", e.PositionID, vp[0].ID)
		}
	}

	o = w.options()
	o.Recheck = true
	h = w.mustRun(o).History
	if h.Positions != 0 || h.PositionsThere != tt.Van1Positions+tt.Truck7Positions || h.Events != 0 || h.EventsThere != 8 {
		t.Errorf("recheck: %+v", h)
	}
}

// An import without a history span reads no history.
func TestNoHistory(t *testing.T) {
	w := newWorld(t)
	o := w.options()
	o.From = time.Time{}
	s := w.mustRun(o)
	if s.History != nil || w.fake.Requests("positions") != 0 || len(positions(w, device(w, "Van 1").ID)) != 0 {
		t.Errorf("history %+v", s.History)
	}
	checkTallies(t, s, firstRun)
}
