// Package traccarimport copies a running Traccar server's data into
// fleetd (fleetd import traccar). It reads Traccar's REST API only, in an
// administrator's session: users, calendars, groups, devices, geofences,
// saved commands, notifications, maintenance, drivers, computed
// attributes, the links between them, and a span of each device's
// positions and events.
//
// Objects get fleetd ids of their own. The key set model.ImportedTraccar
// remembers which fleetd object each Traccar id became, and every
// reference (groupId, calendarId, commandId, geofenceIds, an event's
// positionId...) is rewritten through it. Devices and drivers are also
// found by uniqueId, users by e-mail, so an object fleetd already had is
// not made twice. Running the import again creates nothing twice: objects
// already there are left alone, or take what changed in Traccar, and the
// history goes on from the spans the key set records as done.
//
// Objects are written through the fleet's and the accounts' services, with
// the rules every other client meets: what fleetd refuses (a geofence area
// it cannot read, a notification type it does not have) is skipped and
// reported, not fatal. Positions and events are written to the store in
// one transaction per span read, with the span's record, so an import
// that stops (Ctrl-C, a lost connection) resumes where it stopped.
package traccarimport

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// Options say what to import from where.
type Options struct {
	// URL is the Traccar server's address (https://traccar.example.com);
	// Email and Password an administrator's login there, TOTP its
	// one-time code when it has two-factor authentication.
	URL, Email, Password, TOTP string
	// From and To bound the history imported, [From, To); a zero From
	// imports none, a zero To means now.
	From, To time.Time
	// Events imports the devices' events with their positions.
	Events bool
	// Recheck reads again the spans of history an earlier import did
	// (positions Traccar received late, with older fix times); what is
	// in fleetd already is recognised and not stored twice.
	Recheck bool
	// MaxPositions is Traccar's report.maxPositions, the most positions
	// one answer holds (default 50000, Traccar's): an answer that long is
	// taken as cut short and read on from its last fix time.
	MaxPositions int
	// Chunk is the span of history one request reads (default a day).
	Chunk time.Duration
	// Client sends the requests (default: a client with the system's
	// certificate authorities).
	Client *http.Client
	// Progress, when set, is told how each phase advances.
	Progress func(Progress)
	// Now is the clock (tests).
	Now func() time.Time

	retryWait time.Duration
}

// Progress is how far a phase is: Done of Total steps.
type Progress struct {
	Phase       string
	Done, Total int
}

// Services are what the import writes through.
type Services struct {
	Store    model.Store
	Accounts *accounts.Service
	Fleet    *fleet.Service
}

// Defaults.
const (
	DefaultMaxPositions = 50000
	DefaultChunk        = 24 * time.Hour
	// settle is how far back from now a span counts as done: positions
	// that reach Traccar late (a device that buffered them) are still
	// read by the next import.
	settle = time.Hour
	// passwordLength is the random passwords' length.
	passwordLength = 24
)

// run is one import.
type run struct {
	ctx context.Context
	svc Services
	o   Options
	c   *client
	sum *Summary
	now time.Time
	// me is the Traccar administrator the import logs in as;
	// adminFirst says it was imported before the other users.
	me         *model.User
	adminFirst bool
	// ids caches the key set's Traccar id -> fleetd id map ("id/<kind>/<id>").
	ids map[string]int64
	// What Traccar has, read once.
	users         []model.User
	calendars     []model.Calendar
	groups        []model.Group
	devices       []model.Device
	geofences     []model.Geofence
	commands      []model.Command
	notifications []model.Notification
	maintenances  []model.Maintenance
	drivers       []model.Driver
	attributes    []model.ComputedAttribute
}

// system is the actor of every write: the CLI's administrator.
var system = model.System()

