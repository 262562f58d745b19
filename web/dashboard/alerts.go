package dashboard

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/notify"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/gofiber/fiber/v2"
)

// eventsPerPage is the alerts page's event list page size; the core
// reads pages of it down to MaxEventDepth, so there are maxEventPage.
const (
	eventsPerPage = 20
	maxEventPage  = fleet.MaxEventDepth / eventsPerPage
)

func (d *Dashboard) alertRoutes() []route {
	return []route{
		{"GET", "/alerts", d.alerts},
		{"GET", "/alerts/new", d.alertNew},
		{"POST", "/alerts", d.alertCreate},
		{"GET", "/alerts/:id", d.alertEdit},
		{"POST", "/alerts/:id", d.alertUpdate},
		{"POST", "/alerts/:id/delete", d.alertDelete},
	}
}

// eventLabels name the event types an alert may be for.
var eventLabels = map[string]string{
	model.EventDeviceOnline: "Vehicle online", model.EventDeviceOffline: "Vehicle offline",
	model.EventDeviceUnknown: "Vehicle status unknown", model.EventDeviceMoving: "Vehicle starts moving",
	model.EventDeviceStopped: "Vehicle stops", model.EventDeviceOverspeed: "Speeding",
	model.EventFuelDrop: "Fuel drop", model.EventFuelIncrease: "Fuel increase",
	model.EventIgnitionOn: "Ignition on", model.EventIgnitionOff: "Ignition off", model.EventAlarm: "Alarm",
	model.EventGeofenceEnter: "Enters a geofence", model.EventGeofenceExit: "Leaves a geofence",
	model.EventMaintenance: "Maintenance due", model.EventDriverChanged: "Driver changed",
	model.EventCommandResult: "Command result", model.EventQueuedCommandSent: "Queued command sent",
}

// channelLabels name the notification channels.
var channelLabels = map[string]string{
	model.NotifyWeb: "Web (dashboard and app)", model.NotifyMail: "E-mail", model.NotifySMS: "SMS",
	model.NotifyPush: "Push to phones", model.NotifyTelegram: "Telegram", model.NotifyWebhook: "Webhook",
}

// alarmKinds are the alarm kinds trackers report (Traccar's names), as an
// alarm alert offers them.
var alarmKinds = []option{
	{"sos", "SOS"}, {"general", "General"}, {"overspeed", "Overspeed (tracker)"}, {"lowspeed", "Low speed"},
	{"movement", "Movement"}, {"vibration", "Vibration"}, {"accident", "Accident"}, {"tow", "Towing"},
	{"idle", "Idling"}, {"fallDown", "Fall down"}, {"powerCut", "Power cut"}, {"powerRestored", "Power restored"},
	{"powerOff", "Power off"}, {"powerOn", "Power on"}, {"lowPower", "Low power"}, {"lowBattery", "Low battery"},
	{"door", "Door"}, {"lock", "Lock"}, {"unlock", "Unlock"}, {"geofence", "Geofence (tracker)"}, {"geofenceEnter", "Geofence enter (tracker)"},
	{"geofenceExit", "Geofence exit (tracker)"}, {"gpsAntennaCut", "GPS antenna cut"}, {"jamming", "Jamming"},
	{"tampering", "Tampering"}, {"removing", "Removed"}, {"hardAcceleration", "Hard acceleration"},
	{"hardBraking", "Hard braking"}, {"hardCornering", "Hard cornering"}, {"laneChange", "Lane change"},
	{"fatigueDriving", "Fatigue driving"}, {"highRpm", "High RPM"}, {"temperature", "Temperature"},
	{"parking", "Parking"}, {"fuelLeak", "Fuel leak"}, {"fault", "Fault"}, {"bonnet", "Bonnet open"},
	{"footBrake", "Foot brake"},
}

// alertRow is one alert of the list.
type alertRow struct {
	Alert  *fleet.Alert
	Covers string
}

// eventLine is one event of the latest events, worded for the viewer.
type eventLine struct {
	Time, Vehicle, Text string
	Type                string
}

// alertsView is the alerts page: the viewer's alerts and the latest events.
type alertsView struct {
	Alerts []alertRow
	Events []eventLine
	Page   int
	More   bool
}

