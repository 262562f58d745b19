package fleet

import (
	"github.com/fleetd/fleetd/app/export"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/reports"
)

// Report types that have a workbook (Traccar's xlsx reports), the types
// a scheduled report may be.
const (
	ReportRoute     = "route"
	ReportEvents    = "events"
	ReportTrips     = "trips"
	ReportStops     = "stops"
	ReportSummary   = "summary"
	ReportGeofences = "geofences"
)

// WorkbookTypes are the report types with a workbook.
var WorkbookTypes = []string{ReportRoute, ReportEvents, ReportTrips, ReportStops, ReportSummary, ReportGeofences}

// ReportParams are what some report types take besides the span: events' filter, summary's daily split,
// the geofences of a geofence report.
type ReportParams struct {
	Events      EventFilter
	Daily       bool
	GeofenceIDs []int64
}

// Workbook builds the report of type typ as an Excel workbook, one sheet
// per device (a summary and geofence stays: one sheet), times in the
// caller's zone.
func (r *Report) Workbook(typ string, p ReportParams) (*export.Workbook, error) {
	wb := export.NewWorkbook(r.Location)
	var err error
	switch typ {
	case ReportRoute:
		err = r.routeSheets(wb)
	case ReportEvents:
		err = r.eventSheets(wb, p.Events)
	case ReportTrips:
		err = r.tripSheets(wb)
	case ReportStops:
		err = r.stopSheets(wb)
	case ReportSummary:
		err = r.summarySheet(wb, p.Daily)
	case ReportGeofences:
		err = r.geofenceSheet(wb, p.GeofenceIDs)
	default:
		err = model.Invalid("no workbook for report type %q", typ)
	}
	return wb, err
}

func (r *Report) routeSheets(wb *export.Workbook) error {
	for _, d := range r.Devices {
		err := wb.Sheet(d.Name, "Fix time", "Latitude", "Longitude", "Altitude (m)", "Speed (kn)", "Course", "Address",
			"Valid", "Distance (m)", "Total distance (m)")
		if err == nil {
			err = r.Positions(d, r.MaxPositions(), func(p *model.Position) error {
				return wb.Row(p.FixTime, p.Latitude, p.Longitude, p.Altitude, p.Speed, p.Course, text(p.Address), p.Valid,
					model.Number(p.Attributes["distance"]), model.Number(p.Attributes["totalDistance"]))
			})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *Report) eventSheets(wb *export.Workbook, f EventFilter) error {
	var sheet int64 = -1
	return r.EachEvent(f, func(d *model.Device, e *model.Event) error {
		if d.ID != sheet {
			sheet = d.ID
			if err := wb.Sheet(d.Name, "Time", "Type", "Geofence", "Maintenance", "Alarm"); err != nil {
				return err
			}
		}
		alarm, _ := e.Attributes["alarm"].(string)
		return wb.Row(e.EventTime, e.Type, r.Name(model.KindGeofence, e.GeofenceID), r.Name(model.KindMaintenance, e.MaintenanceID), alarm)
	})
}

func (r *Report) tripSheets(wb *export.Workbook) error {
	for _, d := range r.Devices {
		trips, _, err := r.Motion(d)
		if err == nil {
			err = wb.Sheet(d.Name, "Start", "Start address", "End", "End address", "Distance (m)", "Average speed (kn)",
				"Max speed (kn)", "Duration (min)", "Spent fuel", "Driver")
		}
		for _, t := range trips {
			if err != nil {
				break
			}
			err = wb.Row(t.StartTime, text(t.StartAddress), t.EndTime, text(t.EndAddress), t.Distance, t.AverageSpeed,
				t.MaxSpeed, minutes(t.Duration), t.SpentFuel, text(t.DriverName))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *Report) stopSheets(wb *export.Workbook) error {
	for _, d := range r.Devices {
		_, stops, err := r.Motion(d)
		if err == nil {
			err = wb.Sheet(d.Name, "Start", "End", "Latitude", "Longitude", "Address", "Duration (min)", "Engine hours (h)", "Spent fuel")
		}
		for _, s := range stops {
			if err != nil {
				break
			}
			err = wb.Row(s.StartTime, s.EndTime, s.Latitude, s.Longitude, text(s.Address), minutes(s.Duration),
				float64(s.EngineHours)/3.6e6, s.SpentFuel)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *Report) summarySheet(wb *export.Workbook, daily bool) error {
	err := wb.Sheet("Summary", "Device", "Start", "End", "Distance (m)", "Average speed (kn)", "Max speed (kn)",
		"Engine hours (h)", "Spent fuel", "Start odometer (m)", "End odometer (m)")
	for _, d := range r.Devices {
		var items []reports.SummaryItem
		if err == nil {
			items, err = r.Summary(d, daily)
		}
		for _, s := range items {
			if err != nil {
				break
			}
			err = wb.Row(s.DeviceName, s.StartTime, s.EndTime, s.Distance, s.AverageSpeed, s.MaxSpeed,
				float64(s.EngineHours)/3.6e6, s.SpentFuel, s.StartOdometer, s.EndOdometer)
		}
	}
	return err
}

func (r *Report) geofenceSheet(wb *export.Workbook, ids []int64) error {
	stays, err := r.GeofenceStays(ids)
	if err == nil {
		err = wb.Sheet("Geofences", "Device", "Geofence", "Start", "End", "Duration (min)")
	}
	for _, s := range stays {
		if err != nil {
			break
		}
		err = wb.Row(s.DeviceName, r.Name(model.KindGeofence, s.GeofenceID), s.StartTime, s.EndTime, s.EndTime.Sub(s.StartTime).Minutes())
	}
	return err
}

func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func minutes(ms int64) float64 { return float64(ms) / 60_000 }