// Run imports what o names into the store of svc. It returns the summary
// of what it did also when it stops on an error.
func Run(ctx context.Context, svc Services, o Options) (*Summary, error) {
	o.MaxPositions = cmp.Or(o.MaxPositions, DefaultMaxPositions)
	o.Chunk = cmp.Or(o.Chunk, DefaultChunk)
	o.retryWait = cmp.Or(o.retryWait, time.Second)
	if o.Now == nil {
		o.Now = time.Now
	}
	r := &run{ctx: ctx, svc: svc, o: o, now: o.Now(), ids: map[string]int64{}}
	if o.To.IsZero() {
		r.o.To = r.now
	}
	var err error
	if r.c, err = newClient(&r.o); err != nil {
		return nil, err
	}
	r.sum = &Summary{Server: r.c.base}
	defer func() { r.sum.Requests = r.c.requests }()
	switch {
	case strings.TrimSpace(o.Email) == "" || o.Password == "":
		return r.sum, errors.New("the Traccar administrator's --email and password are required")
	case !r.o.From.IsZero() && !r.o.From.Before(r.o.To):
		return r.sum, fmt.Errorf("the history span is empty: from %s is not before to %s", apiTime(r.o.From), apiTime(r.o.To))
	}
	steps := []func() error{r.login, r.checkServer, r.read, r.firstAdministrator, r.importUsers, r.importObjects, r.importLinks}
	if !r.o.From.IsZero() {
		steps = append(steps, r.importHistory)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return r.sum, err
		}
	}
	return r.sum, nil
}

func (r *run) progress(phase string, done, total int) {
	if r.o.Progress != nil {
		r.o.Progress(Progress{phase, done, total})
	}
}

// login opens the session; it must be an administrator's, who sees
// every object and link.
func (r *run) login() error {
	me, err := r.c.login(r.ctx)
	if err != nil {
		return err
	}
	if !me.Administrator {
		return fmt.Errorf("%s is not an administrator in Traccar: the import reads every user, device and link, which only an administrator may", r.o.Email)
	}
	r.me = me
	var server struct {
		Version string `json:"version"`
	}
	if r.c.get(r.ctx, "server", nil, &server) == nil {
		r.sum.Version = server.Version
	}
	return nil
}

// keys is the import's key set in tx.
func keys(tx model.Tx) model.KeySet { return tx.Keys(model.ImportedTraccar) }

// checkServer refuses to import a second Traccar server into a store that
// holds one's objects: their ids would be taken for the first one's (an
// earlier attempt that imported nothing does not count). It loads the id
// map.
func (r *run) checkServer() error {
	var other string
	err := r.svc.Store.View(func(tx model.Tx) error {
		err := keys(tx).Scan("server/", func(key string, _ int64) bool {
			if s := strings.TrimPrefix(key, "server/"); s != r.c.base {
				other = s
			}
			return true
		})
		if err != nil {
			return err
		}
		return keys(tx).Scan("id/", func(key string, id int64) bool {
			r.ids[key] = id
			return true
		})
	})
	if err != nil {
		return err
	}
	if other != "" && len(r.ids) > 0 {
		return fmt.Errorf("this store holds an import from the Traccar server %s; importing %s as well would take its ids for the first one's: "+
			"import into a new data directory, or give --url %s if it is the same server", other, r.c.base, other)
	}
	return r.svc.Store.Update(func(tx model.Tx) error {
		if other != "" { // an attempt that imported nothing
			if err := keys(tx).Delete("server/" + other); err != nil {
				return err
			}
		}
		return keys(tx).Put("server/"+r.c.base, 1)
	})
}

// read fetches every object list.
func (r *run) read() error {
	lists := []struct {
		path string
		out  any
	}{
		{"users", &r.users}, {"calendars", &r.calendars}, {"groups", &r.groups}, {"devices", &r.devices},
		{"geofences", &r.geofences}, {"commands", &r.commands}, {"notifications", &r.notifications},
		{"maintenance", &r.maintenances}, {"drivers", &r.drivers}, {"attributes/computed", &r.attributes},
	}
	for i, l := range lists {
		r.progress("reading Traccar", i, len(lists))
		q := listQuery("", 0)
		if l.path == "users" {
			q = nil // an administrator's list is every user
		}
		if err := r.c.get(r.ctx, l.path, q, l.out); err != nil {
			return err
		}
	}
	r.progress("reading Traccar", len(lists), len(lists))
	return nil
}

