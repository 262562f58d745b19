package api

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/fleetd/fleetd/app/export"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// excelType is the media type of a workbook; a client asks for one with
// a report path's /xlsx form or with it in Accept (Traccar's @Produces).
const excelType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

func (h *handlers) reportRoutes() []route {
	rs := []route{
		{fiber.MethodGet, "/reports/combined", required, h.combinedReport},
		{fiber.MethodGet, "/positions/kml", required, h.exportTrack("kml")},
		{fiber.MethodGet, "/positions/kmz", required, h.exportTrack("kmz")},
		{fiber.MethodGet, "/positions/csv", required, h.exportTrack("csv")},
		{fiber.MethodGet, "/positions/gpx", required, h.exportTrack("gpx")},
	}
	for _, typ := range fleet.WorkbookTypes {
		path := "/reports/" + typ
		rs = append(rs, route{fiber.MethodGet, path, required, h.typedReport(typ)},
			route{fiber.MethodGet, path + "/xlsx", required, h.typedReport(typ)},
			route{fiber.MethodGet, path + "/mail", required, h.mailReport(typ)})
	}
	return append(rs, objectRoutes("/reports", h.core.Fleet.Reports, filterLinks)...)
}

// report reads the parameters every report takes and checks them.
func (h *handlers) report(c *fiber.Ctx) (*fleet.Report, error) {
	var q fleet.ReportQuery
	var err error
	if q.DeviceIDs, err = httpx.QueryIDs(c, "deviceId"); err != nil {
		return nil, err
	}
	if q.GroupIDs, err = httpx.QueryIDs(c, "groupId"); err != nil {
		return nil, err
	}
	if q.From, err = httpx.QueryTime(c, "from"); err != nil {
		return nil, err
	}
	if q.To, err = httpx.QueryTime(c, "to"); err != nil {
		return nil, err
	}
	return h.core.Fleet.Report(httpx.User(c), q)
}

// reportWithParams is report with what some types take besides: type
// and alarm (events), daily (summary), geofenceId (geofences).
func (h *handlers) reportWithParams(c *fiber.Ctx) (r *fleet.Report, p fleet.ReportParams, err error) {
	p.Events = fleet.EventFilter{Types: httpx.QueryStrings(c, "type"), Alarms: httpx.QueryStrings(c, "alarm")}
	if p.Daily, err = httpx.QueryBool(c, "daily"); err == nil {
		p.GeofenceIDs, err = httpx.QueryIDs(c, "geofenceId")
	}
	if err == nil {
		r, err = h.report(c)
	}
	return r, p, err
}

// wantsExcel: the /xlsx form, or a workbook asked for in Accept.
func wantsExcel(c *fiber.Ctx) bool {
	return strings.HasSuffix(c.Path(), "/xlsx") || strings.Contains(c.Get(fiber.HeaderAccept), excelType)
}

// typedReport serves one of Traccar's reports as JSON or, asked for, as a
// workbook (report.xlsx, one sheet per device).
func (h *handlers) typedReport(typ string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		r, p, err := h.reportWithParams(c)
		if err != nil {
			return err
		}
		if wantsExcel(c) {
			wb, err := r.Workbook(typ, p)
			if err != nil {
				return err
			}
			return h.sendWorkbook(c, wb)
		}
		switch typ {
		case fleet.ReportRoute: // streamed: a day of a busy fleet is large
			h.streamArray(c, "route report", func(emit func(any) error) error {
				for _, d := range r.Devices {
					if err := r.Positions(d, r.MaxPositions(), func(p *model.Position) error { return emit(p) }); err != nil {
						return err
					}
				}
				return nil
			})
			return nil
		case fleet.ReportEvents:
			h.streamArray(c, "events report", func(emit func(any) error) error {
				return r.EachEvent(p.Events, func(_ *model.Device, e *model.Event) error { return emit(e) })
			})
			return nil
		case fleet.ReportGeofences:
			items, err := r.GeofenceStays(p.GeofenceIDs)
			return send(c, items, err)
		}
		items, err := r.Items(typ, p.Daily)
		return send(c, items, err)
	}
}

