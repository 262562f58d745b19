package dashboard_test

import (
	"bytes"
	"mime/multipart"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// addTicket opens a ticket as the seeded user who.
func (e *env) addTicket(who, title, category string) *model.Ticket {
	e.t.Helper()
	t, err := e.Core.Office.CreateTicket(e.users[who], func(t *model.Ticket) error {
		t.Title, t.Category, t.Description = title, category, "Details of "+title
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return t
}

// postMultipart sends a multipart form with files (field name -> file name -> content).
func (c *client) postMultipart(path string, fields url.Values, files map[string]map[string]string) *webtest.Response {
	c.e.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if _, set := fields["_csrf"]; !set {
		fields.Set("_csrf", c.csrf)
	}
	for k, vs := range fields {
		for _, v := range vs {
			if err := w.WriteField(k, v); err != nil {
				c.e.t.Fatal(err)
			}
		}
	}
	for field, named := range files {
		for name, content := range named {
			part, err := w.CreateFormFile(field, name)
			if err == nil {
				_, err = part.Write([]byte(content))
			}
			if err != nil {
				c.e.t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		c.e.t.Fatal(err)
	}
	return c.do(webtest.NewRequest("POST", path, w.FormDataContentType(), body.String()))
}

// pdf is the start of a PDF, enough for the upload's type sniffing.
const pdf = "%PDF-1.4\n% test document\n"

func TestTicketList(t *testing.T) {
	// driver1's 30 tickets "GPS drops 0".."GPS drops 29", then "Cannot log in", in progress.
	tickets := func(t *testing.T, e *env) {
		for i := range 30 {
			e.addTicket("driver1", "GPS drops "+itoa(int64(i)), "tracking")
		}
		login := e.addTicket("driver1", "Cannot log in", "login")
		if _, err := e.Core.Office.SetTicketStatus(e.users["admin"], int64(login.ID), office.TicketInProgress); err != nil {
			t.Fatal(err)
		}
	}
	list := func(query string, want, avoid []string) scenario {
		return scenario{Name: "tickets" + query, As: "admin", Method: "GET", Path: "/dashboard/tickets" + query,
			Before: tickets, Status: 200, Want: want, Absent: avoid}
	}
	run(t, []scenario{
		// Newest first, 25 a page.
		list("", []string{"Cannot log in", "GPS drops 29", "GPS drops 6<", "Page 1 of 2 · 31 tickets", "page=2"}, []string{"GPS drops 5<"}),
		list("?page=2", []string{"GPS drops 5<", "GPS drops 0<", "Page 2 of 2", "Previous"}, []string{"Cannot log in"}),
		list("?page=99", []string{"Page 2 of 2"}, nil),
		list("?q=log+in", []string{"Cannot log in", "Page 1 of 1 · 1 ticket<"}, []string{"GPS drops"}),
		list("?status=in_progress", []string{"Cannot log in", "in progress"}, []string{"GPS drops"}),
		list("?status=closed", []string{"No tickets match."}, []string{"GPS drops", "Cannot log in"}),
		{Name: "bad status filter", As: "admin", Method: "GET", Path: "/dashboard/tickets?status=lost", Before: tickets, Status: 400},
		{Name: "list fragment", As: "admin", Method: "GET", Path: "/dashboard/tickets?q=log", Before: tickets,
			Header: map[string]string{"HX-Request": "true", "HX-Target": "ticket-list"}, Status: 200,
			Want: []string{"Cannot log in"}, Absent: []string{"<nav class=\"nav\""}},
	})
}

func TestTicketThread(t *testing.T) {
	e := newEnv(t)
	ticket := e.addTicket("driver1", "Map is blank", "dashboard")
	path := "/dashboard/tickets/" + ticket.ID.String()
	admin := e.as("admin")

	res := admin.get(path)
	webtest.Contains(t, "thread", res.Body, "Map is blank", "Details of Map is blank", "Dora Driver", "Change status", "Close ticket")

	// Respond with an attachment.
	res = admin.postMultipart(path+"/responses", url.Values{"message": {"Please clear the cache."}},
		map[string]map[string]string{"files": {"steps.pdf": pdf}})
	if res.Status != 303 {
		t.Fatalf("respond: %d %.400s", res.Status, res.Body)
	}
	res = admin.get(path)
	webtest.Contains(t, "thread after response", res.Body, "Please clear the cache.", "steps.pdf", `class="message mine" id="latest"`)
	responses, _, err := e.Core.Office.TicketResponses(e.users["admin"], int64(ticket.ID), model.Query{})
	if err != nil || len(responses) != 1 || len(responses[0].FileIDs) != 1 {
		t.Fatalf("responses: %+v %v", responses, err)
	}
	// The attachment downloads, to the ticket's creator too.
	file := "/dashboard/files/" + responses[0].FileIDs[0].String()
	dl := admin.get(file)
	if dl.Status != 200 || dl.Body != pdf || !strings.Contains(dl.Header.Get("Content-Disposition"), "steps.pdf") {
		t.Fatalf("download: %d %q %q", dl.Status, dl.Header.Get("Content-Disposition"), dl.Body)
	}
	if res := admin.get("/dashboard/files/999"); res.Status != 404 {
		t.Errorf("missing file: %d", res.Status)
	}

	// An empty response is refused with the form kept.
	res = admin.post(path+"/responses", url.Values{"message": {"  "}})
	if res.Status != 422 || !strings.Contains(res.Body, "a response needs content or files") {
		t.Errorf("empty response: %d %.300s", res.Status, res.Body)
	}

	// Status changes follow the core's transitions.
	if res := admin.post(path+"/status", url.Values{"status": {"in_progress"}}); res.Status != 303 {
		t.Fatalf("to in_progress: %d", res.Status)
	}
	webtest.Contains(t, "thread in progress", admin.get(path).Body, `class="badge ticket-in_progress">in progress`)
	res = admin.post(path+"/status", url.Values{"status": {"open"}})
	if res.Status != 422 || !strings.Contains(res.Body, "cannot go from in_progress to open") {
		t.Errorf("forbidden transition: %d %.300s", res.Status, res.Body)
	}
	if res := admin.post(path+"/status", url.Values{"status": {"closed"}}); res.Status != 303 {
		t.Fatalf("close: %d", res.Status)
	}
	res = admin.get(path)
	webtest.Contains(t, "closed thread", res.Body, "The ticket is closed")
	webtest.Lacks(t, "closed thread", res.Body, "Send response")

	// A manager sees the tickets of the users it manages (TestOfficeAcrossUsers): driver1's.
	if res := e.as("manager").get(path); res.Status != 200 {
		t.Errorf("manager: %d", res.Status)
	}
}

func TestDocuments(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	truck := "vehicle:" + itoa(e.devices["truck1"].ID)
	van := "vehicle:" + itoa(e.devices["van2"].ID)
	date := func(days int) string { return e.now.AddDate(0, 0, days).Format(time.DateOnly) }
	add := func(entity, typ, expiry string) *webtest.Response {
		return admin.postMultipart("/dashboard/documents", url.Values{"entity": {entity}, "documentType": {typ},
			"identificationNo": {"NO-" + typ}, "expiryDate": {expiry}, "amount": {"1,250.50"}},
			map[string]map[string]string{"files": {typ + ".pdf": pdf}})
	}
	for _, d := range []struct{ entity, typ, expiry string }{
		{truck, "Insurance", date(10)}, {truck, "Registration", date(400)}, {van, "Inspection", date(-3)},
	} {
		if res := add(d.entity, d.typ, d.expiry); res.Status != 303 {
			t.Fatalf("add %s: %d %.400s", d.typ, res.Status, res.Body)
		}
	}
	cases := []struct {
		query       string
		want, avoid []string
	}{
		{"", []string{`class="row-expiring"`, `class="row-valid"`, `class="row-expired"`, "in 10 days", "3 days ago", "Truck One", "Van Two"}, nil},
		{"?state=expired", []string{"Inspection</a>"}, []string{"Insurance</a>", "Registration</a>"}},
		{"?entity=" + url.QueryEscape(truck), []string{"Insurance</a>", "Registration</a>"}, []string{"Inspection</a>"}},
		{"?type=Insurance", []string{"Insurance</a>"}, []string{"Registration</a>", "Inspection</a>"}},
	}
	for _, tc := range cases {
		res := admin.get("/dashboard/documents" + tc.query)
		webtest.Contains(t, "documents"+tc.query, res.Body, tc.want...)
		webtest.Lacks(t, "documents"+tc.query, res.Body, tc.avoid...)
	}
	docs, _, err := e.Core.Office.Documents(e.users["admin"], model.Query{})
	if err != nil || len(docs) != 3 {
		t.Fatalf("documents: %d %v", len(docs), err)
	}
	ins := docs[2] // newest first: Insurance was added first
	if ins.DocumentType != "Insurance" || ins.Amount == nil || *ins.Amount != 1250.5 || len(ins.FileIDs) != 1 {
		t.Fatalf("insurance: %+v", ins)
	}
	path := "/dashboard/documents/" + ins.ID.String()
	webtest.Contains(t, "edit form", admin.get(path).Body, `value="NO-Insurance"`, "Insurance.pdf", `name="keepFile"`, "Delete document")

	// Edit: new expiry, and the file unticked is removed.
	res := admin.post(path, url.Values{"entity": {truck}, "documentType": {"Insurance"}, "expiryDate": {date(200)}, "editingFiles": {"1"}})
	if res.Status != 303 {
		t.Fatalf("update: %d %.300s", res.Status, res.Body)
	}
	if d, _ := e.Core.Office.Document(e.users["admin"], int64(ins.ID)); d == nil || d.Status != office.DocumentValid || len(d.FileIDs) != 0 {
		t.Fatalf("updated: %+v", d)
	}
	// Refusals keep the form.
	for _, bad := range []url.Values{
		{"entity": {""}, "documentType": {"Permit"}},
		{"entity": {truck}, "documentType": {"Permit"}, "expiryDate": {"next week"}},
		{"entity": {truck}, "documentType": {"Permit"}, "amount": {"lots"}},
		{"entity": {"vehicle:9999"}, "documentType": {"Permit"}},
	} {
		res := admin.post("/dashboard/documents", bad)
		if res.Status != 422 || !strings.Contains(res.Body, `class="alert"`) || !strings.Contains(res.Body, `value="Permit"`) {
			t.Errorf("create %v: %d %.300s", bad, res.Status, res.Body)
		}
	}
	if res := admin.post(path+"/delete", nil); res.Status != 303 {
		t.Fatalf("delete: %d", res.Status)
	}
	if _, err := e.Core.Office.Document(e.users["admin"], int64(ins.ID)); model.ClassOf(err) != model.ClassNotFound {
		t.Fatalf("deleted document: %v", err)
	}
}

func TestMaintenance(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	truck, van := itoa(e.devices["truck1"].ID), itoa(e.devices["van2"].ID)
	for _, r := range []url.Values{
		{"title": {"Annual service"}, "vehicleId": {truck}, "serviceDate": {"2026-03-01"}, "odometer": {"120500"},
			"expenditure": {"480.20"}, "serviceTasks": {"Oil change", "Air filter replacement"}, "newTask": {"Mirror glued"}},
		{"title": {"Tyres"}, "vehicleId": {truck}, "serviceDate": {"2026-05-10"}, "odometer": {"131000"}, "expenditure": {"900"}},
		{"title": {"Brakes"}, "vehicleId": {van}, "serviceDate": {"2026-04-01"}, "odometer": {"80000"}, "expenditure": {"300"}},
	} {
		if res := admin.postMultipart("/dashboard/maintenance", r, nil); res.Status != 303 {
			t.Fatalf("add %s: %d %.400s", r.Get("title"), res.Status, res.Body)
		}
	}
	all := admin.get("/dashboard/maintenance").Body
	webtest.Contains(t, "history", all, "Annual service", "Tyres", "Brakes", "1,680.20", "Truck One", "1,380.20", "Oil change, Air filter replacement, Mirror glued")
	one := admin.get("/dashboard/maintenance?vehicle=" + van).Body
	webtest.Contains(t, "van history", one, "Brakes</a>", "300.00")
	webtest.Lacks(t, "van history", one, "Tyres</a>")

	recs, err := e.Core.Office.ServiceRecords(e.users["admin"], office.ServiceQuery{})
	if err != nil || len(recs) != 3 {
		t.Fatalf("records: %v %v", recs, err)
	}
	tyres := recs[0]
	path := "/dashboard/maintenance/" + tyres.ID.String()
	webtest.Contains(t, "edit form", admin.get(path).Body, `value="Tyres"`, `value="131000"`, "Oil change", "Delete service record")
	bad := url.Values{"title": {"Tyres"}, "vehicleId": {truck}, "serviceDate": {"2026-05-10"}, "odometer": {"-5"}}
	if res := admin.post(path, bad); res.Status != 422 || !strings.Contains(res.Body, "must not be negative") {
		t.Errorf("negative odometer: %d %.300s", res.Status, res.Body)
	}
	if res := admin.post(path+"/delete", nil); res.Status != 303 {
		t.Fatalf("delete: %d", res.Status)
	}
	webtest.Lacks(t, "history after delete", admin.get("/dashboard/maintenance").Body, "Tyres</a>")
}

func TestServiceTasks(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	webtest.Contains(t, "tasks", admin.get("/dashboard/maintenance/tasks").Body, "Oil change", "built in")
	if res := admin.post("/dashboard/maintenance/tasks", url.Values{"label": {"Tachograph calibration"}}); res.Status != 303 {
		t.Fatalf("add: %d", res.Status)
	}
	if res := admin.post("/dashboard/maintenance/tasks", url.Values{"label": {"oil change"}}); res.Status != 422 {
		t.Errorf("duplicate: %d", res.Status)
	}
	webtest.Contains(t, "tasks", admin.get("/dashboard/maintenance/tasks").Body, "Tachograph calibration", `value="Tachograph calibration"`)
	if res := admin.post("/dashboard/maintenance/tasks/delete", url.Values{"label": {"Tachograph calibration"}}); res.Status != 303 {
		t.Fatalf("delete: %d", res.Status)
	}
	if res := admin.post("/dashboard/maintenance/tasks/delete", url.Values{"label": {"Oil change"}}); res.Status != 404 {
		t.Errorf("delete a built-in task: %d", res.Status)
	}
}

func TestOverview(t *testing.T) {
	e := newEnv(t)
	e.addTicket("driver1", "Wrong speed", "tracking")
	closed := e.addTicket("driver1", "Old problem", "other")
	if _, err := e.Core.Office.SetTicketStatus(e.users["admin"], int64(closed.ID), office.TicketClosed); err != nil {
		t.Fatal(err)
	}
	for i, days := range []int{5, 45, -1} {
		_, err := e.Core.Office.CreateDocument(e.users["admin"], func(d *model.Document) error {
			d.DocumentOf, d.EntityID, d.DocumentType = office.DocumentOfVehicle, model.TextID(e.devices["truck1"].ID), "Doc"+itoa(int64(i))
			d.ExpiryDate = model.Date{Time: e.now.AddDate(0, 0, days)}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	spent := 250.0
	odo := 1000.0
	if _, err := e.Core.Office.CreateServiceRecord(e.users["admin"], func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate = "Oil", model.TextID(e.devices["van2"].ID), model.Date{Time: e.now}
		r.Odometer, r.Expenditure = &odo, &spent
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sos := &model.Position{DeviceID: e.devices["truck1"].ID, Valid: true, Protocol: "gt06", Latitude: 52.5, Longitude: 13.4,
		FixTime: e.now, DeviceTime: e.now, Attributes: model.Attributes{"alarm": "sos"}}
	if err := e.Core.Ingest.Ingest(sos.DeviceID, []*model.Position{sos}); err != nil {
		t.Fatal(err)
	}
	body := e.as("admin").get("/dashboard/").Body
	for label, want := range map[string]string{"Devices online": "2", "Devices offline": "1", "Open tickets": "1",
		"Documents expiring in 30 days": "1"} {
		m := regexp.MustCompile(`stat-value">(\d+)</span>\s*<span class="stat-label">` + label).FindStringSubmatch(body)
		if m == nil || m[1] != want {
			t.Errorf("overview %s = %v, want %s", label, m, want)
		}
	}
	webtest.Contains(t, "overview", body, "Wrong speed", "Doc0 · Truck One", "in 5 days", "1 expired", "250.00", "Oil · Van Two",
		`<span class="badge status-offline">sos</span> <a href="/dashboard/fleet/devices/`+itoa(e.devices["truck1"].ID)+`">Truck One</a>`)
	webtest.Lacks(t, "overview", body, "Old problem", "Doc1")
}