// idKey is the key of Traccar's object id of kind in the key set.
func idKey(kind string, id int64) string { return "id/" + kind + "/" + strconv.FormatInt(id, 10) }

// remember records in tx that Traccar's object tid of kind is fleetd's fid.
func remember(tx model.Tx, kind string, tid, fid int64) error {
	return keys(tx).Put(idKey(kind, tid), fid)
}

// mapped is the fleetd id of Traccar's object tid of kind.
func (r *run) mapped(kind string, tid int64) (int64, bool) {
	id, ok := r.ids[idKey(kind, tid)]
	return id, ok
}

// ref rewrites a reference to Traccar's object tid of kind into its fleetd
// id; one to an object not imported is dropped with a note.
func (r *run) ref(k *Kind, what, kind string, tid int64) int64 {
	if tid == 0 {
		return 0
	}
	if fid, ok := r.mapped(kind, tid); ok {
		return fid
	}
	k.note(what, fmt.Sprintf("its %s %d was not imported; imported without it", kind, tid))
	return 0
}

// refused reports an error fleetd gives for an object it will not take
// (invalid, a duplicate, a reference it cannot follow), as opposed to one
// that should stop the import (the store failing).
func refused(err error) bool {
	switch model.ClassOf(err) {
	case model.ClassInvalid, model.ClassConflict, model.ClassNotFound, model.ClassForbidden:
		return true
	}
	return false
}

// reason is err as a person reads it.
func reason(err error) string {
	if e, ok := model.AsError(err); ok && e.Description != "" {
		return e.Description
	}
	return err.Error()
}

// ---- users ----

// firstAdministrator creates the importing administrator first when the
// store has no user: fleetd makes the first user of a store an
// administrator, and that must not be whichever Traccar user comes first.
func (r *run) firstAdministrator() error {
	var count int
	if err := r.svc.Store.View(func(tx model.Tx) (err error) { count, err = tx.Users().Count(); return err }); err != nil || count > 0 {
		return err
	}
	i := slices.IndexFunc(r.users, func(u model.User) bool { return u.ID == r.me.ID })
	if i < 0 {
		r.users = append(r.users, *r.me)
		i = len(r.users) - 1
	}
	k := r.sum.kind("users")
	r.adminFirst = true
	if err := r.importUser(k, &r.users[i]); err != nil {
		return err
	}
	if _, ok := r.mapped(model.KindUser, r.me.ID); !ok {
		return fmt.Errorf("the store has no user yet and fleetd refuses %s, the importing administrator (%s): "+
			"add an administrator first (fleetd user add --admin --email ...), then import again", r.o.Email, k.Skipped[len(k.Skipped)-1].Reason)
	}
	return nil
}

// importUsers creates the Traccar users fleetd does not have. A user
// fleetd has (the same e-mail) is left as it is: its password and rights
// are fleetd's to manage. Traccar keeps only password hashes, so the
// importing administrator gets the password the import logged in with
// and every other user a random one, to be reset (Summary.NeedReset).
func (r *run) importUsers() error {
	k := r.sum.kind("users")
	for i := range r.users {
		r.progress("users", i, len(r.users))
		if r.adminFirst && r.users[i].ID == r.me.ID {
			continue // imported by firstAdministrator
		}
		if err := r.importUser(k, &r.users[i]); err != nil {
			return err
		}
	}
	r.progress("users", len(r.users), len(r.users))
	return nil
}

