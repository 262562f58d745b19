package fleet

import (
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/geo"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
)

// ReportOptions bound what one report may read (config reports.*).
type ReportOptions struct {
	// MaxPeriod is the longest from-to span (Traccar's report.periodLimit;
	// 0: none).
	MaxPeriod time.Duration
	// MaxPositions is the most positions a route or an export lists per
	// device (Traccar's report.maxPositions, default 50,000); the
	// computed reports read every position.
	MaxPositions int
	// Mailer sends reports by e-mail (nil: mail.smtp is not configured);
	// Log notes the ones that failed in the background.
	Mailer Mailer
	Log    *slog.Logger
}

// DefaultMaxPositions is Traccar's report.maxPositions.
const DefaultMaxPositions = 50_000

// ReportQuery selects a report's devices and span, as Traccar's
// ReportResource takes them: repeated deviceId and groupId (a group
// counts its sub-groups' devices; neither: every device the caller
// sees), from and to.
type ReportQuery struct {
	DeviceIDs, GroupIDs []int64
	From, To            time.Time
}

// Report is a checked report request: the devices it covers, in id order,
// and the reads of their history it allows.
type Report struct {
	fl       *Service
	actor    *model.User
	Devices  []*model.Device
	From, To time.Time
	// Location is the caller's time zone: the user's "timezone"
	// attribute, else the server's, else UTC (Traccar's UserUtil).
	Location *time.Location
	// Server holds the server-wide settings, for report rules that look
	// them up after the device's attributes.
	Server *model.Server
	groups map[int64]*model.Group
	names  map[string]map[int64]string // geofence and maintenance names, for exports
	// drivers are the driver names looked up, by uniqueId.
	drivers map[string]string
}

var errReportsDisabled = model.Forbidden("Reports are disabled for this account")