func (d *Dashboard) alerts(c *fiber.Ctx) error {
	actor := user(c)
	page := c.QueryInt("page", 1)
	if page < 1 || page > maxEventPage {
		return model.Invalid("page must be between 1 and %d", maxEventPage)
	}
	v := alertsView{Page: page}
	names, err := d.entityNames(actor)
	if err != nil {
		return err
	}
	if err := d.loadEvents(actor, display(c), names, &v); err != nil {
		return err
	}
	if hxTarget(c, "event-list") {
		return render(c, fiber.StatusOK, eventListBody(v))
	}
	list, err := d.core.Fleet.Alerts(actor)
	if err != nil {
		return err
	}
	for _, al := range list {
		v.Alerts = append(v.Alerts, alertRow{Alert: al, Covers: covers(al)})
	}
	return render(c, fiber.StatusOK, alertsPage(d.page(c, "Alerts", "alerts"), v))
}

// loadEvents reads one page of the events of the viewer's vehicles,
// newest first, and whether older ones follow: the first event of the
// next page, read as a page of one (none after the last page the core
// reaches).
func (d *Dashboard) loadEvents(actor *model.User, show prefs.Display, names entityNames, v *alertsView) error {
	q := fleet.EventQuery{From: time.Unix(0, 0), To: time.Now().Add(24 * time.Hour), Desc: true, Page: v.Page, Limit: eventsPerPage}
	events, err := d.core.Fleet.Events(actor, q)
	if err != nil {
		return err
	}
	if len(events) == eventsPerPage && v.Page < maxEventPage {
		q.Page, q.Limit = v.Page*eventsPerPage+1, 1
		next, err := d.core.Fleet.Events(actor, q)
		if err != nil {
			return err
		}
		v.More = len(next) > 0
	}
	fences, err := d.core.Fleet.Geofences.List(actor, model.Query{})
	if err != nil {
		return err
	}
	fenceNames := map[int64]string{}
	for _, g := range fences {
		fenceNames[g.ID] = g.Name
	}
	for _, e := range events {
		text := notify.EventText(e, show)
		if name := fenceNames[e.GeofenceID]; name != "" {
			text += " " + strconv.Quote(name)
		}
		v.Events = append(v.Events, eventLine{Time: show.TimeText(e.EventTime), Vehicle: names.of(office.DocumentOfVehicle, e.DeviceID), Text: text, Type: e.Type})
	}
	return nil
}

// covers says which vehicles an alert is for.
func covers(al *fleet.Alert) string {
	if al.Notification.Always {
		return "All vehicles"
	}
	parts := []string{}
	if n := len(al.Devices); n > 0 {
		parts = append(parts, plural(n, "vehicle", "vehicles"))
	}
	if n := len(al.Groups); n > 0 {
		parts = append(parts, plural(n, "group", "groups"))
	}
	if len(parts) == 0 {
		return "No vehicles yet"
	}
	return strings.Join(parts, ", ")
}

// channelsText lists an alert's channels by their labels.
func channelsText(notificators string) string {
	var out []string
	for _, c := range strings.Split(notificators, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, labelOf(channelLabels, c))
		}
	}
	return strings.Join(out, ", ")
}

func labelOf(labels map[string]string, key string) string {
	if l, ok := labels[key]; ok {
		return l
	}
	return key
}

// alertForm is the alert create/edit form.
type alertForm struct {
	Alert *fleet.Alert
	// SpeedLimit is the limit in the viewer's unit, as typed or read back.
	SpeedLimit string
	Types      []option
	Channels   []option // the configured ones, with any the alert still names
	Alarms     []option // alarmKinds, with any other the alert names
	Vehicles   []option
	Groups     []option
	Problem    string
}

func (d *Dashboard) alertNew(c *fiber.Ctx) error {
	al := &fleet.Alert{Notification: &model.Notification{Type: model.EventDeviceOverspeed, Notificators: model.NotifyWeb}}
	return d.renderAlertForm(c, fiber.StatusOK, al, "", nil)
}

func (d *Dashboard) alertEdit(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	al, err := d.core.Fleet.Alert(user(c), id)
	if err != nil {
		return err
	}
	limit := ""
	if al.SpeedLimit != nil {
		limit = strconv.FormatFloat(display(c).SpeedValue(*al.SpeedLimit), 'f', 0, 64)
	}
	return d.renderAlertForm(c, fiber.StatusOK, al, limit, nil)
}

