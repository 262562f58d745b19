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
	"github.com/fleetd/fleetd/app/reports"
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
	for path, fn := range map[string]fiber.Handler{
		"/reports/route": h.routeReport, "/reports/events": h.eventsReport, "/reports/geofences": h.geofenceReport,
		"/reports/trips": h.tripsReport, "/reports/stops": h.stopsReport, "/reports/summary": h.summaryReport,
	} {
		rs = append(rs, route{fiber.MethodGet, path, required, fn}, route{fiber.MethodGet, path + "/xlsx", required, fn})
	}
	return rs
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

// wantsExcel: the /xlsx form, or a workbook asked for in Accept.
func wantsExcel(c *fiber.Ctx) bool {
	return strings.HasSuffix(c.Path(), "/xlsx") || strings.Contains(c.Get(fiber.HeaderAccept), excelType)
}

// sendWorkbook streams a workbook filled by fill as report.xlsx.
func (h *handlers) sendWorkbook(c *fiber.Ctx, r *fleet.Report, fill func(*export.Workbook) error) error {
	wb := export.NewWorkbook(r.Location)
	if err := fill(wb); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, excelType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="report.xlsx"`)
	httpx.StreamWriter(c, func(w *bufio.Writer) {
		if _, err := wb.WriteTo(w); err == nil {
			err = w.Flush()
		} else {
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

// routeReport is Traccar's route report: the positions of each device in
// turn, at most reports.maxPositions each.
func (h *handlers) routeReport(c *fiber.Ctx) error {
	r, err := h.report(c)
	if err != nil {
		return err
	}
	if wantsExcel(c) {
		return h.sendWorkbook(c, r, func(wb *export.Workbook) error {
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
		})
	}
	h.streamArray(c, "route report", func(emit func(any) error) error {
		for _, d := range r.Devices {
			if err := r.Positions(d, r.MaxPositions(), func(p *model.Position) error { return emit(p) }); err != nil {
				return err
			}
		}
		return nil
	})
	return nil
}

// eventsReport is Traccar's events report, filtered by repeated type
// (allEvents: all) and, for alarms, alarm.
func (h *handlers) eventsReport(c *fiber.Ctx) error {
	r, err := h.report(c)
	if err != nil {
		return err
	}
	f := fleet.EventFilter{Types: httpx.QueryStrings(c, "type"), Alarms: httpx.QueryStrings(c, "alarm")}
	if wantsExcel(c) {
		return h.sendWorkbook(c, r, func(wb *export.Workbook) error {
			var sheet int64 = -1
			return r.EachEvent(f, func(d *model.Device, e *model.Event) error {
				if d.ID != sheet {
					sheet = d.ID
					if err := wb.Sheet(d.Name, "Time", "Type", "Geofence", "Maintenance", "Alarm"); err != nil {
						return err
					}
				}
				alarm, _ := e.Attributes["alarm"].(string)
				return wb.Row(e.EventTime, e.Type, r.Name(model.KindGeofence, e.GeofenceID),
					r.Name(model.KindMaintenance, e.MaintenanceID), alarm)
			})
		})
	}
	h.streamArray(c, "events report", func(emit func(any) error) error {
		return r.EachEvent(f, func(_ *model.Device, e *model.Event) error { return emit(e) })
	})
	return nil
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

// geofenceReport is Traccar's geofence report: stays in the repeated
// geofenceId's geofences (none: every one).
func (h *handlers) geofenceReport(c *fiber.Ctx) error {
	r, err := h.report(c)
	if err != nil {
		return err
	}
	ids, err := httpx.QueryIDs(c, "geofenceId")
	if err != nil {
		return err
	}
	items, err := r.GeofenceStays(ids)
	if err != nil || !wantsExcel(c) {
		return send(c, items, err)
	}
	return h.sendWorkbook(c, r, func(wb *export.Workbook) error {
		if err := wb.Sheet("Geofences", "Device", "Geofence", "Start", "End", "Duration (min)"); err != nil {
			return err
		}
		for _, it := range items {
			err := wb.Row(it.DeviceName, r.Name(model.KindGeofence, it.GeofenceID), it.StartTime, it.EndTime,
				it.EndTime.Sub(it.StartTime).Minutes())
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// tripsReport is Traccar's trips report, device by device.
func (h *handlers) tripsReport(c *fiber.Ctx) error {
	r, err := h.report(c)
	if err != nil {
		return err
	}
	all := []reports.Trip{}
	sections := make([][]reports.Trip, len(r.Devices))
	for i, d := range r.Devices {
		if sections[i], _, err = r.Motion(d); err != nil {
			return err
		}
		all = append(all, sections[i]...)
	}
	if !wantsExcel(c) {
		return c.JSON(all)
	}
	return h.sendWorkbook(c, r, func(wb *export.Workbook) error {
		for i, d := range r.Devices {
			err := wb.Sheet(d.Name, "Start", "Start address", "End", "End address", "Distance (m)", "Average speed (kn)",
				"Max speed (kn)", "Duration (min)", "Spent fuel", "Driver")
			for _, t := range sections[i] {
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
	})
}

// stopsReport is Traccar's stops report, device by device.
func (h *handlers) stopsReport(c *fiber.Ctx) error {
	r, err := h.report(c)
	if err != nil {
		return err
	}
	all := []reports.Stop{}
	sections := make([][]reports.Stop, len(r.Devices))
	for i, d := range r.Devices {
		if _, sections[i], err = r.Motion(d); err != nil {
			return err
		}
		all = append(all, sections[i]...)
	}
	if !wantsExcel(c) {
		return c.JSON(all)
	}
	return h.sendWorkbook(c, r, func(wb *export.Workbook) error {
		for i, d := range r.Devices {
			err := wb.Sheet(d.Name, "Start", "End", "Latitude", "Longitude", "Address", "Duration (min)", "Engine hours (h)", "Spent fuel")
			for _, s := range sections[i] {
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
	})
}

// summaryReport is Traccar's summary report: one item per device, or
// per device and day (daily=true, days of the caller's time zone).
func (h *handlers) summaryReport(c *fiber.Ctx) error {
	r, err := h.report(c)
	if err != nil {
		return err
	}
	daily, err := httpx.QueryBool(c, "daily")
	if err != nil {
		return err
	}
	all := []reports.SummaryItem{}
	for _, d := range r.Devices {
		items, err := r.Summary(d, daily)
		if err != nil {
			return err
		}
		all = append(all, items...)
	}
	if !wantsExcel(c) {
		return c.JSON(all)
	}
	return h.sendWorkbook(c, r, func(wb *export.Workbook) error {
		err := wb.Sheet("Summary", "Device", "Start", "End", "Distance (m)", "Average speed (kn)", "Max speed (kn)",
			"Engine hours (h)", "Spent fuel", "Start odometer (m)", "End odometer (m)")
		for _, s := range all {
			if err != nil {
				break
			}
			err = wb.Row(s.DeviceName, s.StartTime, s.EndTime, s.Distance, s.AverageSpeed, s.MaxSpeed,
				float64(s.EngineHours)/3.6e6, s.SpentFuel, s.StartOdometer, s.EndOdometer)
		}
		return err
	})
}

func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func minutes(ms int64) float64 { return float64(ms) / 60_000 }

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
