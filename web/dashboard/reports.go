package dashboard

import (
	"bufio"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

func (d *Dashboard) reportRoutes() []route {
	return []route{
		{"GET", "/reports", d.reports},
		{"GET", "/reports/xlsx", d.reportWorkbook},
	}
}

// reportTypes are the reports the page runs, in the order it offers them.
var reportTypes = []option{
	{fleet.ReportTrips, "Trips"},
	{fleet.ReportStops, "Stops"},
	{fleet.ReportSummary, "Daily summary"},
	{fleet.ReportRoute, "Route"},
	{fleet.ReportEvents, "Events"},
}

// reportRanges are the spans the page offers, in the viewer's days.
var reportRanges = []option{
	{"today", "Today"},
	{"yesterday", "Yesterday"},
	{"week", "This week"},
	{"last7", "Last 7 days"},
	{"custom", "Custom dates"},
}

// reportForm is the report page's query: what to run, for which vehicles
// and groups (none: every vehicle the viewer sees), over which days.
type reportForm struct {
	Type                string
	DeviceIDs, GroupIDs []int64
	Range               string
	From, To            string // custom range: first and last day, YYYY-MM-DD
}

// Query is the form as a query string, for the download link.
func (f reportForm) Query() string {
	q := url.Values{"type": {f.Type}, "range": {f.Range}}
	for _, id := range f.DeviceIDs {
		q.Add("deviceId", itoa(id))
	}
	for _, id := range f.GroupIDs {
		q.Add("groupId", itoa(id))
	}
	if f.Range == "custom" {
		q.Set("from", f.From)
		q.Set("to", f.To)
	}
	return q.Encode()
}

// reportView is the report page: the form with its choices and problem,
// and the result once a report ran.
type reportView struct {
	Form    reportForm
	Devices []*model.Device
	Groups  []*model.Group
	Zone    string
	Problem string
	Result  *reportResult
}

// readReportForm reads the page's query; a page opened without one gets
// today's trips.
func readReportForm(c *fiber.Ctx) (reportForm, error) {
	f := reportForm{Type: c.Query("type"), Range: c.Query("range", "today"),
		From: strings.TrimSpace(c.Query("from")), To: strings.TrimSpace(c.Query("to"))}
	var err error
	if f.DeviceIDs, err = httpx.QueryIDs(c, "deviceId"); err == nil {
		f.GroupIDs, err = httpx.QueryIDs(c, "groupId")
	}
	return f, err
}

// reportSpan is the form's range in the viewer's time zone: from the
// first day's midnight to the last millisecond of the last day, as
// Traccar's web app asks for a day.
func reportSpan(f reportForm, show prefs.Display, now time.Time) (from, to time.Time, err error) {
	today := show.DayStart(now)
	switch f.Range {
	case "today":
		from, to = today, today.AddDate(0, 0, 1)
	case "yesterday":
		from, to = today.AddDate(0, 0, -1), today
	case "week": // weeks start on Monday (ISO 8601)
		from, to = today.AddDate(0, 0, -(int(today.Weekday())+6)%7), today.AddDate(0, 0, 1)
	case "last7":
		from, to = today.AddDate(0, 0, -6), today.AddDate(0, 0, 1)
	case "custom":
		first, err1 := time.ParseInLocation(time.DateOnly, f.From, today.Location())
		last, err2 := time.ParseInLocation(time.DateOnly, f.To, today.Location())
		if err := errors.Join(err1, err2); err != nil {
			return from, to, model.Invalid("Custom dates need a first and a last day, like 2026-11-24")
		}
		if last.Before(first) {
			return from, to, model.Invalid("The last day (%s) is before the first (%s)", f.To, f.From)
		}
		from, to = first, last.AddDate(0, 0, 1)
	default:
		return from, to, model.Invalid("Unknown range %q", f.Range)
	}
	return from, to.Add(-time.Millisecond), nil
}

// checkedReport is the form's report, checked by the core: the viewer may
// run reports, sees every vehicle and group asked for, and the span is
// within the configured limit.
func (d *Dashboard) checkedReport(c *fiber.Ctx, f reportForm) (*fleet.Report, error) {
	if !slices.ContainsFunc(reportTypes, func(o option) bool { return o.Value == f.Type }) {
		return nil, model.Invalid("Unknown report type %q", f.Type)
	}
	from, to, err := reportSpan(f, display(c), time.Now())
	if err != nil {
		return nil, err
	}
	return d.core.Fleet.Report(user(c), fleet.ReportQuery{DeviceIDs: f.DeviceIDs, GroupIDs: f.GroupIDs, From: from, To: to})
}

// reports is the report page: the form, and the report when one is asked
// for. Input the core refuses comes back on the form with 400; a report
// the viewer may not run or a vehicle they may not see is an error page.
func (d *Dashboard) reports(c *fiber.Ctx) error {
	f, err := readReportForm(c)
	var r *fleet.Report
	if err == nil && f.Type != "" {
		r, err = d.checkedReport(c, f)
	}
	v := reportView{Form: f, Zone: display(c).Zone.String()}
	if err == nil && r != nil {
		v.Result, err = runReport(r, f, display(c))
	}
	return d.renderReports(c, v, err)
}

func (d *Dashboard) renderReports(c *fiber.Ctx, v reportView, problem error) error {
	status := fiber.StatusOK
	if problem != nil {
		if model.ClassOf(problem) != model.ClassInvalid {
			return problem
		}
		status, v.Problem, v.Result = fiber.StatusBadRequest, problemText(problem), nil
	}
	if v.Form.Type == "" {
		v.Form.Type = fleet.ReportTrips
	}
	actor := user(c)
	var err error
	if v.Devices, err = d.core.Fleet.Devices.List(actor, model.Query{}); err != nil {
		return err
	}
	if v.Groups, err = d.core.Fleet.Groups.List(actor, model.Query{}); err != nil {
		return err
	}
	slices.SortFunc(v.Devices, func(a, b *model.Device) int { return compareFold(a.Name, b.Name) })
	slices.SortFunc(v.Groups, func(a, b *model.Group) int { return compareFold(a.Name, b.Name) })
	return render(c, status, reportsPage(d.page(c, "Reports", "reports"), v))
}

// excelType is the media type of an Excel workbook.
const excelType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// reportWorkbook downloads the form's report as the core's workbook,
// named after the type and the days ("trips-2026-11-24.xlsx").
func (d *Dashboard) reportWorkbook(c *fiber.Ctx) error {
	f, err := readReportForm(c)
	var r *fleet.Report
	if err == nil {
		r, err = d.checkedReport(c, f)
	}
	if err != nil {
		return d.renderReports(c, reportView{Form: f, Zone: display(c).Zone.String()}, err)
	}
	wb, err := r.Workbook(f.Type, fleet.ReportParams{Daily: true})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, excelType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+workbookName(f.Type, r, display(c))+`"`)
	httpx.StreamWriter(c, func(w *bufio.Writer) {
		if _, err := wb.WriteTo(w); err != nil {
			d.log.Warn("report workbook cut short", "type", f.Type, "err", err)
		}
	})
	return nil
}

// workbookName is "trips-2026-11-24.xlsx" for a day, and
// "trips-2026-11-18-to-2026-11-24.xlsx" for several, in the viewer's days.
func workbookName(typ string, r *fleet.Report, show prefs.Display) string {
	first, last := show.DateOf(r.From), show.DateOf(r.To)
	if first == last {
		return typ + "-" + first + ".xlsx"
	}
	return typ + "-" + first + "-to-" + last + ".xlsx"
}