func (d *Dashboard) renderAlertForm(c *fiber.Ctx, status int, al *fleet.Alert, limit string, problem error) error {
	actor := user(c)
	f := alertForm{Alert: al, SpeedLimit: limit, Problem: problemText(problem)}
	for _, t := range model.EventTypes {
		f.Types = append(f.Types, option{t, eventLabel(t)})
	}
	for _, ch := range d.core.Notify.Notificators() {
		f.Channels = append(f.Channels, option{ch, labelOf(channelLabels, ch)})
	}
	f.Channels = withStored(f.Channels, al.Notification.Notificators, channelLabels)
	alarms, _ := al.Notification.Attributes["alarms"].(string)
	f.Alarms = withStored(slices.Clone(alarmKinds), alarms, nil)
	names, err := d.entityNames(actor)
	if err != nil {
		return err
	}
	f.Vehicles = names.options(office.DocumentOfVehicle, "")[1:]
	groups, err := d.core.Fleet.Groups.List(actor, model.Query{})
	if err != nil {
		return err
	}
	for _, g := range groups {
		f.Groups = append(f.Groups, option{itoa(g.ID), g.Name})
	}
	title := "New alert"
	if al.Notification.ID != 0 {
		title = eventLabel(al.Notification.Type) + " alert"
	}
	return render(c, status, alertPage(d.page(c, title, "alerts"), f))
}

func (d *Dashboard) alertCreate(c *fiber.Ctx) error { return d.saveAlert(c, 0) }

func (d *Dashboard) alertUpdate(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if _, err := d.core.Fleet.Notifications.Get(user(c), id); err != nil {
		return err // another's alert is not found, never a form to retry
	}
	return d.saveAlert(c, id)
}

// saveAlert creates (id 0) or changes an alert from the form; the speed
// limit is typed in the viewer's unit and kept in knots.
func (d *Dashboard) saveAlert(c *fiber.Ctx, id int64) error {
	r := &formReader{c: c}
	n := &model.Notification{Type: r.text("type"), Description: r.text("description"), Always: r.text("always") != "",
		Notificators: strings.Join(r.values("notificators"), ","), Attributes: model.Attributes{"alarms": strings.Join(r.values("alarms"), ",")}}
	n.ID = id
	al := &fleet.Alert{Notification: n, Devices: r.ids("devices"), Groups: r.ids("groups")}
	typed := r.text("speedLimit")
	if limit := r.float("speedLimit", "Speed limit"); limit != nil && n.Type == model.EventDeviceOverspeed {
		knots := display(c).KnotsFrom(*limit)
		al.SpeedLimit = &knots
	}
	err := r.err
	if err == nil {
		_, err = d.core.Fleet.SaveAlert(user(c), id, *al, d.core.Notify.Notificators())
	}
	if err != nil {
		return d.formFailed(c, err, func(status int) error { return d.renderAlertForm(c, status, al, typed, err) })
	}
	return redirect(c, Prefix+"/alerts")
}

func (d *Dashboard) alertDelete(c *fiber.Ctx) error {
	id, err := httpx.ParamID(c)
	if err != nil {
		return err
	}
	if err := d.core.Fleet.Notifications.Delete(user(c), id); err != nil {
		return err
	}
	return redirect(c, Prefix+"/alerts")
}

// withStored adds to offered each value of the comma-separated stored
// that it lacks (a channel no longer configured, a vendor's alarm kind),
// named by labels or as stored, so the form shows it ticked and saving
// keeps it.
func withStored(offered []option, stored string, labels map[string]string) []option {
	for _, v := range strings.Split(stored, ",") {
		if v = strings.TrimSpace(v); v != "" && !slices.ContainsFunc(offered, func(o option) bool { return o.Value == v }) {
			offered = append(offered, option{v, labelOf(labels, v)})
		}
	}
	return offered
}

// alertURL is where an alert is edited.
func alertURL(n *model.Notification) string { return Prefix + "/alerts/" + itoa(n.ID) }

func alertAction(n *model.Notification) string {
	if n.ID == 0 {
		return Prefix + "/alerts"
	}
	return alertURL(n)
}

// hasChannel, hasAlarm and linked tell the form's checkboxes what is on.
func hasChannel(n *model.Notification, ch string) bool { return listed(n.Notificators, ch) }

func hasAlarm(n *model.Notification, kind string) bool {
	alarms, _ := n.Attributes["alarms"].(string)
	return listed(alarms, kind)
}

// listed: is v among the comma-separated list (spaces around ignored)?
func listed(list, v string) bool {
	return slices.ContainsFunc(strings.Split(list, ","), func(s string) bool { return strings.TrimSpace(s) == v })
}

func linked(ids []int64, id string) bool { return slices.Contains(ids, parseID(id)) }

func parseID(s string) int64 {
	id, _ := strconv.ParseInt(s, 10, 64) // the options' values are ids we wrote
	return id
}

func eventPageURL(page int) string { return Prefix + "/alerts?" + queryString("page", itoa(page)) }
