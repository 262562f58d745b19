package dashboard_test

import (
	"net/url"
	"testing"

	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// An odometer typed in miles is kept in km (the spec's unit) and shown
// back in miles; a viewer in km sees the km.
func TestOdometerInTheViewersUnit(t *testing.T) {
	e := newEnv(t)
	inMiles(t, e)
	manager := e.as("manager")
	res := manager.post("/dashboard/maintenance", url.Values{"title": {"Oil"}, "vehicleId": {itoa(e.IDs["van3"])},
		"serviceDate": {e.now.Format("2006-01-02")}, "odometer": {"1000"}})
	if res.Status != 303 {
		t.Fatalf("save: %d %.300s", res.Status, res.Body)
	}
	records, err := e.Core.Office.Admin(e.users["manager"]).ServiceRecords(0, office.ServiceQuery{})
	if err != nil || len(records) != 1 || records[0].Odometer == nil || *records[0].Odometer != 1609.344 {
		t.Fatalf("stored: %+v %v", records, err)
	}
	webtest.Contains(t, "the manager's list", manager.get("/dashboard/maintenance").Body, `<td data-label="Odometer">1000 mi</td>`)
	webtest.Contains(t, "the manager's form", manager.get("/dashboard/maintenance/"+records[0].ID.String()).Body,
		`Odometer (mi)`, `value="1000"`)
	webtest.Contains(t, "the admin's list", e.as("admin").get("/dashboard/maintenance").Body, `<td data-label="Odometer">1609 km</td>`)
}
