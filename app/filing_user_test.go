package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/storage/storagetest"
	"golang.org/x/crypto/bcrypt"
)

// TestDropUserOffice: deleting alice, a second administrator, deletes her
// office and leaves bob's ticket, with bob's and the admin's
// responses, and nothing of alice's.
func TestDropUserOffice(t *testing.T) {
	db := storagetest.Open(t)
	dir := filepath.Join(t.TempDir(), "files")
	core := app.New(db, app.Options{BcryptCost: bcrypt.MinCost, Office: office.Options{FilesDir: dir}})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "admin-secret")
	must(err)
	users := map[string]*model.User{"admin": admin}
	for _, name := range []string{"alice", "bob"} {
		users[name], err = core.Accounts.CreateUser(admin, func(u *model.User) error {
			u.Name, u.Email, u.Password = name, name+"@example.com", name+"-secret"
			u.Administrator = name == "alice" // so she answers on bob's ticket too
			return nil
		})
		must(err)
	}
	car, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "car", "1"; return nil })
	must(err)
	must(core.Fleet.Link(admin, model.Permission{OwnerKind: model.KindUser, OwnerID: users["alice"].ID, PropKind: model.KindDevice, PropID: car.ID}))
	upload := func(who string) model.TextID {
		f, err := core.Office.UploadFile(users[who], "a.pdf", "application/pdf", -1, strings.NewReader("%PDF"))
		must(err)
		return f.ID
	}
	ticket := func(who string, files ...model.TextID) int64 {
		tk, err := core.Office.CreateTicket(users[who], func(tk *model.Ticket) error { tk.Title, tk.FileIDs = who, files; return nil })
		must(err)
		return int64(tk.ID)
	}
	respond := func(who string, ticket int64, files ...model.TextID) {
		_, err := core.Office.Respond(users[who], ticket, "hi", files)
		must(err)
	}
	aliceTicket := ticket("alice", upload("alice"))
	respond("admin", aliceTicket, upload("admin"))
	bobTicket := ticket("bob", upload("bob"))
	respond("admin", bobTicket, upload("admin"))
	respond("alice", bobTicket, upload("alice"))
	respond("bob", bobTicket)
	upload("alice") // unused
	_, err = core.Office.CreateDocument(users["alice"], func(d *model.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType, d.FileIDs = "vehicle", model.TextID(car.ID), "insurance", []model.TextID{upload("alice")}
		return nil
	})
	must(err)
	odometer := 1.0
	_, err = core.Office.CreateServiceRecord(users["alice"], func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate, r.Odometer = "oil", model.TextID(car.ID), model.Date{Time: time.Now()}, &odometer
		r.FileIDs = []model.TextID{upload("alice")}
		return nil
	})
	must(err)
	_, err = core.Office.CreateServiceTask(users["alice"], "Hitch")
	must(err)

	must(core.Accounts.DeleteUser(admin, users["alice"].ID))

	if list, _ := core.Office.Tickets(admin, office.TicketQuery{}); len(list) != 1 || list[0].Title != "bob" {
		t.Errorf("tickets left: %v", list)
	}
	rs, _, err := core.Office.TicketResponses(users["bob"], bobTicket, model.Query{})
	must(err)
	if len(rs) != 2 || rs[0].SenderInfo.Name != "Administrator" || rs[1].SenderInfo.Name != "bob" {
		t.Errorf("responses on bob's ticket: %+v", rs)
	}
	docs, _, _ := core.Office.Documents(users["alice"], model.Query{})
	records, _ := core.Office.ServiceRecords(users["alice"], office.ServiceQuery{})
	tasks, _ := core.Office.ServiceTasks(users["alice"])
	if len(docs) != 0 || len(records) != 0 || len(tasks) != len(office.DefaultServiceTasks) {
		t.Errorf("left: %d documents, %d records, %d tasks", len(docs), len(records), len(tasks))
	}
	// Left on disk: bob's ticket file and the admin's file on bob's ticket.
	entries, err := os.ReadDir(dir)
	must(err)
	if len(entries) != 2 {
		t.Errorf("%d files on disk, want 2", len(entries))
	}
}
