package dashboard

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/app/ops"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/gofiber/fiber/v2"
)

// overviewSoon is how far ahead the overview looks for expiring documents.
const overviewSoon = 30

// overviewListLen bounds the overview's short lists.
const overviewListLen = 5

// overviewView is the overview page's numbers and short lists.
type overviewView struct {
	Fleet       fleetView
	OpenTickets int
	Tickets     []*model.Ticket
	Expiring    []docDue
	Expired     int
	Services    []serviceRow
	YearSpend   float64
	Year        int
	Alarms      []alarmRow
	// Due are the first vehicles overdue or due soon for service, of
	// DueCount, Overdue of them overdue.
	Due               []office.ServiceDue
	DueCount, Overdue int
	// Disk is the data disk at a glance, for administrators; nil for
	// others or when the free space cannot be read.
	Disk *ops.Outlook
}

// alarmRow is one of the latest alarms with its device's name.
type alarmRow struct {
	Time, Device, Alarm string
	DeviceID            int64
}

// alarmWindow is how far back the overview looks for alarms.
const alarmWindow = 7 * 24 * time.Hour

// docDue is a document with the days left until it expires.
type docDue struct {
	Doc    *model.Document
	Days   int
	Entity string
}

// openTicket reports whether a ticket still needs support's attention.
func openTicket(t *model.Ticket) bool {
	return t.Status == office.TicketOpen || t.Status == office.TicketPending || t.Status == office.TicketInProgress
}

func (d *Dashboard) overview(c *fiber.Ctx) error {
	actor := user(c)
	fleet, err := d.loadFleet(actor, "", "")
	if err != nil {
		return err
	}
	v := overviewView{Fleet: fleet, Year: time.Now().UTC().Year()}
	if actor.Administrator {
		if o, err := d.core.Ops.Outlook(); err == nil {
			v.Disk = &o
		}
	}
	officeAdmin := d.core.Office.Admin(actor)
	tickets, err := officeAdmin.Tickets(0, office.TicketQuery{})
	if err != nil {
		return err
	}
	for _, t := range tickets {
		if openTicket(t) {
			v.OpenTickets++
			if len(v.Tickets) < overviewListLen {
				v.Tickets = append(v.Tickets, t)
			}
		}
	}
	names, err := d.entityNamesOf(actor, fleet.Devices)
	if err != nil {
		return err
	}
	if err := d.overviewDocuments(officeAdmin, names, &v); err != nil {
		return err
	}
	if err := d.overviewServices(officeAdmin, names, &v); err != nil {
		return err
	}
	if err := d.overviewAlarms(actor, display(c), &v); err != nil {
		return err
	}
	if err := d.overviewServicesDue(officeAdmin, &v); err != nil {
		return err
	}
	return render(c, fiber.StatusOK, overviewPage(d.page(c, "Overview", "overview"), v))
}

func (d *Dashboard) overviewDocuments(officeAdmin office.Admin, names entityNames, v *overviewView) error {
	docs, err := officeAdmin.ExpiringDocuments() // soonest first
	if err != nil {
		return err
	}
	for _, doc := range docs {
		switch days := d.core.Office.DaysUntil(doc.ExpiryDate); {
		case days < 0:
			v.Expired++
		case days <= overviewSoon:
			v.Expiring = append(v.Expiring, docDue{Doc: doc, Days: days, Entity: names.of(doc.DocumentOf, int64(doc.EntityID))})
		}
	}
	return nil
}

func (d *Dashboard) overviewServices(officeAdmin office.Admin, names entityNames, v *overviewView) error {
	records, err := officeAdmin.ServiceRecords(0, office.ServiceQuery{}) // latest first
	if err != nil {
		return err
	}
	for _, r := range records {
		if r.ServiceDate.Year() == v.Year && r.Expenditure != nil {
			v.YearSpend += *r.Expenditure
		}
	}
	for _, r := range records[:min(len(records), overviewListLen)] {
		v.Services = append(v.Services, serviceRow{Record: r, Vehicle: names.of(office.DocumentOfVehicle, int64(r.VehicleID))})
	}
	return nil
}

// entityNames are the names of the vehicles and drivers the actor sees,
// which documents and service records refer to by id.
type entityNames map[string]map[int64]string

func (n entityNames) of(kind string, id int64) string {
	if name, ok := n[kind][id]; ok {
		return name
	}
	return "#" + itoa(id)
}

func (d *Dashboard) entityNames(actor *model.User) (entityNames, error) {
	devices, err := d.core.Fleet.Devices.List(actor, model.Query{})
	if err != nil {
		return nil, err
	}
	return d.entityNamesOf(actor, devices)
}

// entityNamesOf is entityNames for a page that has read the devices.
func (d *Dashboard) entityNamesOf(actor *model.User, devices []*model.Device) (entityNames, error) {
	drivers, err := d.core.Fleet.Drivers.List(actor, model.Query{})
	if err != nil {
		return nil, err
	}
	n := entityNames{office.DocumentOfVehicle: {}, office.DocumentOfDriver: {}}
	for _, dev := range devices {
		n[office.DocumentOfVehicle][dev.ID] = dev.Name
	}
	for _, dr := range drivers {
		n[office.DocumentOfDriver][dr.ID] = dr.Name
	}
	return n, nil
}

// sortedEntities lists one kind's entities by name for a select box.
func (n entityNames) options(kind, none string) []option {
	out := []option{{"", none}}
	for id, name := range n[kind] {
		out = append(out, option{itoa(id), name})
	}
	slices.SortFunc(out[1:], func(a, b option) int { return compareFold(a.Label, b.Label) })
	return out
}

func (d *Dashboard) overviewAlarms(actor *model.User, show prefs.Display, v *overviewView) error {
	now := time.Now()
	events, err := d.core.Fleet.ExtendedEvents(actor, fleet.EventQuery{Types: []string{model.EventAlarm},
		From: now.Add(-alarmWindow), To: now, Desc: true, Page: 1, Limit: overviewListLen})
	if err != nil {
		return err
	}
	names := map[int64]string{}
	for _, r := range v.Fleet.Rows {
		names[r.Device.ID] = r.Device.Name
	}
	for _, e := range events {
		var attrs struct {
			Alarm string `json:"alarm"`
		}
		_ = json.Unmarshal([]byte(e.Attributes), &attrs) // an unreadable kind shows as a plain "alarm"
		row := alarmRow{Time: e.EventTime, Device: names[e.DeviceID], Alarm: attrs.Alarm, DeviceID: e.DeviceID}
		if t, err := time.Parse(fleet.ExtendedTimeLayout, e.EventTime); err == nil {
			row.Time = show.TimeText(t)
		}
		if row.Alarm == "" {
			row.Alarm = "alarm"
		}
		v.Alarms = append(v.Alarms, row)
	}
	return nil
}
