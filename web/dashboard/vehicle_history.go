package dashboard

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/app/reports"
)

// vehicleHistory is what the reports core says about the range: trips,
// stops and events (latest first, at most maxVehicleEvents). Problem is
// why there is none when the viewer may not run reports.
type vehicleHistory struct {
	Trips   []reports.Trip
	Stops   []reports.Stop
	Events  []eventRow
	More    int // events left out
	Problem string
}

// maxVehicleEvents bounds the events list; the reports page has them all.
const maxVehicleEvents = 200

// loadHistory asks the reports core, as /api/reports/trips, /stops and
// /events do, for the device's trips, stops and events in the range. A
// report the viewer may not run (reports disabled, a span over the
// server's limit) leaves the page with the reason, not an error page.
func (d *Dashboard) loadHistory(actor *model.User, dev *model.Device, rng dayRange) (vehicleHistory, error) {
	var h vehicleHistory
	r, err := d.core.Fleet.Report(actor, fleet.ReportQuery{DeviceIDs: []int64{dev.ID}, From: rng.Start, To: rng.End})
	if c := model.ClassOf(err); c == model.ClassForbidden || c == model.ClassInvalid {
		h.Problem = problemText(err)
		return h, nil
	}
	if err != nil {
		return h, err
	}
	dev = r.Devices[0]
	if h.Trips, h.Stops, err = r.Motion(dev); err != nil {
		return h, err
	}
	err = r.Events(dev, func(e *model.Event) error {
		h.Events = append(h.Events, eventRow{Device: dev.Name, Event: e, Detail: eventDetail(r, e)})
		return nil
	})
	slices.Reverse(h.Events)
	if len(h.Events) > maxVehicleEvents {
		h.More = len(h.Events) - maxVehicleEvents
		h.Events = h.Events[:maxVehicleEvents]
	}
	return h, err
}

// addressText is an address, or a dash while none is known.
func addressText(address *string) string {
	if address != nil && *address != "" {
		return *address
	}
	return "–"
}

// attrSpec is a position attribute the page shows among the vehicle's
// key facts, and how to read it (vehicle.js formats live values alike).
type attrSpec struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Kind  string `json:"kind"` // onoff, percent, volts or distance
}

// keyAttributes are the attributes the page shows when a position has
// them (Traccar's names).
var keyAttributes = []attrSpec{
	{"ignition", "Ignition", "onoff"},
	{"motion", "Moving", "onoff"},
	{"batteryLevel", "Battery", "percent"},
	{"battery", "Battery voltage", "volts"},
	{"power", "External power", "volts"},
	{"odometer", "Odometer", "distance"},
	{"totalDistance", "Total distance", "distance"},
}

// keyFact is one key attribute of a position, formatted.
type keyFact struct {
	Spec  attrSpec
	Value string
}

// keyFacts are the key attributes position p has, in the viewer's units.
func keyFacts(show prefs.Display, p *model.Position) []keyFact {
	var out []keyFact
	for _, spec := range keyAttributes {
		v, ok := p.Attributes[spec.Key]
		if !ok || v == nil {
			continue
		}
		out = append(out, keyFact{Spec: spec, Value: attrText(show, spec.Kind, v)})
	}
	return out
}

func attrText(show prefs.Display, kind string, v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "on"
		}
		return "off"
	case float64:
		switch kind {
		case "percent":
			return fmt.Sprintf("%.0f %%", x)
		case "volts":
			return fmt.Sprintf("%.1f V", x)
		case "distance":
			return show.DistanceText(x)
		}
		return fmt.Sprintf("%g", x)
	}
	return fmt.Sprint(v)
}

// vehicleOffice is the vehicle's documents (soonest expiry first), its
// service history (latest first) and when it is next due: the office
// records in the viewer's reach (the administrative path), as the
// documents and maintenance pages show them.
type vehicleOffice struct {
	Docs     []docDue
	Services []*model.ServiceRecord
	Due      *office.ServiceDue
}

func (d *Dashboard) loadVehicleOffice(actor *model.User, deviceID int64) (vehicleOffice, error) {
	var v vehicleOffice
	records := d.core.Office.Admin(actor)
	docs, err := records.Documents(0)
	if err != nil {
		return v, err
	}
	for _, doc := range docs {
		if doc.DocumentOf == office.DocumentOfVehicle && int64(doc.EntityID) == deviceID {
			due := docDue{Doc: doc}
			if !doc.ExpiryDate.IsZero() {
				due.Days = d.core.Office.DaysUntil(doc.ExpiryDate)
			}
			v.Docs = append(v.Docs, due)
		}
	}
	slices.SortStableFunc(v.Docs, func(a, b docDue) int {
		if az, bz := a.Doc.ExpiryDate.IsZero(), b.Doc.ExpiryDate.IsZero(); az != bz {
			return cmp.Compare(btoi(az), btoi(bz)) // no expiry last
		}
		return a.Doc.ExpiryDate.Compare(b.Doc.ExpiryDate.Time)
	})
	if v.Services, err = records.ServiceRecords(0, office.ServiceQuery{VehicleID: deviceID}); err != nil {
		return v, err
	}
	due, err := records.ServiceDueOf(deviceID, time.Now())
	if err != nil {
		return v, err
	}
	v.Due = &due
	return v, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