// Report checks a report request: reports are allowed to the caller (not
// disableReports, theirs or the server's), the span is valid and within
// the limit, and every device and group asked for is one the caller sees
// (404 otherwise, as for any object of someone else's).
func (fl *Service) Report(actor *model.User, q ReportQuery) (*Report, error) {
	if err := checkRange(q.From, q.To); err != nil {
		return nil, err
	}
	if max := fl.reports.MaxPeriod; max > 0 && q.To.Sub(q.From) > max {
		return nil, model.Invalid("Time period exceeds the limit of %s", max)
	}
	r := &Report{fl: fl, actor: actor, From: q.From, To: q.To, Location: time.UTC, groups: map[int64]*model.Group{}}
	err := fl.store.View(func(tx model.Tx) error {
		s, err := tx.Server()
		if errors.Is(err, model.ErrNotFound) {
			s, err = &model.Server{}, nil
		}
		if err != nil {
			return err
		}
		r.Server = s
		if !actor.Administrator && (actor.DisableReports || s.DisableReports) {
			return errReportsDisabled
		}
		r.Location = prefs.For(actor, s).Zone
		a := access.Guard{Tx: tx, Actor: actor}
		if err := a.MustSeeDevices(q.DeviceIDs); err != nil {
			return err
		}
		for _, g := range q.GroupIDs {
			if err := model.FirstError(a.MustSee(model.KindGroup, g), a.Exists(model.KindGroup, g)); err != nil {
				return err
			}
		}
		groups := map[int64]bool{}
		for _, g := range q.GroupIDs {
			groups[g] = true
		}
		if err := a.GroupClosure(groups); err != nil {
			return err
		}
		if len(q.GroupIDs) == 0 && len(q.DeviceIDs) > 0 {
			// Named vehicles only (the vehicle page's one): read them,
			// not the whole fleet; MustSeeDevices has checked them.
			r.Devices, err = devicesByID(tx, q.DeviceIDs)
		} else {
			all := len(q.DeviceIDs) == 0 && len(q.GroupIDs) == 0
			err = a.EachDevice(func(d *model.Device) error {
				if all || slices.Contains(q.DeviceIDs, d.ID) || (d.GroupID != 0 && groups[d.GroupID]) {
					r.Devices = append(r.Devices, d)
				}
				return nil
			})
		}
		if err != nil {
			return err
		}
		// An administrator sees every id: one with no device behind it
		// is not found all the same.
		for _, id := range q.DeviceIDs {
			if !slices.ContainsFunc(r.Devices, func(d *model.Device) bool { return d.ID == id }) {
				return model.NotFound("Device")
			}
		}
		if err := tx.Groups().List(func(g *model.Group) bool { r.groups[g.ID] = g; return true }); err != nil {
			return err
		}
		r.names = map[string]map[int64]string{model.KindGeofence: {}, model.KindMaintenance: {}}
		err = tx.Geofences().List(func(g *model.Geofence) bool { r.names[model.KindGeofence][g.ID] = g.Name; return true })
		if err == nil {
			err = tx.Maintenances().List(func(m *model.Maintenance) bool { r.names[model.KindMaintenance][m.ID] = m.Name; return true })
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, d := range r.Devices {
		fl.hooks.View(d)
	}
	return r, nil
}

// Name is the name of a geofence or maintenance reminder an event names
// (kind model.KindGeofence or model.KindMaintenance). Events the caller
// may not see them in are never read, so a name is never shown to someone
// who may not see its object.
func (r *Report) Name(kind string, id int64) string { return r.names[kind][id] }

// GroupName is the name of device d's group, or "".
func (r *Report) GroupName(d *model.Device) string {
	if g := r.groups[d.GroupID]; g != nil {
		return g.Name
	}
	return ""
}

// Lookup finds a setting for device d as Traccar's AttributeUtil.lookup
// does: the device's attributes, then its group's and the group's
// ancestors', then the server's.
func (r *Report) Lookup(d *model.Device, key string) (any, bool) {
	if v, ok := d.Attributes[key]; ok {
		return v, true
	}
	for g, hops := r.groups[d.GroupID], 0; g != nil && hops < 100; g, hops = r.groups[g.GroupID], hops+1 {
		if v, ok := g.Attributes[key]; ok {
			return v, true
		}
	}
	v, ok := r.Server.Attributes[key]
	return v, ok
}

// Positions calls fn with device d's positions in the span, in fixTime
// order, until fn fails; limit > 0 stops after that many (routes and
// exports: ReportOptions.MaxPositions).
func (r *Report) Positions(d *model.Device, limit int, fn func(*model.Position) error) error {
	h := &History{store: r.fl.store, actor: r.actor, deviceID: d.ID, from: r.From, to: r.To}
	n := 0
	err := h.Each(func(p *model.Position) error {
		if limit > 0 && n == limit {
			return errLimit
		}
		n++
		return fn(p)
	})
	if err == errLimit {
		err = nil
	}
	return err
}

var errLimit = errors.New("limit reached")

// MaxPositions is the per-device limit of routes and exports.
func (r *Report) MaxPositions() int { return r.fl.reports.MaxPositions }

// Events calls fn with device d's events in the span, in eventTime order,
// but those about a geofence or maintenance reminder the caller does not
// see (as Traccar's EventsReportProvider leaves them out).
func (r *Report) Events(d *model.Device, fn func(*model.Event) error) error {
	seen := map[object]bool{}
	from := r.From
	var last *model.Event // the last event of the page before
	for {
		page := make([]*model.Event, 0, eventPage)
		err := r.fl.store.View(func(tx model.Tx) error {
			a := access.Guard{Tx: tx, Actor: r.actor}
			if err := a.MustSee(model.KindDevice, d.ID); err != nil {
				return err
			}
			visible := func(kind string, id int64) bool {
				if id == 0 {
					return true
				}
				ok, known := seen[object{kind, id}]
				if !known {
					ok, _ = a.CanSee(kind, id)
					seen[object{kind, id}] = ok
				}
				return ok
			}
			return tx.Events(d.ID, from, r.To, func(e *model.Event) bool {
				// A page starts at the time the last one ended: the
				// events of that time up to the last one were sent.
				if last != nil && e.EventTime.Equal(last.EventTime) && e.ID <= last.ID {
					return true
				}
				if visible(model.KindGeofence, e.GeofenceID) && visible(model.KindMaintenance, e.MaintenanceID) {
					page = append(page, e)
				}
				last = e
				return len(page) < eventPage
			})
		})
		if err != nil {
			return err
		}
		for _, e := range page {
			if err := fn(e); err != nil {
				return err
			}
		}
		if len(page) < eventPage {
			return nil
		}
		from = last.EventTime
	}
}

// eventPage is how many events Events reads in one transaction: the
// answer is written between transactions, so a slow client never holds
// one open, and memory is bounded whatever the span.
const eventPage = 1000

// object is a kind and an id, for caching access checks.
type object struct {
	kind string
	id   int64
}

// Inside is the filter of an export by geofence: every position when id
// is 0, else those inside that geofence, which the caller must see.
func (r *Report) Inside(id int64) (func(*model.Position) bool, error) {
	if id == 0 {
		return func(*model.Position) bool { return true }, nil
	}
	var shape geo.Shape
	err := r.fl.store.View(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: r.actor}).MustSee(model.KindGeofence, id); err != nil {
			return err
		}
		g, err := tx.Geofences().Get(id)
		if err != nil {
			return err
		}
		shape, err = geo.Parse(g.Area)
		return err
	})
	if err != nil {
		return nil, err
	}
	return func(p *model.Position) bool { return shape.Contains(p.Latitude, p.Longitude) }, nil
}

// devicesByID reads the devices with ids, in id order as the store lists
// them, each once; an id with no device is not found.
func devicesByID(tx model.Tx, ids []int64) ([]*model.Device, error) {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	out := make([]*model.Device, 0, len(ids))
	for _, id := range ids {
		d, err := tx.Devices().Get(id)
		if errors.Is(err, model.ErrNotFound) {
			return nil, model.NotFound("Device")
		}
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}
