package dashboard_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// filedByTwo: driver1 (managed by manager, given truck1) filed a ticket, a
// document with a scan and a service record about truck1; the
// administrator filed its own about van2. Their ids are named d1ticket,
// d1doc, d1scan, d1service, adminticket, admindoc and adminservice.
func filedByTwo(t *testing.T, e *env) {
	e.ok(e.Core.Fleet.Link(e.users["admin"], model.Permission{OwnerKind: model.KindUser, OwnerID: e.users["driver1"].ID,
		PropKind: model.KindDevice, PropID: e.devices["truck1"].ID}))
	e.fileOffice("driver1", "truck1", "Driver", "d1", pdf)
	e.fileOffice("admin", "van2", "Admin", "admin", "")
}

// fileOffice files a ticket "<title> ticket", a document "<title> permit"
// (with a scan when scan is not empty) and a service record "<title> oil"
// of who about vehicle, naming their ids with key.
func (e *env) fileOffice(who, vehicle, title, key, scan string) {
	e.t.Helper()
	u, vehicleID := e.users[who], model.TextID(e.devices[vehicle].ID)
	e.IDs[key+"ticket"] = int64(e.addTicket(who, title+" ticket", "tracking").ID)
	var files []model.TextID
	if scan != "" {
		f, err := e.Core.Office.UploadFile(u, title+"-scan.pdf", "application/pdf", -1, strings.NewReader(scan))
		e.ok(err)
		files, e.IDs[key+"scan"] = []model.TextID{f.ID}, int64(f.ID)
	}
	doc, err := e.Core.Office.CreateDocument(u, func(d *model.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType, d.FileIDs = office.DocumentOfVehicle, vehicleID, title+" permit", files
		d.ExpiryDate = model.Date{Time: e.now.AddDate(0, 0, 10)}
		return nil
	})
	e.ok(err)
	e.IDs[key+"doc"] = int64(doc.ID)
	odometer, cost := 1000.0, 120.0
	rec, err := e.Core.Office.CreateServiceRecord(u, func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate = title+" oil", vehicleID, model.Date{Time: e.now.AddDate(0, 0, -2)}
		r.Odometer, r.Expenditure = &odometer, &cost
		return nil
	})
	e.ok(err)
	e.IDs[key+"service"] = int64(rec.ID)
}

// The office pages show administrators every user's records, with whose
// each is, and managers their own and their managed users'; a record out
// of reach is 404.
func TestOfficeAcrossUsers(t *testing.T) {
	get := func(name, as, path string, want, absent []string) scenario {
		return scenario{Name: name, As: as, Method: "GET", Path: path, Before: filedByTwo, Status: 200, Want: want, Absent: absent}
	}
	missing := func(name, as, path string) scenario {
		return scenario{Name: name, As: as, Method: "GET", Path: path, Before: filedByTwo, Status: 404,
			Absent: []string{"Admin permit", "Admin oil", "Admin ticket"}}
	}
	run(t, []scenario{
		get("admin: every user's tickets", "admin", "/dashboard/tickets", []string{"Driver ticket</a>", "Admin ticket</a>",
			`data-label="Owner">Dora Driver<`, `data-label="Owner">Ada Admin<`, `<option value="{driver1}">Dora Driver</option>`}, nil),
		get("admin: tickets of one owner", "admin", "/dashboard/tickets?owner={driver1}", []string{"Driver ticket</a>"},
			[]string{"Admin ticket</a>"}),
		get("admin: every user's documents", "admin", "/dashboard/documents", []string{"Driver permit</a>", "Admin permit</a>",
			`data-label="Owner">Dora Driver<`}, nil),
		get("admin: documents of one owner", "admin", "/dashboard/documents?owner={admin}", []string{"Admin permit</a>"},
			[]string{"Driver permit</a>"}),
		get("admin: every user's service records", "admin", "/dashboard/maintenance", []string{"Driver oil</a>", "Admin oil</a>",
			`data-label="Owner">Dora Driver<`, "240.00"}, nil),
		get("admin: opens driver1's document", "admin", "/dashboard/documents/{d1doc}", []string{`value="Driver permit"`,
			"Driver-scan.pdf", "Filed by <strong>Dora Driver</strong>", "Delete document"}, nil),
		get("admin: opens driver1's ticket", "admin", "/dashboard/tickets/{d1ticket}", []string{"Driver ticket", "Send response",
			`<option value="in_progress">in progress</option>`}, nil),
		get("admin: opens driver1's service record", "admin", "/dashboard/maintenance/{d1service}", []string{`value="Driver oil"`,
			"Filed by <strong>Dora Driver</strong>"}, nil),
		get("admin: its own record says nothing of an owner", "admin", "/dashboard/documents/{admindoc}", []string{`value="Admin permit"`},
			[]string{"Filed by"}),
		get("admin: overview counts every user's", "admin", "/dashboard/", []string{"Driver ticket", "Admin ticket",
			"Driver permit · Truck One", "Admin permit · Van Two"}, nil),

		get("manager: the managed user's tickets", "manager", "/dashboard/tickets", []string{"Driver ticket</a>"},
			[]string{"Admin ticket", "Ada Admin"}),
		get("manager: the managed user's documents", "manager", "/dashboard/documents", []string{"Driver permit</a>"},
			[]string{"Admin permit"}),
		get("manager: the managed user's service records", "manager", "/dashboard/maintenance", []string{"Driver oil</a>"},
			[]string{"Admin oil"}),
		get("manager: opens driver1's ticket as support", "manager", "/dashboard/tickets/{d1ticket}", []string{"Driver ticket",
			`<option value="in_progress">in progress</option>`}, nil),
		get("manager: opens driver1's document", "manager", "/dashboard/documents/{d1doc}", []string{`value="Driver permit"`}, nil),
		get("manager: overview counts the managed user's", "manager", "/dashboard/", []string{"Driver ticket", "Driver permit · Truck One"},
			[]string{"Admin ticket", "Admin permit"}),
		missing("manager: the administrator's ticket", "manager", "/dashboard/tickets/{adminticket}"),
		missing("manager: the administrator's document", "manager", "/dashboard/documents/{admindoc}"),
		missing("manager: the administrator's service record", "manager", "/dashboard/maintenance/{adminservice}"),
		missing("manager: filtering by the administrator", "manager", "/dashboard/documents?owner={admin}"),
		{Name: "a bad owner filter", As: "admin", Method: "GET", Path: "/dashboard/maintenance?owner=x", Before: filedByTwo, Status: 400},
	})
}

