package office

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/access"
	"github.com/fleetd/fleetd/app/model"
)

// ServiceOptions set when a vehicle is next due for service: so many
// days or so many kilometres after its last service record, whichever
// comes first.
type ServiceOptions struct {
	IntervalDays int     // default 180
	IntervalKm   float64 // default 10,000
}

// Maintenance states, most urgent first.
const (
	ServiceOverdue = "overdue"
	ServiceDueSoon = "dueSoon"
	ServiceOK      = "ok"
)

// Why a vehicle has its state: no record at all, its date or its distance.
const (
	DueNoService = "noService"
	DueByDate    = "date"
	DueByKm      = "km"
)

// A vehicle is "due soon" this close to either limit.
const (
	DueSoonDays = 14
	DueSoonKm   = 500.0
)

// ServiceDue is when one vehicle is next due for service.
type ServiceDue struct {
	DeviceID    int64      `json:"deviceId"`
	DeviceName  string     `json:"deviceName"`
	LastService model.Date `json:"lastService"` // zero: never serviced
	DueDate     model.Date `json:"dueDate"`
	DaysLeft    int        `json:"daysLeft"` // whole UTC days; negative once passed
	// KmLeft is the distance until the km limit; nil when the vehicle's
	// distance is unknown (no position with odometer or totalDistance).
	KmLeft *float64 `json:"kmLeft"`
	State  string   `json:"state"`
	Reason string   `json:"reason"`
}

func (svc *Service) serviceInterval() ServiceOptions {
	o := svc.maint
	if o.IntervalDays <= 0 {
		o.IntervalDays = 180
	}
	if o.IntervalKm <= 0 {
		o.IntervalKm = 10000
	}
	return o
}

// ServicesDue lists, for every device the actor sees, when it is next
// due for service, overdue first, then by due date. Service records are
// private to their owner, so only the actor's own history counts: a
// vehicle the actor never recorded a service for is due now.
func (svc *Service) ServicesDue(actor *model.User, now time.Time) ([]ServiceDue, error) {
	records, err := svc.ServiceRecords(actor, ServiceQuery{})
	if err != nil {
		return nil, err
	}
	return svc.servicesDue(actor, records, now)
}

// servicesDue is ServicesDue counting the history in records (latest first).
func (svc *Service) servicesDue(actor *model.User, records []*model.ServiceRecord, now time.Time) ([]ServiceDue, error) {
	last := map[int64]*model.ServiceRecord{}
	for _, r := range records {
		if _, seen := last[int64(r.VehicleID)]; !seen {
			last[int64(r.VehicleID)] = r
		}
	}
	opts := svc.serviceInterval()
	out := []ServiceDue{}
	err := svc.store.View(func(tx model.Tx) error {
		return access.Guard{Tx: tx, Actor: actor}.EachDevice(func(d *model.Device) error {
			due, err := dueOf(tx, d, last[d.ID], opts, now)
			out = append(out, due)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b ServiceDue) int {
		return cmp.Or(cmp.Compare(stateRank(a.State), stateRank(b.State)),
			a.DueDate.Compare(b.DueDate.Time), cmp.Compare(a.DeviceID, b.DeviceID))
	})
	return out, nil
}

// serviceDueOf is servicesDue for the one device deviceID, which the
// actor must see; records are its history, latest first.
func (svc *Service) serviceDueOf(actor *model.User, deviceID int64, records []*model.ServiceRecord, now time.Time) (ServiceDue, error) {
	var due ServiceDue
	err := svc.store.View(func(tx model.Tx) error {
		if err := (access.Guard{Tx: tx, Actor: actor}).MustSee(model.KindDevice, deviceID); err != nil {
			return err
		}
		d, err := tx.Devices().Get(deviceID)
		if err != nil {
			return err
		}
		var last *model.ServiceRecord
		if i := slices.IndexFunc(records, func(r *model.ServiceRecord) bool { return int64(r.VehicleID) == deviceID }); i >= 0 {
			last = records[i]
		}
		due, err = dueOf(tx, d, last, svc.serviceInterval(), now)
		return err
	})
	return due, err
}

// dueOf is when device d is next due after its last service (nil: none
// recorded, so due now).
func dueOf(tx model.Tx, d *model.Device, last *model.ServiceRecord, opts ServiceOptions, now time.Time) (ServiceDue, error) {
	due := ServiceDue{DeviceID: d.ID, DeviceName: d.Name}
	if last == nil {
		due.DueDate, due.State, due.Reason = model.Date{Time: now.UTC()}, ServiceDueSoon, DueNoService
		return due, nil
	}
	km, err := kmSince(tx, d.ID, last)
	if err != nil {
		return due, err
	}
	return dueAfter(last, km, opts, now, due), nil
}

func stateRank(s string) int {
	return slices.Index([]string{ServiceOverdue, ServiceDueSoon, ServiceOK}, s)
}

// dueAfter fills due from the last service record r and the kilometres
// driven since it (nil when unknown).
func dueAfter(r *model.ServiceRecord, driven *float64, o ServiceOptions, now time.Time, due ServiceDue) ServiceDue {
	due.LastService = r.ServiceDate
	due.DueDate = model.Date{Time: r.ServiceDate.AddDate(0, 0, o.IntervalDays)}
	due.DaysLeft = daysUntil(now, due.DueDate)
	byDate := urgency(due.DaysLeft < 0, due.DaysLeft <= DueSoonDays)
	due.State, due.Reason = byDate, DueByDate
	if driven != nil {
		left := o.IntervalKm - *driven
		due.KmLeft = &left
		if byKm := urgency(left < 0, left <= DueSoonKm); stateRank(byKm) < stateRank(byDate) {
			due.State, due.Reason = byKm, DueByKm
		}
	}
	return due
}

func urgency(over, soon bool) string {
	switch {
	case over:
		return ServiceOverdue
	case soon:
		return ServiceDueSoon
	}
	return ServiceOK
}

// kmSince is how far the vehicle went since service r, from its latest
// position: a device-reported odometer (meters, the vehicle's own reading)
// compares with the record's odometer (km) directly. totalDistance is
// fleetd's own GPS sum since tracking began, not the vehicle's reading, so
// it counts from the first position at or after the service date instead.
// nil when neither is known.
func kmSince(tx model.Tx, deviceID int64, r *model.ServiceRecord) (*float64, error) {
	latest, err := tx.LatestPosition(deviceID)
	if errors.Is(err, model.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if odometer, ok := meters(latest.Attributes, "odometer"); ok && r.Odometer != nil {
		km := max(0, odometer/1000-*r.Odometer)
		return &km, nil
	}
	total, ok := meters(latest.Attributes, "totalDistance")
	if !ok {
		return nil, nil
	}
	base := total // no position since the service: nothing driven
	err = tx.Positions(deviceID, r.ServiceDate.Time, latest.FixTime, func(p *model.Position) bool {
		if b, ok := meters(p.Attributes, "totalDistance"); ok {
			base = b
			return false
		}
		return true
	})
	km := max(0, total-base) / 1000
	return &km, err
}

// meters reads a distance attribute, which JSON gives as float64 and
// decoders as integers.
func meters(attrs model.Attributes, key string) (float64, bool) {
	switch attrs[key].(type) {
	case float64, float32, int, int64, uint64:
		return model.Number(attrs[key]), true
	}
	return 0, false
}
