package dashboard_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/web/internal/sinktest"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// alertForm is an overspeed alert over limit (the poster's unit) for the
// vehicles given.
func alertForm(limit string, vehicles ...int64) url.Values {
	f := url.Values{"type": {model.EventDeviceOverspeed}, "description": {"Too fast"}, "notificators": {model.NotifyWeb},
		"speedLimit": {limit}}
	for _, v := range vehicles {
		f.Add("devices", itoa(v))
	}
	return f
}

// onlyAlert is the one notification the user sees.
func (e *env) onlyAlert(who string) *model.Notification {
	e.t.Helper()
	list, err := e.Core.Fleet.Notifications.List(e.users[who], model.Query{})
	if err != nil || len(list) != 1 {
		e.t.Fatalf("%s's alerts: %+v %v", who, list, err)
	}
	return list[0]
}

func (e *env) alertCount() int {
	e.t.Helper()
	list, err := e.Core.Fleet.Notifications.List(model.System(), model.Query{})
	if err != nil {
		e.t.Fatal(err)
	}
	return len(list)
}

func TestAlertOverspeedLimit(t *testing.T) {
	e := newEnv(t)
	manager := e.as("manager")
	van := e.IDs["van3"]
	if res := manager.post("/dashboard/alerts", alertForm("80", van)); res.Status != 303 {
		t.Fatalf("create: %d %.400s", res.Status, res.Body)
	}
	n := e.onlyAlert("manager")
	if n.Type != model.EventDeviceOverspeed || n.Notificators != model.NotifyWeb || n.Always {
		t.Errorf("stored alert: %+v", n)
	}
	// The limit is kept in knots where the overspeed detection reads it.
	d, err := e.Core.Fleet.Devices.Get(model.System(), van)
	if err != nil || d.Attributes[fleet.SpeedLimitKey] != 43.2 {
		t.Fatalf("van's speedLimit: %v %v", d.Attributes, err)
	}
	if linked, err := e.Core.Fleet.Owners(e.users["manager"], model.KindNotification, n.ID, model.KindDevice); err != nil || len(linked) != 1 || linked[0] != van {
		t.Errorf("linked vehicles: %v %v", linked, err)
	}
	path := "/dashboard/alerts/" + itoa(n.ID)
	webtest.Contains(t, "form in km/h", manager.get(path).Body, `name="speedLimit" value="80"`, "Speed limit (km/h)")
	webtest.Contains(t, "list in km/h", manager.get("/dashboard/alerts").Body, "Speeding", "over 80 km/h", "1 vehicle")

	// An mph user reads it in mph, and a limit typed in mph is converted.
	if _, err := e.Core.Accounts.UpdateUser(e.users["admin"], e.IDs["manager"], func(u *model.User) error {
		u.Attributes = model.Attributes{prefs.SpeedAttribute: prefs.Mph}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	webtest.Contains(t, "form in mph", manager.get(path).Body, `name="speedLimit" value="50"`, "Speed limit (mph)")
	if res := manager.post(path, alertForm("31", van)); res.Status != 303 {
		t.Fatalf("update: %d %.400s", res.Status, res.Body)
	}
	if d, _ := e.Core.Fleet.Devices.Get(model.System(), van); d.Attributes[fleet.SpeedLimitKey] != 26.9 { // 31 mph
		t.Errorf("van's speedLimit after 31 mph: %v", d.Attributes)
	}

	// The detection uses it: 30 knots (34.5 mph) is over, and the event
	// shows in the list in the viewer's unit.
	err = e.Core.Ingest.Ingest(van, []*model.Position{{DeviceID: van, Valid: true, Protocol: "gt06", Latitude: 53.56, Longitude: 9.99,
		Speed: 30, FixTime: e.now, DeviceTime: e.now}})
	if err != nil {
		t.Fatal(err)
	}
	webtest.Contains(t, "events", manager.get("/dashboard/alerts").Body, "Van Three", "speed limit exceeded (35 mph)")
}

func TestAlertRules(t *testing.T) {
	van, truck := "{van3}", "{truck1}"
	cases := []struct {
		name, as string
		form     url.Values
		status   int
		want     string
	}{
		{"unconfigured channel", "manager", url.Values{"type": {model.EventIgnitionOn}, "notificators": {"web", "mail"}, "devices": {van}}, 422, "the mail channel is not configured"},
		{"no limit", "manager", url.Values{"type": {model.EventDeviceOverspeed}, "notificators": {"web"}, "devices": {van}}, 422, "needs a speed limit"},
		{"limit for all as manager", "manager", url.Values{"type": {model.EventDeviceOverspeed}, "notificators": {"web"}, "always": {"1"}, "speedLimit": {"80"}}, 422, "only an administrator"},
		{"limit for all before the server settings", "admin", url.Values{"type": {model.EventDeviceOverspeed}, "notificators": {"web"}, "always": {"1"}, "speedLimit": {"80"}}, 422, "server settings are not set up yet"},
		{"limit without vehicles", "manager", url.Values{"type": {model.EventDeviceOverspeed}, "notificators": {"web"}, "speedLimit": {"80"}}, 422, "choose the vehicles"},
		{"alarm without kinds", "manager", url.Values{"type": {model.EventAlarm}, "notificators": {"web"}, "devices": {van}}, 422, "alarm notification needs"},
		{"unknown type", "manager", url.Values{"type": {"sunrise"}, "notificators": {"web"}}, 422, "type must be one of"},
		{"another's vehicle", "manager", url.Values{"type": {model.EventIgnitionOn}, "notificators": {"web"}, "devices": {truck}}, 404, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			f := url.Values{}
			for k, vs := range c.form {
				for _, v := range vs {
					f.Add(k, strings.NewReplacer("{van3}", itoa(e.IDs["van3"]), "{truck1}", itoa(e.IDs["truck1"])).Replace(v))
				}
			}
			res := e.as(c.as).post("/dashboard/alerts", f)
			if res.Status != c.status || !strings.Contains(res.Body, c.want) {
				t.Errorf("%d %.600s", res.Status, res.Body)
			}
			if n := e.alertCount(); n != 0 {
				t.Errorf("%d alerts stored", n)
			}
			if d, _ := e.Core.Fleet.Devices.Get(model.System(), e.IDs["van3"]); d.Attributes[fleet.SpeedLimitKey] != nil {
				t.Errorf("limit stored: %v", d.Attributes)
			}
		})
	}
}

// A manager may not see or change the administrator's alert (the
// dashboard admits administrators and managers only).
func TestAlertOfAnother(t *testing.T) {
	e := newEnv(t)
	if res := e.as("admin").post("/dashboard/alerts", alertForm("80", e.IDs["truck1"])); res.Status != 303 {
		t.Fatalf("create: %d", res.Status)
	}
	n := e.onlyAlert("admin")
	path := "/dashboard/alerts/" + itoa(n.ID)
	manager := e.as("manager")
	for _, res := range []*webtest.Response{
		manager.get(path),
		manager.post(path, alertForm("10", e.IDs["van3"])),
		manager.post(path+"/delete", nil),
	} {
		if res.Status != 404 {
			t.Errorf("manager on admin's alert: %d", res.Status)
		}
	}
	if strings.Contains(manager.get("/dashboard/alerts").Body, "Too fast") {
		t.Error("manager's list shows admin's alert")
	}
	if got, err := e.Core.Fleet.Notifications.Get(model.System(), n.ID); err != nil || got.Description != "Too fast" {
		t.Errorf("admin's alert after manager: %+v %v", got, err)
	}
	if d, _ := e.Core.Fleet.Devices.Get(model.System(), e.IDs["van3"]); d.Attributes[fleet.SpeedLimitKey] != nil {
		t.Errorf("van's limit set through another's alert: %v", d.Attributes)
	}
	// Its owner deletes it.
	if res := e.as("admin").post(path+"/delete", nil); res.Status != 303 || e.alertCount() != 0 {
		t.Errorf("delete: %d, %d left", res.Status, e.alertCount())
	}
}

func TestAlertAlarmAndAll(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	if _, err := e.Core.Accounts.UpdateServer(e.users["admin"], func(*model.Server) error { return nil }); err != nil {
		t.Fatal(err)
	}
	// An administrator's overspeed alert on every vehicle keeps the limit
	// server-wide.
	f := url.Values{"type": {model.EventDeviceOverspeed}, "notificators": {"web"}, "always": {"1"}, "speedLimit": {"100"}}
	if res := admin.post("/dashboard/alerts", f); res.Status != 303 {
		t.Fatalf("always: %d %.400s", res.Status, res.Body)
	}
	if s, err := e.Core.Accounts.Server(); err != nil || s.Attributes[fleet.SpeedLimitKey] != 54.0 {
		t.Errorf("server's speedLimit: %+v %v", s, err)
	}
	// An alarm alert keeps its kinds.
	f = url.Values{"type": {model.EventAlarm}, "notificators": {"web"}, "alarms": {"sos", "powerCut"}, "devices": {itoa(e.IDs["truck1"])}}
	if res := admin.post("/dashboard/alerts", f); res.Status != 303 {
		t.Fatalf("alarm: %d %.400s", res.Status, res.Body)
	}
	list, _ := e.Core.Fleet.Notifications.List(e.users["admin"], model.Query{})
	if len(list) != 2 || list[1].Attributes["alarms"] != "sos,powerCut" {
		t.Fatalf("alerts: %+v", list)
	}
	webtest.Contains(t, "alarm form", admin.get("/dashboard/alerts/"+itoa(list[1].ID)).Body,
		`value="sos" checked`, `value="powerCut" checked`, "All vehicles I see")
	webtest.Contains(t, "list", admin.get("/dashboard/alerts").Body, "All vehicles", "over 100 km/h", "Alarm")
}

func TestAlertEvents(t *testing.T) {
	// An event of the admin's truck and one of the manager's van.
	events := func(t *testing.T, e *env) {
		for _, ev := range []*model.Event{
			{Type: model.EventAlarm, DeviceID: e.IDs["truck1"], EventTime: e.now.Add(-time.Hour), Attributes: model.Attributes{"alarm": "sos"}},
			{Type: model.EventIgnitionOff, DeviceID: e.IDs["van3"], EventTime: e.now.Add(-2 * time.Hour)},
		} {
			if err := e.Core.Store().Update(func(tx model.Tx) error { return tx.AddEvent(ev) }); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(t, []scenario{
		{Name: "manager sees the van's", As: "manager", Method: "GET", Path: "/dashboard/alerts", Before: events, Status: 200,
			Want: []string{"Van Three", "ignition off"}, Absent: []string{"Truck One", "alarm sos"}},
		{Name: "admin sees both", As: "admin", Method: "GET", Path: "/dashboard/alerts", Before: events, Status: 200,
			Want: []string{`Truck One</td><td data-label="What happened">alarm sos`, "Van Three"}},
		{Name: "fragment", As: "manager", Method: "GET", Path: "/dashboard/alerts?page=1", Before: events, Status: 200,
			Header: map[string]string{"HX-Request": "true", "HX-Target": "event-list"},
			Want:   []string{"ignition off"}, Absent: []string{`<nav class="nav"`}},
		{Name: "bad page", As: "manager", Method: "GET", Path: "/dashboard/alerts?page=0", Status: 400},
	})
}

// A channel the server has configured is offered and kept.
func TestAlertConfiguredChannel(t *testing.T) {
	e := newEnv(t, func(o *app.Options) { o.Channels.Mail = sinktest.SMTP(t, sinktest.NewInbox()) })
	manager := e.as("manager")
	webtest.Contains(t, "form", manager.get("/dashboard/alerts/new").Body, `value="mail"`, "E-mail")
	f := url.Values{"type": {model.EventGeofenceEnter}, "notificators": {"web", "mail"}, "devices": {itoa(e.IDs["van3"])}}
	if res := manager.post("/dashboard/alerts", f); res.Status != 303 {
		t.Fatalf("create: %d %.400s", res.Status, res.Body)
	}
	if n := e.onlyAlert("manager"); n.Notificators != "web,mail" {
		t.Errorf("channels: %q", n.Notificators)
	}
	webtest.Contains(t, "list", manager.get("/dashboard/alerts").Body, "Enters a geofence", "Web (dashboard and app), E-mail")
}