func (r *run) importUser(k *Kind, tu *model.User) error {
	what := describe("user", tu.ID, tu.Email)
	var found int64
	byEmail := false
	err := r.svc.Store.View(func(tx model.Tx) error {
		if fid, ok := r.mapped(model.KindUser, tu.ID); ok {
			if _, err := tx.Users().Get(fid); err == nil {
				found = fid
				return nil
			} else if !errors.Is(err, model.ErrNotFound) {
				return err
			}
		}
		u, err := tx.UserByEmail(tu.Email)
		if errors.Is(err, model.ErrNotFound) || (err != nil && refused(err)) {
			return nil
		}
		if err == nil {
			found, byEmail = u.ID, true
		}
		return err
	})
	if err == nil && byEmail {
		err = r.svc.Store.Update(func(tx model.Tx) error { return remember(tx, model.KindUser, tu.ID, found) })
	}
	if err != nil {
		return err
	}
	if found != 0 {
		r.ids[idKey(model.KindUser, tu.ID)] = found
		k.Existing++
		return nil
	}
	password, random := r.o.Password, tu.ID != r.me.ID
	if random {
		if password, err = accounts.RandomPassword(passwordLength); err != nil {
			return err
		}
	}
	want := *tu
	want.Attributes = orEmpty(want.Attributes)
	u, err := r.svc.Accounts.CreateUser(system, func(u *model.User) error {
		*u = want
		u.ID, u.Password, u.PasswordHash = 0, password, ""
		return nil
	})
	if refused(err) {
		k.skip(what, reason(err))
		return nil
	}
	if err != nil {
		return err
	}
	if err := r.svc.Store.Update(func(tx model.Tx) error { return remember(tx, model.KindUser, tu.ID, u.ID) }); err != nil {
		return err
	}
	r.ids[idKey(model.KindUser, tu.ID)] = u.ID
	k.Created++
	if random {
		r.sum.NeedReset = append(r.sum.NeedReset, u.Email)
	}
	return nil
}

func orEmpty(a model.Attributes) model.Attributes {
	if a == nil {
		return model.Attributes{}
	}
	return a
}

// ---- the fleet's objects ----

// kindOps is how one kind of object is imported.
type kindOps[T any, P interface {
	*T
	model.Entity
}] struct {
	kind, plural string
	objects      *fleet.Objects[T, P]
	table        func(model.Tx) model.Table[T]
	name         func(*T) string
	// natural finds the object fleetd has under the same natural key
	// (devices' and drivers' uniqueId); nil: only the id map counts.
	natural func(tx model.Tx, v *T) (*T, error)
	// rewrite turns Traccar's references into fleetd ids, in place.
	rewrite func(k *Kind, what string, v *T)
	// managed copies onto want the fields fleetd keeps itself (a
	// device's status and position), for the comparison with stored.
	managed func(stored, want *T)
}

// importKind creates, or brings up to date, every object of one kind.
func importKind[T any, P interface {
	*T
	model.Entity
}](r *run, ops kindOps[T, P], items []T) error {
	k := r.sum.kind(ops.plural)
	for i := range items {
		r.progress(ops.plural, i, len(items))
		if err := r.ctx.Err(); err != nil {
			return err
		}
		tid := P(&items[i]).GetID()
		what := describe(ops.kind, tid, ops.name(&items[i]))
		want := items[i]
		ops.rewrite(k, what, &want)
		stored, err := findStored(r, ops, tid, &want)
		if err != nil {
			return err
		}
		if stored == nil {
			v, err := ops.objects.CreateWith(system, func(v *T) error { *v = want; return nil },
				func(tx model.Tx, v *T) error { return remember(tx, ops.kind, tid, P(v).GetID()) })
			switch {
			case refused(err):
				k.skip(what, reason(err))
			case err != nil:
				return err
			default:
				r.ids[idKey(ops.kind, tid)] = P(v).GetID()
				k.Created++
			}
			continue
		}
		fid := P(stored).GetID()
		P(&want).SetID(fid)
		if ops.managed != nil {
			ops.managed(stored, &want)
		}
		if sameJSON(stored, &want) {
			k.Existing++
			continue
		}
		after, err := ops.objects.Update(system, fid, func(v *T) error { *v = want; return nil })
		switch {
		case refused(err):
			k.skip(what, "not updated: "+reason(err))
		case err != nil:
			return err
		case sameJSON(stored, after): // what differed, fleetd normalises away
			k.Existing++
		default:
			k.Updated++
		}
	}
	r.progress(ops.plural, len(items), len(items))
	return nil
}