// Administrators manage driver1's records from the dashboard: answer and
// move its ticket, download its scan, edit its service record (which stays
// driver1's), delete its document; a manager cannot touch the
// administrator's.
func TestOfficeManageAcrossUsers(t *testing.T) {
	e := newEnv(t)
	filedByTwo(t, e)
	admin, manager := e.as("admin"), e.as("manager")
	path := func(format, key string) string { return strings.Replace(format, "{}", itoa(e.IDs[key]), 1) }

	// The ticket: a response and a status change, seen by driver1 through the core's owner path.
	if res := admin.post(path("/dashboard/tickets/{}/responses", "d1ticket"), url.Values{"message": {"Looking into it."}}); res.Status != 303 {
		t.Fatalf("respond: %d %.300s", res.Status, res.Body)
	}
	if res := admin.post(path("/dashboard/tickets/{}/status", "d1ticket"), url.Values{"status": {office.TicketInProgress}}); res.Status != 303 {
		t.Fatalf("status: %d %.300s", res.Status, res.Body)
	}
	driver := e.users["driver1"]
	tk, err := e.Core.Office.Ticket(driver, e.IDs["d1ticket"])
	responses, _, _ := e.Core.Office.TicketResponses(driver, e.IDs["d1ticket"], model.Query{})
	if err != nil || tk.Status != office.TicketInProgress || len(responses) != 1 || responses[0].Message != "Looking into it." {
		t.Fatalf("driver1's ticket: %+v %v, responses %+v", tk, err, responses)
	}

	// The scan downloads to the administrator and the manager.
	for who, c := range map[string]*client{"admin": admin, "manager": manager} {
		if res := c.get(path("/dashboard/files/{}", "d1scan")); res.Status != 200 || res.Body != pdf {
			t.Errorf("%s downloads driver1's scan: %d", who, res.Status)
		}
	}

	// The service record: edited, still driver1's.
	form := url.Values{"title": {"Driver oil and filter"}, "vehicleId": {itoa(e.devices["truck1"].ID)}, "serviceDate": {e.now.Format("2006-01-02")},
		"odometer": {"1100"}}
	if res := admin.post(path("/dashboard/maintenance/{}", "d1service"), form); res.Status != 303 {
		t.Fatalf("edit service: %d %.300s", res.Status, res.Body)
	}
	rec, err := e.Core.Office.ServiceRecord(driver, e.IDs["d1service"])
	if err != nil || rec.Title != "Driver oil and filter" || rec.Owner() != driver.ID {
		t.Fatalf("driver1's record: %+v %v", rec, err)
	}
	// A vehicle driver1 does not see is refused, with the form kept.
	form.Set("vehicleId", itoa(e.devices["van2"].ID))
	if res := admin.post(path("/dashboard/maintenance/{}", "d1service"), form); res.Status != 422 || !strings.Contains(res.Body, "Dora Driver can see") {
		t.Errorf("edit to a vehicle driver1 does not see: %d %.300s", res.Status, res.Body)
	}

	// Out of reach: the manager's changes to the administrator's records are 404 and change nothing.
	for _, p := range []string{path("/dashboard/documents/{}/delete", "admindoc"), path("/dashboard/maintenance/{}/delete", "adminservice"),
		path("/dashboard/tickets/{}/status", "adminticket")} {
		if res := manager.post(p, url.Values{"status": {office.TicketClosed}}); res.Status != 404 {
			t.Errorf("manager POST %s: %d", p, res.Status)
		}
	}
	if res := manager.post(path("/dashboard/tickets/{}/responses", "adminticket"), url.Values{"message": {"hi"}}); res.Status != 404 {
		t.Errorf("manager responds to the administrator's ticket: %d", res.Status)
	}
	admins, _, _ := e.Core.Office.Documents(e.users["admin"], model.Query{})
	adminTicket, _ := e.Core.Office.Ticket(e.users["admin"], e.IDs["adminticket"])
	if len(admins) != 1 || adminTicket.Status != office.TicketOpen {
		t.Errorf("the administrator's records after the manager's tries: %d documents, ticket %s", len(admins), adminTicket.Status)
	}

	// The document: deleted by the administrator, with its scan.
	if res := admin.post(path("/dashboard/documents/{}/delete", "d1doc"), nil); res.Status != 303 {
		t.Fatalf("delete document: %d", res.Status)
	}
	if _, err := e.Core.Office.Document(driver, e.IDs["d1doc"]); model.ClassOf(err) != model.ClassNotFound {
		t.Errorf("driver1's document after the delete: %v", err)
	}
	if res := admin.get(path("/dashboard/files/{}", "d1scan")); res.Status != 404 {
		t.Errorf("the deleted document's scan: %d", res.Status)
	}
	body := admin.get("/dashboard/documents").Body
	webtest.Contains(t, "documents after the delete", body, "Admin permit</a>")
	webtest.Lacks(t, "documents after the delete", body, "Driver permit")
}

func (e *env) ok(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}
