package api_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// weekdays is the calendar Traccar's web app writes (LF lines, the
// browser's TZID), base64 as the API carries it.
var weekdays = base64.StdEncoding.EncodeToString(weekdaysICS)

var weekdaysICS = []byte(strings.Join([]string{
	"BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Traccar//NONSGML Traccar//EN", "BEGIN:VEVENT",
	"UID:00000000-0000-0000-0000-000000000000", "DTSTART;TZID=Europe/Berlin:20261102T080000",
	"DTEND;TZID=Europe/Berlin:20261102T180000", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "SUMMARY:Event",
	"END:VEVENT", "END:VCALENDAR"}, "\n"))

func TestCalendars(t *testing.T) {
	withCalendar := func(t *testing.T, e *env) {
		create(t, e, "cal1", e.Core.Fleet.Calendars, func(c *model.Calendar) {
			c.Name, c.Data = "Weekdays", weekdaysICS
		})
		e.link(t, "user", "user1", "calendar", "cal1")
	}
	run(t, []scenario{
		{Name: "create as the web app does", As: "user1", Method: "POST", Path: "/api/calendars",
			Body:   `{"name":"Weekdays","data":"` + weekdays + `","attributes":{}}`,
			Status: 200, Want: []string{`"name":"Weekdays"`, `"data":"` + weekdays + `"`}},
		{Name: "data that is not iCalendar", As: "user1", Method: "POST", Path: "/api/calendars",
			Body:   `{"name":"x","data":"` + base64.StdEncoding.EncodeToString([]byte("hello")) + `"}`,
			Status: 400, Want: []string{"not iCalendar"}},
		{Name: "data that is not base64", As: "user1", Method: "POST", Path: "/api/calendars",
			Body: `{"name":"x","data":"%%%"}`, Status: 400},
		{Name: "name required", As: "user1", Method: "POST", Path: "/api/calendars",
			Body: `{"data":"` + weekdays + `"}`, Status: 400, Want: []string{"name and data are required"}},
		{Name: "the owner lists it", As: "user1", Before: withCalendar, Method: "GET", Path: "/api/calendars",
			Status: 200, Want: []string{`"id":{cal1}`}},
		{Name: "another user does not", As: "user2", Before: withCalendar, Method: "GET", Path: "/api/calendars",
			Status: 200, Absent: []string{`"Weekdays"`}},
		{Name: "nor reads it", As: "user2", Before: withCalendar, Method: "GET", Path: "/api/calendars/{cal1}", Status: 404},
		{Name: "nor points a geofence at it", As: "user2", Before: withCalendar, Method: "POST", Path: "/api/geofences",
			Body: `{"name":"yard","area":"CIRCLE (52.5 13.4, 100)","calendarId":{cal1}}`, Status: 400, Want: []string{"calendar"}},
		{Name: "the owner points a geofence at it", As: "user1", Before: withCalendar, Method: "PUT", Path: "/api/geofences/{gf1}",
			Body: `{"calendarId":{cal1}}`, Status: 200, Want: []string{`"calendarId":{cal1}`}},
		{Name: "deleting it frees the geofence", As: "user1", Before: func(t *testing.T, e *env) {
			withCalendar(t, e)
			_, err := e.Core.Fleet.Geofences.Update(model.System(), e.IDs["gf1"], func(g *model.Geofence) error { g.CalendarID = e.IDs["cal1"]; return nil })
			must(t, err)
		}, Method: "DELETE", Path: "/api/calendars/{cal1}", Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				g, err := e.Core.Fleet.Geofences.Get(model.System(), e.IDs["gf1"])
				must(t, err)
				if g.CalendarID != 0 {
					t.Errorf("geofence calendarId = %d after the calendar's deletion", g.CalendarID)
				}
			}},
		{Name: "linked to another user by an admin", As: "admin", Before: withCalendar, Method: "POST", Path: "/api/permissions",
			Body: `{"userId":"{user2}","calendarId":"{cal1}"}`, Status: 204},
	})
}