// findStored is the fleetd object Traccar's object tid became, by the id
// map or else by its natural key (which then enters the map); nil when
// fleetd has none (or it was deleted since an earlier import).
func findStored[T any, P interface {
	*T
	model.Entity
}](r *run, ops kindOps[T, P], tid int64, want *T) (*T, error) {
	var stored *T
	natural := false
	err := r.svc.Store.View(func(tx model.Tx) error {
		if fid, ok := r.mapped(ops.kind, tid); ok {
			v, err := ops.table(tx).Get(fid)
			if err == nil {
				stored = v
				return nil
			}
			if !errors.Is(err, model.ErrNotFound) {
				return err
			}
		}
		if ops.natural == nil {
			return nil
		}
		v, err := ops.natural(tx, want)
		if errors.Is(err, model.ErrNotFound) {
			return nil
		}
		stored, natural = v, err == nil
		return err
	})
	if err != nil || stored == nil {
		return nil, err
	}
	if natural {
		if err := r.svc.Store.Update(func(tx model.Tx) error { return remember(tx, ops.kind, tid, P(stored).GetID()) }); err != nil {
			return nil, err
		}
	}
	r.ids[idKey(ops.kind, tid)] = P(stored).GetID()
	return stored, nil
}

// sameJSON reports whether a and b have the same JSON form, the form
// fleetd stores them in.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// utc puts a time in UTC, so equal times compare equal in JSON.
func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// importObjects imports the kinds in the order their references need:
// a calendar before what follows it, a parent group before its children,
// devices before the commands that name them, commands before the
// notifications that send them.
func (r *run) importObjects() error {
	fl := r.svc.Fleet
	steps := []func() error{
		func() error {
			return importKind(r, kindOps[model.Calendar, *model.Calendar]{kind: model.KindCalendar, plural: "calendars",
				objects: fl.Calendars, table: model.Tx.Calendars, name: func(c *model.Calendar) string { return c.Name },
				rewrite: func(_ *Kind, _ string, c *model.Calendar) { c.Attributes = orEmpty(c.Attributes) }}, r.calendars)
		},
		func() error {
			return importKind(r, kindOps[model.Group, *model.Group]{kind: model.KindGroup, plural: "groups",
				objects: fl.Groups, table: model.Tx.Groups, name: func(g *model.Group) string { return g.Name },
				rewrite: func(k *Kind, what string, g *model.Group) {
					g.Attributes = orEmpty(g.Attributes)
					g.GroupID = r.ref(k, what, model.KindGroup, g.GroupID)
				}}, parentsFirst(r.groups))
		},
		func() error {
			return importKind(r, kindOps[model.Device, *model.Device]{kind: model.KindDevice, plural: "devices",
				objects: fl.Devices, table: model.Tx.Devices, name: func(d *model.Device) string { return d.Name },
				natural: func(tx model.Tx, d *model.Device) (*model.Device, error) {
					return tx.DeviceByUniqueID(strings.TrimSpace(d.UniqueID))
				},
				rewrite: func(k *Kind, what string, d *model.Device) {
					d.Attributes = orEmpty(d.Attributes)
					d.GroupID = r.ref(k, what, model.KindGroup, d.GroupID)
					d.CalendarID = r.ref(k, what, model.KindCalendar, d.CalendarID)
					d.ExpirationTime = utc(d.ExpirationTime)
				},
				managed: func(stored, want *model.Device) {
					want.Status, want.PositionID, want.LastUpdate = stored.Status, stored.PositionID, stored.LastUpdate
					stored.ExpirationTime = utc(stored.ExpirationTime)
				}}, r.devices)
		},
		func() error {
			return importKind(r, kindOps[model.Geofence, *model.Geofence]{kind: model.KindGeofence, plural: "geofences",
				objects: fl.Geofences, table: model.Tx.Geofences, name: func(g *model.Geofence) string { return g.Name },
				rewrite: func(k *Kind, what string, g *model.Geofence) {
					g.Attributes = orEmpty(g.Attributes)
					g.CalendarID = r.ref(k, what, model.KindCalendar, g.CalendarID)
				}}, r.geofences)
		},
		func() error {
			return importKind(r, kindOps[model.Command, *model.Command]{kind: model.KindCommand, plural: "commands",
				objects: fl.Commands, table: model.Tx.Commands, name: func(c *model.Command) string { return c.Description },
				rewrite: func(k *Kind, what string, c *model.Command) {
					c.Attributes = orEmpty(c.Attributes)
					c.DeviceID = r.ref(k, what, model.KindDevice, c.DeviceID)
				}}, r.commands)
		},
		func() error {
			return importKind(r, kindOps[model.Notification, *model.Notification]{kind: model.KindNotification, plural: "notifications",
				objects: fl.Notifications, table: model.Tx.Notifications,
				name: func(n *model.Notification) string { return cmp.Or(n.Description, n.Type) },
				rewrite: func(k *Kind, what string, n *model.Notification) {
					n.Attributes = orEmpty(n.Attributes)
					n.CalendarID = r.ref(k, what, model.KindCalendar, n.CalendarID)
					n.CommandID = r.ref(k, what, model.KindCommand, n.CommandID)
					r.rewriteGeofenceList(k, what, n)
				}}, r.notifications)
		},
		func() error {
			return importKind(r, kindOps[model.Maintenance, *model.Maintenance]{kind: model.KindMaintenance, plural: "maintenance",
				objects: fl.Maintenances, table: model.Tx.Maintenances, name: func(m *model.Maintenance) string { return m.Name },
				rewrite: func(_ *Kind, _ string, m *model.Maintenance) { m.Attributes = orEmpty(m.Attributes) }}, r.maintenances)
		},
		func() error {
			return importKind(r, kindOps[model.Driver, *model.Driver]{kind: model.KindDriver, plural: "drivers",
				objects: fl.Drivers, table: model.Tx.Drivers, name: func(d *model.Driver) string { return d.Name },
				natural: func(tx model.Tx, d *model.Driver) (*model.Driver, error) {
					return tx.Fleet().DriverByUniqueID(strings.TrimSpace(d.UniqueID))
				},
				rewrite: func(_ *Kind, _ string, d *model.Driver) { d.Attributes = orEmpty(d.Attributes) }}, r.drivers)
		},
		func() error {
			return importKind(r, kindOps[model.ComputedAttribute, *model.ComputedAttribute]{kind: model.KindAttribute,
				plural: "computed attributes", objects: fl.ComputedAttributes, table: model.Tx.ComputedAttributes,
				name:    func(a *model.ComputedAttribute) string { return a.Description },
				rewrite: func(*Kind, string, *model.ComputedAttribute) {}}, r.attributes)
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// rewriteGeofenceList rewrites a notification's attributes.geofenceIds
// (comma-separated ids), dropping those not imported.
func (r *run) rewriteGeofenceList(k *Kind, what string, n *model.Notification) {
	s, ok := n.Attributes["geofenceIds"].(string)
	if !ok {
		return
	}
	var ids []string
	for _, field := range strings.Split(s, ",") {
		tid, err := strconv.ParseInt(strings.TrimSpace(field), 10, 64)
		if err != nil {
			continue
		}
		if fid := r.ref(k, what, model.KindGeofence, tid); fid != 0 {
			ids = append(ids, strconv.FormatInt(fid, 10))
		}
	}
	attrs := make(model.Attributes, len(n.Attributes))
	for key, v := range n.Attributes {
		attrs[key] = v
	}
	if len(ids) == 0 {
		delete(attrs, "geofenceIds")
	} else {
		attrs["geofenceIds"] = strings.Join(ids, ",")
	}
	n.Attributes = attrs
}

// parentsFirst orders groups so that each comes after its parent; groups
// in a cycle, or under a parent Traccar did not list, come last (their
// parent is then dropped, with a note).
func parentsFirst(groups []model.Group) []model.Group {
	listed := map[int64]bool{}
	for _, g := range groups {
		listed[g.ID] = true
	}
	placed := map[int64]bool{}
	var out []model.Group
	for progress := true; progress; {
		progress = false
		for _, g := range groups {
			if !placed[g.ID] && (g.GroupID == 0 || placed[g.GroupID] || !listed[g.GroupID]) {
				placed[g.ID], progress = true, true
				out = append(out, g)
			}
		}
	}
	for _, g := range groups {
		if !placed[g.ID] {
			out = append(out, g)
		}
	}
	return out
}
