package api2_test

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
)

// ownerPathRecords: alice's insurance (file f1, expiring), her service
// record and her ticket; the administrator's own permit and service record
// on alice's car; bob made alice's manager.
func ownerPathRecords(t *testing.T, e *officeEnv) {
	e.file("f1", "alice")
	e.document("ins", "alice", "insurance", days(10), "f1")
	e.record("s1", "alice", "alice's oil change", days(-5))
	e.ticket("t1", "alice", "alice's question")
	admin := e.user("admin")
	_, err := e.Core.Office.CreateDocument(admin, func(d *model.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType = office.DocumentOfVehicle, model.TextID(e.IDs["car"]), "permit"
		d.ExpiryDate = model.Date{Time: days(20)}
		return nil
	})
	e.must(err)
	odometer := 10.0
	_, err = e.Core.Office.CreateServiceRecord(admin, func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate, r.Odometer = "admin's tyres", model.TextID(e.IDs["car"]), model.Date{Time: days(-1)}, &odometer
		return nil
	})
	e.must(err)
	_, err = e.Core.Accounts.UpdateUser(model.System(), e.IDs["bob"], func(u *model.User) error { u.UserLimit = 5; return nil })
	e.must(err)
	e.link("bob", model.KindManagedUser, e.IDs["alice"])
}

// /api2 answers the owner path, as the spec says (G1: the caller's
// documents), for administrators and managers too: the dashboard's
// administrative path does not leak into it. Tickets and files keep their
// rule: administrators answer every ticket as support.
func TestOwnerPathForAdministrators(t *testing.T) {
	runOffice(t, []officeScenario{
		{Name: "an administrator's documents are its own", As: "admin", Method: "GET", Path: "/api2/documents",
			Before: ownerPathRecords, Status: 200, Want: []string{`"total":1`, `"documentType":"permit"`}, Absent: []string{"insurance"}},
		{Name: "an administrator's expiry info is its own", As: "admin", Method: "GET", Path: "/api2/documents/expiry-info",
			Before: ownerPathRecords, Status: 200, Want: []string{`"total":1`, "permit"}, Absent: []string{"insurance"}},
		{Name: "a user's document is not found", As: "admin", Method: "GET", Path: "/api2/documents/{ins}",
			Before: ownerPathRecords, Status: 404, Absent: []string{"insurance"}},
		{Name: "nor changed", As: "admin", Method: "PUT", Path: "/api2/documents/{ins}", Body: `{"notes":"x"}`,
			Before: ownerPathRecords, Status: 404, Unchanged: true},
		{Name: "nor deleted", As: "admin", Method: "DELETE", Path: "/api2/documents/{ins}",
			Before: ownerPathRecords, Status: 404, Unchanged: true},
		{Name: "an administrator's service history is its own", As: "admin", Method: "GET", Path: "/api2/services/history",
			Before: ownerPathRecords, Status: 200, Want: []string{"admin's tyres", `"totalRecords":1`}, Absent: []string{"alice's oil change"}},
		{Name: "a user's service record is not found", As: "admin", Method: "GET", Path: "/api2/services/history/{s1}",
			Before: ownerPathRecords, Status: 404},
		{Name: "nor changed", As: "admin", Method: "PUT", Path: "/api2/services/history/{s1}", Body: `{"title":"x"}`,
			Before: ownerPathRecords, Status: 404, Unchanged: true},
		{Name: "nor deleted", As: "admin", Method: "DELETE", Path: "/api2/services/history/{s1}",
			Before: ownerPathRecords, Status: 404, Unchanged: true},
		{Name: "a manager's documents are its own", As: "bob", Method: "GET", Path: "/api2/documents",
			Before: ownerPathRecords, Status: 200, Want: []string{`"total":0`}, Absent: []string{"insurance"}},
		{Name: "a managed user's document is not found", As: "bob", Method: "GET", Path: "/api2/documents/{ins}",
			Before: ownerPathRecords, Status: 404},
		{Name: "a manager's service history is its own", As: "bob", Method: "GET", Path: "/api2/services/history",
			Before: ownerPathRecords, Status: 200, Absent: []string{"alice's oil change"}},
		{Name: "tickets unchanged: an administrator lists every one", As: "admin", Method: "GET", Path: "/api2/support/tickets",
			Before: ownerPathRecords, Status: 200, Want: []string{"alice's question"}},
		{Name: "tickets unchanged: a manager lists its own", As: "bob", Method: "GET", Path: "/api2/support/tickets",
			Before: ownerPathRecords, Status: 200, Absent: []string{"alice's question"}},
		{Name: "files unchanged: an administrator downloads a user's", As: "admin", Method: "GET", Path: "/api2/files/{f1}",
			Before: ownerPathRecords, Status: 200},
		{Name: "files unchanged: a manager does not", As: "bob", Method: "GET", Path: "/api2/files/{f1}",
			Before: ownerPathRecords, Status: 404},
	})
}