func TestMaintenance(t *testing.T) {
	withOil := func(t *testing.T, e *env) {
		create(t, e, "m1", e.Core.Fleet.Maintenances, func(m *model.Maintenance) {
			m.Name, m.Type, m.Start, m.Period = "Oil", "totalDistance", 0, 10_000_000
		})
		e.link(t, "user", "user1", "maintenance", "m1")
	}
	run(t, []scenario{
		{Name: "create", As: "user1", Method: "POST", Path: "/api/maintenance",
			Body:   `{"name":"Tyres","type":"totalDistance","start":1000,"period":40000000,"attributes":{}}`,
			Status: 200, Want: []string{`"name":"Tyres"`, `"type":"totalDistance"`, `"start":1000`, `"period":40000000`}},
		{Name: "numbers as the web app sends them, as text", As: "user1", Method: "POST", Path: "/api/maintenance",
			Body: `{"name":"Oil change","type":"odometer","start":"1000","period":"5000"}`, Status: 200,
			Want: []string{`"start":1000`, `"period":5000`}},
		{Name: "type required", As: "user1", Method: "POST", Path: "/api/maintenance",
			Body: `{"name":"Tyres","period":1}`, Status: 400, Want: []string{"name and type are required"}},
		{Name: "negative period", As: "user1", Method: "POST", Path: "/api/maintenance",
			Body: `{"name":"Tyres","type":"hours","period":-1}`, Status: 400, Want: []string{"period"}},
		{Name: "linked to the owner's device", As: "user1", Before: withOil, Method: "POST", Path: "/api/permissions",
			Body: `{"deviceId":"{d1}","maintenanceId":{m1}}`, Status: 204},
		{Name: "the device's list", As: "user1", Before: func(t *testing.T, e *env) {
			withOil(t, e)
			e.link(t, "device", "d1", "maintenance", "m1")
		}, Method: "GET", Path: "/api/maintenance?deviceId={d1}", Status: 200, Want: []string{`"id":{m1}`}},
		{Name: "not linked to a device: not in its list", As: "user1", Before: withOil, Method: "GET",
			Path: "/api/maintenance?deviceId={d1}", Status: 200, Absent: []string{`"Oil"`}},
		{Name: "another user's device", As: "user2", Before: withOil, Method: "POST", Path: "/api/permissions",
			Body: `{"deviceId":"{d3}","maintenanceId":{m1}}`, Status: 404},
		{Name: "keyword searches the type", As: "user1", Before: withOil, Method: "GET", Path: "/api/maintenance?keyword=DISTANCE",
			Status: 200, Want: []string{`"Oil"`}},
	})
}

func TestAccumulators(t *testing.T) {
	run(t, []scenario{
		{Name: "set as the web app sends it", As: "user1", Method: "PUT", Path: "/api/devices/{d1}/accumulators",
			Body: `{"deviceId":{d1},"totalDistance":1500000,"hours":36000000}`, Status: 204,
			After: func(t *testing.T, e *env, _ *webtest.Response) {
				d, err := e.Core.Fleet.Devices.Get(model.System(), e.IDs["d1"])
				must(t, err)
				r := e.Call(t, "user1", "GET", "/api/positions?id="+itoa(d.PositionID), "")
				if !strings.Contains(r.Body, `"totalDistance":1500000`) || !strings.Contains(r.Body, `"hours":36000000`) {
					t.Errorf("the device's position after the change: %s", r.Body)
				}
			}},
		{Name: "only one counter", As: "user1", Method: "PUT", Path: "/api/devices/{d1}/accumulators",
			Body: `{"deviceId":{d1},"hours":1000}`, Status: 204},
		{Name: "another user's device", As: "user2", Method: "PUT", Path: "/api/devices/{d1}/accumulators",
			Body: `{"deviceId":{d1},"totalDistance":1}`, Status: 404},
		{Name: "a device without positions", As: "limited", Method: "PUT", Path: "/api/devices/{d2}/accumulators",
			Body: `{"deviceId":{d2},"totalDistance":1}`, Status: 400, Want: []string{"no position"}},
		{Name: "the body names another device", As: "user1", Method: "PUT", Path: "/api/devices/{d1}/accumulators",
			Body: `{"deviceId":{d3},"totalDistance":1}`, Status: 400},
		{Name: "a negative distance", As: "user1", Method: "PUT", Path: "/api/devices/{d1}/accumulators",
			Body: `{"deviceId":{d1},"totalDistance":-5}`, Status: 400},
	})
}
