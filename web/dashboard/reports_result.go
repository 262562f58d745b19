package dashboard

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/app/reports"
)

// maxReportRows is the most rows a report's table shows; the workbook
// has them all.
const maxReportRows = 1000

// maxSummaryCharts is the most vehicles a summary draws charts for.
const maxSummaryCharts = 5

// reportResult is a report as the page shows it: one of the row lists
// (by Type), the charts, and whether rows were left out.
type reportResult struct {
	Type     string
	From, To time.Time
	Route    []routeRow
	Trips    []reports.Trip
	Stops    []reports.Stop
	Summary  []reports.SummaryItem
	Events   []eventRow
	Charts   []chart
	// Total is how many rows the report has (0: not counted, a route of
	// several vehicles stops reading once the table is full); More: some
	// are not shown.
	Total int
	More  bool
	// ChartsCapped: a summary of more vehicles than maxSummaryCharts.
	ChartsCapped bool
	Download     string
}

// Shown is how many rows the table shows.
func (r *reportResult) Shown() int {
	return len(r.Route) + len(r.Trips) + len(r.Stops) + len(r.Summary) + len(r.Events)
}

// routeRow is one position of a route with its vehicle's name.
type routeRow struct {
	Device   string
	Position *model.Position
}

// runReport runs the checked report r for the page.
func runReport(r *fleet.Report, f reportForm, show prefs.Display) (*reportResult, error) {
	res := &reportResult{Type: f.Type, From: r.From, To: r.To, Download: Prefix + "/reports/xlsx?" + f.Query()}
	var err error
	switch f.Type {
	case fleet.ReportRoute:
		err = res.route(r, show)
	case fleet.ReportEvents:
		err = res.events(r)
	case fleet.ReportSummary:
		err = res.summary(r, show)
	default: // trips, stops
		err = res.motion(r)
	}
	if err != nil {
		return nil, err
	}
	res.More = res.Total > res.Shown() || res.More
	for i := range res.Charts {
		res.Charts[i].ID = "chart-" + itoa(i)
	}
	return res, nil
}

// appendCapped appends rows to list while the table has room.
func appendCapped[T any](list, rows []T) []T {
	room := max(0, maxReportRows-len(list))
	return append(list, rows[:min(room, len(rows))]...)
}

// motion lists the vehicles' trips or stops.
func (res *reportResult) motion(r *fleet.Report) error {
	for _, d := range r.Devices {
		trips, stops, err := r.Motion(d)
		if err != nil {
			return err
		}
		if res.Type == fleet.ReportTrips {
			res.Total += len(trips)
			res.Trips = appendCapped(res.Trips, trips)
		} else {
			res.Total += len(stops)
			res.Stops = appendCapped(res.Stops, stops)
		}
	}
	return nil
}

var errTableFull = errors.New("table full")

// route lists the vehicles' positions up to the table's size; a route of
// one vehicle is read whole (to the route limit) for its speed chart.
func (res *reportResult) route(r *fleet.Report, show prefs.Display) error {
	var speeds []timedValue
	for _, d := range r.Devices {
		one := len(r.Devices) == 1
		err := r.Positions(d, r.MaxPositions(), func(p *model.Position) error {
			res.Total++
			if one {
				speeds = append(speeds, timedValue{p.FixTime, show.SpeedValue(p.Speed)})
			}
			switch {
			case len(res.Route) < maxReportRows:
				res.Route = append(res.Route, routeRow{Device: d.Name, Position: p})
			case !one:
				res.More, res.Total = true, 0
				return errTableFull
			}
			return nil
		})
		if errors.Is(err, errTableFull) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	if len(speeds) > 1 {
		res.Charts = append(res.Charts, speedLine(r.Devices[0].Name, speeds, show))
	}
	return nil
}

// events lists the vehicles' events of every type, counting those past
// the table's size.
func (res *reportResult) events(r *fleet.Report) error {
	return r.EachEvent(fleet.EventFilter{}, func(d *model.Device, e *model.Event) error {
		res.Total++
		if len(res.Events) < maxReportRows {
			res.Events = append(res.Events, eventRow{Device: d.Name, Event: e, Detail: eventDetail(r, e)})
		}
		return nil
	})
}

// summary lists each vehicle's days and charts the first vehicles'
// distance and speeds per day.
func (res *reportResult) summary(r *fleet.Report, show prefs.Display) error {
	for i, d := range r.Devices {
		items, err := r.Summary(d, true)
		if err != nil {
			return err
		}
		res.Total += len(items)
		res.Summary = appendCapped(res.Summary, items)
		if i == maxSummaryCharts {
			res.ChartsCapped = true
		}
		if i < maxSummaryCharts {
			res.Charts = append(res.Charts, summaryCharts(d.Name, items, r.From, r.To, show)...)
		}
	}
	return nil
}

// hoursText is milliseconds of engine time in hours ("2.5 h"), "–" for
// none (a tracker that does not report engine hours).
func hoursText(ms int64) string {
	if ms == 0 {
		return "–"
	}
	return strconv.FormatFloat(float64(ms)/3.6e6, 'f', 1, 64) + " h"
}

// reportTitle names the report and its days ("Trips · 2026-11-24").
func reportTitle(ctx context.Context, r *reportResult) string {
	name := r.Type
	for _, o := range reportTypes {
		if o.Value == r.Type {
			name = o.Label
		}
	}
	first, last := shown(ctx).DateOf(r.From), shown(ctx).DateOf(r.To)
	if first == last {
		return name + " · " + first
	}
	return name + " · " + first + " to " + last
}
