package dashboard

import (
	"context"
	"time"

	"github.com/fleetd/fleetd/app/office"
)

// overviewServicesDue fills the vehicles that are overdue or due soon
// for service (the core lists them most urgent first).
func (d *Dashboard) overviewServicesDue(officeAdmin office.Admin, v *overviewView) error {
	all, err := officeAdmin.ServicesDue(time.Now())
	if err != nil {
		return err
	}
	for _, due := range all {
		if due.State == office.ServiceOK {
			continue
		}
		v.DueCount++
		if due.State == office.ServiceOverdue {
			v.Overdue++
		}
		if len(v.Due) < overviewListLen {
			v.Due = append(v.Due, due)
		}
	}
	return nil
}

// dueTone colours the stat card red while any vehicle is overdue.
func dueTone(v overviewView) string {
	if v.Overdue > 0 {
		return "bad"
	}
	return "warn"
}

// dueText says why a vehicle is due: never serviced, its date, or the
// distance left (or driven past the interval).
func dueText(ctx context.Context, due office.ServiceDue) string {
	switch {
	case due.Reason == office.DueNoService:
		return "no service recorded"
	case due.Reason == office.DueByKm && due.KmLeft != nil && *due.KmLeft < 0:
		return shown(ctx).RoundDistance(-*due.KmLeft) + " over the interval"
	case due.Reason == office.DueByKm && due.KmLeft != nil:
		return shown(ctx).RoundDistance(*due.KmLeft) + " left"
	}
	return "due " + day(due.DueDate.Time) + " (" + daysText(due.DaysLeft) + ")"
}

// vehicleMaintenanceURL is the vehicle's service history.
func vehicleMaintenanceURL(deviceID int64) string {
	return Prefix + "/maintenance?" + queryString("vehicle", itoa(deviceID))
}
