package fleet

import (
	"errors"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/reports"
)

// config is device d's trip and summary settings (app/reports), each key
// looked up in the device's attributes, its groups', then the server's.
func (r *Report) config(d *model.Device) reports.Config {
	return reports.ConfigFrom(func(key string) (any, bool) { return r.Lookup(d, key) })
}

// Motion is device d's trips and stops in the span, from one pass over
// its positions (Traccar's trips and stops reports).
func (r *Report) Motion(d *model.Device) ([]reports.Trip, []reports.Stop, error) {
	det := reports.NewDetector(r.config(d), d, r.driverName)
	err := r.Positions(d, 0, func(p *model.Position) error { det.Add(p); return nil })
	if err != nil {
		return nil, nil, err
	}
	trips, stops := det.Finish()
	return trips, stops, nil
}

// Summary is device d's summary over the span, or one per day of the
// caller's time zone when daily (Traccar's summary report).
func (r *Report) Summary(d *model.Device, daily bool) ([]reports.SummaryItem, error) {
	var loc *time.Location
	if daily {
		loc = r.Location
	}
	s := reports.NewSummary(r.config(d), d, r.From, loc)
	if err := r.Positions(d, 0, func(p *model.Position) error { s.Add(p); return nil }); err != nil {
		return nil, err
	}
	return s.Finish(), nil
}

// driverName is the name of the driver with uniqueID, or "" (remembered
// for the report).
func (r *Report) driverName(uniqueID string) string {
	if name, ok := r.drivers[uniqueID]; ok {
		return name
	}
	name := ""
	err := r.fl.store.View(func(tx model.Tx) error {
		d, err := tx.Fleet().DriverByUniqueID(uniqueID)
		if err == nil {
			name = d.Name
		}
		return err
	})
	if err != nil && !errors.Is(err, model.ErrNotFound) {
		return "" // not remembered: the next trip asks again
	}
	if r.drivers == nil {
		r.drivers = map[string]string{}
	}
	r.drivers[uniqueID] = name
	return name
}

// Items is the trips, stops or summary report of every device of the
// report, device by device.
func (r *Report) Items(typ string, daily bool) (any, error) {
	trips, stops, summary := []reports.Trip{}, []reports.Stop{}, []reports.SummaryItem{}
	for _, d := range r.Devices {
		switch typ {
		case ReportTrips, ReportStops:
			t, s, err := r.Motion(d)
			if err != nil {
				return nil, err
			}
			trips, stops = append(trips, t...), append(stops, s...)
		case ReportSummary:
			items, err := r.Summary(d, daily)
			if err != nil {
				return nil, err
			}
			summary = append(summary, items...)
		default:
			return nil, model.Invalid("unknown report type %q", typ)
		}
	}
	switch typ {
	case ReportTrips:
		return trips, nil
	case ReportStops:
		return stops, nil
	}
	return summary, nil
}
