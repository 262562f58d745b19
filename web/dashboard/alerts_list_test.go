package dashboard_test

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// alarmRow is an event row of the alerts page's list, by its alarm kind.
var alarmRow = regexp.MustCompile(`alarm (kind\d\d)`)

// The event list pages through every event exactly once, newest first,
// 20 a page, down to the deepest page the core reads.
func TestAlertEventPages(t *testing.T) {
	e := newEnv(t)
	var want []string
	// Newer than the seeded vehicles' events (they come after, on page 3).
	for i := range 45 {
		kind := fmt.Sprintf("kind%02d", i)
		want = append(want, kind)
		ev := &model.Event{Type: model.EventAlarm, DeviceID: e.IDs["truck1"], EventTime: e.now.Add(time.Hour - time.Duration(i)*time.Minute),
			Attributes: model.Attributes{"alarm": kind}}
		if err := e.Core.Store().Update(func(tx model.Tx) error { return tx.AddEvent(ev) }); err != nil {
			t.Fatal(err)
		}
	}
	admin := e.as("admin")
	var shown []string
	for _, c := range []struct {
		page  int
		rows  int
		older bool
	}{{1, 20, true}, {2, 20, true}, {3, 5, false}} {
		res := admin.get("/dashboard/alerts?page=" + strconv.Itoa(c.page))
		var rows []string
		for _, m := range alarmRow.FindAllStringSubmatch(res.Body, -1) {
			rows = append(rows, m[1])
		}
		if res.Status != 200 || len(rows) != c.rows || strings.Contains(res.Body, ">Older<") != c.older {
			t.Errorf("page %d: %d, %d rows %v, older link %v", c.page, res.Status, len(rows), rows, !c.older)
		}
		shown = append(shown, rows...)
	}
	if !slices.Equal(shown, want) {
		t.Errorf("pages 1-3 show\n%v\nwant\n%v", shown, want)
	}
	for page, status := range map[string]int{"480": 200, "500": 200, "501": 400, "0": 400} {
		if res := admin.get("/dashboard/alerts?page=" + page); res.Status != status {
			t.Errorf("page %s: %d, want %d", page, res.Status, status)
		}
	}
}

// ticked is what a browser submits of a page's ticked checkboxes.
var ticked = regexp.MustCompile(`<input type="checkbox" name="(\w+)" value="([^"]*)" checked>`)

// Alarm kinds the form does not list (a vendor's, or made through the
// API) show ticked and survive a save from the dashboard, as do kinds
// stored with spaces around them.
func TestAlertKeepsUnlistedAlarmKinds(t *testing.T) {
	for _, stored := range []string{"sos,bonnet,someVendorKind", "sos, bonnet , someVendorKind"} {
		t.Run(stored, func(t *testing.T) {
			e := newEnv(t)
			n, err := e.Core.Fleet.Notifications.Create(e.users["manager"], func(n *model.Notification) error {
				n.Type, n.Notificators, n.Description = model.EventAlarm, model.NotifyWeb, "Alarms"
				n.Attributes = model.Attributes{"alarms": stored}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			manager := e.as("manager")
			path := "/dashboard/alerts/" + itoa(n.ID)
			form := url.Values{"type": {model.EventAlarm}, "description": {"Alarms, renamed"}}
			for _, m := range ticked.FindAllStringSubmatch(manager.get(path).Body, -1) {
				form.Add(m[1], m[2])
			}
			if got := form["alarms"]; !slices.Equal(got, []string{"sos", "bonnet", "someVendorKind"}) {
				t.Errorf("ticked alarm kinds: %v", got)
			}
			if res := manager.post(path, form); res.Status != 303 {
				t.Fatalf("save: %d %.400s", res.Status, res.Body)
			}
			if got := e.onlyAlert("manager"); got.Attributes["alarms"] != "sos,bonnet,someVendorKind" || got.Description != "Alarms, renamed" {
				t.Errorf("after save: %q %q", got.Attributes["alarms"], got.Description)
			}
		})
	}
}

// coverBoth gives the administrator and the manager an alert and a
// geofence each, all linked to the manager's van and the administrator's
// truck.
func coverBoth(t *testing.T, e *env) {
	var links []model.Permission
	for _, owner := range []*model.User{e.users["admin"], e.users["manager"]} {
		n, err := e.Core.Fleet.Notifications.Create(owner, func(n *model.Notification) error {
			n.Type, n.Notificators, n.Description = model.EventIgnitionOn, model.NotifyWeb, "alert of "+owner.Email
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		g, err := e.Core.Fleet.Geofences.Create(owner, func(g *model.Geofence) error {
			g.Name, g.Area = "yard of "+owner.Email, "CIRCLE (52.5 13.4, 100)"
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []int64{e.IDs["van3"], e.IDs["truck1"]} {
			links = append(links,
				model.Permission{OwnerKind: model.KindDevice, OwnerID: d, PropKind: model.KindNotification, PropID: n.ID},
				model.Permission{OwnerKind: model.KindDevice, OwnerID: d, PropKind: model.KindGeofence, PropID: g.ID})
		}
	}
	if err := e.Core.Fleet.Link(e.users["admin"], links...); err != nil {
		t.Fatal(err)
	}
}

// The list pages show a manager only its alerts and geofences and count
// only the vehicles it sees among those each covers; an administrator
// sees every one and every vehicle.
func TestAlertAndGeofenceListsOfViewer(t *testing.T) {
	row := func(who string, vehicles int) string {
		return `yard of ` + who + `</a></td><td data-label="Shape">circle, radius 0.10 km</td><td data-label="Vehicles">` + strconv.Itoa(vehicles) + `<`
	}
	run(t, []scenario{
		{Name: "manager's alerts", As: "manager", Method: "GET", Path: "/dashboard/alerts", Before: coverBoth, Status: 200,
			Want: []string{"alert of manager@example.com", "1 vehicle ·"}, Absent: []string{"alert of admin@", "2 vehicles"}},
		{Name: "admin's alerts", As: "admin", Method: "GET", Path: "/dashboard/alerts", Before: coverBoth, Status: 200,
			Want: []string{"alert of admin@example.com</span></span> <span class=\"muted small\">2 vehicles ·", "alert of manager@example.com</span></span> <span class=\"muted small\">2 vehicles ·"}},
		{Name: "manager's geofences", As: "manager", Method: "GET", Path: "/dashboard/geofences", Before: coverBoth, Status: 200,
			Want: []string{row("manager@example.com", 1)}, Absent: []string{"yard of admin@"}},
		{Name: "admin's geofences", As: "admin", Method: "GET", Path: "/dashboard/geofences", Before: coverBoth, Status: 200,
			Want: []string{row("admin@example.com", 2), row("manager@example.com", 2)}},
	})
}