// mailReport e-mails the report's workbook to the caller (Traccar's /mail
// form): 204 at once, the mail follows.
func (h *handlers) mailReport(typ string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		r, p, err := h.reportWithParams(c)
		if err != nil {
			return err
		}
		return noContent(c, r.Mail(typ, p))
	}
}

// sendWorkbook streams a workbook as report.xlsx.
func (h *handlers) sendWorkbook(c *fiber.Ctx, wb *export.Workbook) error {
	c.Set(fiber.HeaderContentType, excelType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="report.xlsx"`)
	httpx.StreamWriter(c, func(w *bufio.Writer) {
		_, err := wb.WriteTo(w)
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			h.opts.Logger.Warn("report workbook cut short", "err", err)
		}
	})
	return nil
}

// streamArray answers a JSON array whose items each emits, written as
// they come (see streamHistory).
func (h *handlers) streamArray(c *fiber.Ctx, what string, each func(emit func(v any) error) error) {
	c.Type("json", "utf-8")
	httpx.StreamWriter(c, func(w *bufio.Writer) {
		w.WriteByte('[')
		n := 0
		err := each(func(v any) error {
			b, err := httpx.JSONEncoder(v)
			if err != nil {
				return err
			}
			if n > 0 {
				w.WriteByte(',')
			}
			n++
			_, err = w.Write(b)
			return err
		})
		w.WriteByte(']')
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			h.opts.Logger.Warn(what+" cut short", "items", n, "err", err)
		}
	})
}

// combinedReport is Traccar's combined report (JSON only, as in Traccar).
func (h *handlers) combinedReport(c *fiber.Ctx) error {
	r, err := h.report(c)
	if err != nil {
		return err
	}
	items, err := r.Combined()
	return send(c, items, err)
}

// exportTrack serves Traccar's /positions/{kml,kmz,csv,gpx}: one
// device's positions in [from, to], optionally only those inside
// geofenceId, at most reports.maxPositions.
func (h *handlers) exportTrack(format string) fiber.Handler {
	types := map[string]string{"kml": "application/vnd.google-earth.kml+xml", "kmz": "application/vnd.google-earth.kmz",
		"csv": "text/csv; charset=utf-8", "gpx": "application/gpx+xml"}
	return func(c *fiber.Ctx) error {
		deviceID, from, to, err := deviceRange(c)
		if err != nil {
			return err
		}
		if deviceID == 0 {
			return model.Invalid("deviceId is required")
		}
		geofenceID, err := httpx.QueryID(c, "geofenceId")
		if err != nil {
			return err
		}
		r, err := h.core.Fleet.Report(httpx.User(c), fleet.ReportQuery{DeviceIDs: []int64{deviceID}, From: from, To: to})
		if err != nil {
			return err
		}
		inside, err := r.Inside(geofenceID)
		if err != nil {
			return err
		}
		d := r.Devices[0]
		track := export.Track{DeviceName: d.Name, From: from, To: to, Each: func(fn func(*model.Position) error) error {
			return r.Positions(d, r.MaxPositions(), func(p *model.Position) error {
				if inside(p) {
					return fn(p)
				}
				return nil
			})
		}}
		c.Set(fiber.HeaderContentType, types[format])
		c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="positions.%s"`, format))
		httpx.StreamWriter(c, func(w *bufio.Writer) {
			if err := writeTrack(w, format, track, r); err != nil {
				h.opts.Logger.Warn("position export cut short", "format", format, "deviceId", d.ID, "err", err)
			}
		})
		return nil
	}
}

func writeTrack(w *bufio.Writer, format string, t export.Track, r *fleet.Report) error {
	var err error
	switch format {
	case "kml":
		err = export.KML(w, t)
	case "kmz": // a zip holding doc.kml
		zw := zip.NewWriter(w)
		var f io.Writer
		if f, err = zw.Create("doc.kml"); err == nil {
			err = export.KML(f, t)
		}
		if err == nil {
			err = zw.Close()
		}
	case "csv":
		err = export.CSV(w, t, r.Location)
	case "gpx":
		err = export.GPX(w, t)
	}
	if err == nil {
		err = w.Flush()
	}
	return err
}
