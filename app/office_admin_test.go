package app_test

import (
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// officeWorld: admin; manager (a user limit) managing driver; other, a
// plain user nobody manages. Each has a vehicle of its own and filed one
// ticket, one document and one service record about it, titled with the
// filer's name.
type officeWorld struct {
	t        *testing.T
	core     *app.Core
	users    map[string]*model.User
	vehicles map[string]int64
	// each filer's ticket, document and service record
	tickets, docs, records map[string]int64
}

var officeFilers = []string{"admin", "manager", "driver", "other"}

func newOfficeWorld(t *testing.T) *officeWorld {
	t.Helper()
	w := &officeWorld{t: t,
		core: app.New(storagetest.Open(t), app.Options{BcryptCost: 4, Now: func() time.Time { return t0 },
			Office: office.Options{FilesDir: filepath.Join(t.TempDir(), "files")}}),
		users: map[string]*model.User{}, vehicles: map[string]int64{},
		tickets: map[string]int64{}, docs: map[string]int64{}, records: map[string]int64{},
	}
	admin, _, err := w.core.Accounts.Bootstrap("admin@example.com", "admin-secret")
	w.must(err)
	w.users["admin"] = admin
	for _, u := range []struct{ name, by string }{{"manager", "admin"}, {"driver", "manager"}, {"other", "admin"}} {
		w.users[u.name], err = w.core.Accounts.CreateUser(w.users[u.by], func(nu *model.User) error {
			nu.Name, nu.Email, nu.Password = u.name, u.name+"@example.com", u.name+"-secret"
			if u.name == "manager" {
				nu.UserLimit = 5
			}
			return nil
		})
		w.must(err)
	}
	for _, name := range officeFilers {
		v, err := w.core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = name+"-car", name; return nil })
		w.must(err)
		w.vehicles[name] = v.ID
		if name != "admin" {
			w.must(w.core.Fleet.Link(admin, model.Permission{OwnerKind: model.KindUser, OwnerID: w.users[name].ID,
				PropKind: model.KindDevice, PropID: v.ID}))
		}
		w.file(name)
	}
	return w
}

func (w *officeWorld) must(err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

// file files name's ticket, document and service record.
func (w *officeWorld) file(name string) {
	w.t.Helper()
	u, vehicle := w.users[name], model.TextID(w.vehicles[name])
	tk, err := w.core.Office.CreateTicket(u, func(t *model.Ticket) error { t.Title = "T-" + name; return nil })
	w.must(err)
	doc, err := w.core.Office.CreateDocument(u, func(d *model.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType = office.DocumentOfVehicle, vehicle, "D-"+name
		d.ExpiryDate = model.Date{Time: t0.AddDate(0, 1, 0)}
		return nil
	})
	w.must(err)
	odometer := 100.0
	rec, err := w.core.Office.CreateServiceRecord(u, func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate, r.Odometer = "S-"+name, vehicle, model.Date{Time: t0.AddDate(0, 0, -1)}, &odometer
		return nil
	})
	w.must(err)
	w.tickets[name], w.docs[name], w.records[name] = int64(tk.ID), int64(doc.ID), int64(rec.ID)
}

// filers names the filers of titled records (the title's part after "-").
func filers[T any](list []*T, title func(*T) string) []string {
	out := []string{}
	for _, v := range list {
		_, name, _ := strings.Cut(title(v), "-")
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func ticketTitle(t *model.Ticket) string        { return t.Title }
func docTitle(d *model.Document) string         { return d.DocumentType }
func recordTitle(r *model.ServiceRecord) string { return r.Title }

// The administrative path reaches everyone's records for administrators,
// the managed users' and their own for managers, their own for others;
// the owner path (/api2's) only the caller's own documents and service
// records, administrators included, and tickets as before (administrators
// answer every one as support).
func TestOfficeReach(t *testing.T) {
	w := newOfficeWorld(t)
	all := []string{"admin", "driver", "manager", "other"}
	tests := []struct {
		actor string
		// whose records the administrative path lists
		admin []string
		// whose tickets the owner path lists
		ownTickets []string
	}{
		{"admin", all, all},
		{"manager", []string{"driver", "manager"}, []string{"manager"}},
		{"driver", []string{"driver"}, []string{"driver"}},
		{"other", []string{"other"}, []string{"other"}},
	}
	for _, tt := range tests {
		t.Run(tt.actor, func(t *testing.T) {
			actor := w.users[tt.actor]
			desk := w.core.Office.Admin(actor)
			tks, err := desk.Tickets(0, office.TicketQuery{})
			w.must(err)
			docs, err := desk.Documents(0)
			w.must(err)
			recs, err := desk.ServiceRecords(0, office.ServiceQuery{})
			w.must(err)
			expiring, err := desk.ExpiringDocuments()
			w.must(err)
			for what, got := range map[string][]string{"tickets": filers(tks, ticketTitle), "documents": filers(docs, docTitle),
				"expiring documents": filers(expiring, docTitle), "service records": filers(recs, recordTitle)} {
				if !slices.Equal(got, tt.admin) {
					t.Errorf("administrative path, %s of %v; want %v", what, got, tt.admin)
				}
			}

			ownDocs, _, err := w.core.Office.Documents(actor, model.Query{})
			w.must(err)
			ownRecs, err := w.core.Office.ServiceRecords(actor, office.ServiceQuery{})
			w.must(err)
			ownTks, err := w.core.Office.Tickets(actor, office.TicketQuery{})
			w.must(err)
			if got := filers(ownDocs, docTitle); !slices.Equal(got, []string{tt.actor}) {
				t.Errorf("owner path, documents of %v", got)
			}
			if got := filers(ownRecs, recordTitle); !slices.Equal(got, []string{tt.actor}) {
				t.Errorf("owner path, service records of %v", got)
			}
			if got := filers(ownTks, ticketTitle); !slices.Equal(got, tt.ownTickets) {
				t.Errorf("owner path, tickets of %v; want %v", got, tt.ownTickets)
			}

			// One record at a time: in reach or "not found", on both paths.
			for _, filer := range all {
				inReach := slices.Contains(tt.admin, filer)
				_, errT := desk.Ticket(w.tickets[filer])
				_, errD := desk.Document(w.docs[filer])
				_, errR := desk.ServiceRecord(w.records[filer])
				for what, err := range map[string]error{"ticket": errT, "document": errD, "service record": errR} {
					if found := err == nil; found != inReach || (!found && model.ClassOf(err) != model.ClassNotFound) {
						t.Errorf("administrative path, %s's %s: %v, want found %v", filer, what, err, inReach)
					}
				}
				_, errD = w.core.Office.Document(actor, w.docs[filer])
				_, errR = w.core.Office.ServiceRecord(actor, w.records[filer])
				for what, err := range map[string]error{"document": errD, "service record": errR} {
					if found := err == nil; found != (filer == tt.actor) {
						t.Errorf("owner path, %s's %s: %v", filer, what, err)
					}
				}
			}
		})
	}
}

// The owner filter keeps one user's records, and is "not found" for a
// user out of reach.
func TestOfficeOwnerFilter(t *testing.T) {
	w := newOfficeWorld(t)
	desk := w.core.Office.Admin(w.users["manager"])
	tests := []struct {
		owner string
		want  []string
		class model.Class
	}{
		{"driver", []string{"driver"}, 0},
		{"manager", []string{"manager"}, 0},
		{"other", nil, model.ClassNotFound},
		{"admin", nil, model.ClassNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.owner, func(t *testing.T) {
			id := w.users[tt.owner].ID
			tks, errT := desk.Tickets(id, office.TicketQuery{})
			docs, errD := desk.Documents(id)
			recs, errR := desk.ServiceRecords(id, office.ServiceQuery{})
			for what, err := range map[string]error{"tickets": errT, "documents": errD, "service records": errR} {
				if model.ClassOf(err) != tt.class {
					t.Errorf("%s: %v, want class %d", what, err, tt.class)
				}
			}
			if tt.class != 0 {
				return
			}
			for what, got := range map[string][]string{"tickets": filers(tks, ticketTitle), "documents": filers(docs, docTitle),
				"service records": filers(recs, recordTitle)} {
				if !slices.Equal(got, tt.want) {
					t.Errorf("%s of %v, want %v", what, got, tt.want)
				}
			}
		})
	}
}

// Managing someone else's records: changes keep the record its owner's,
// uploads attached to it become the owner's, the vehicle must be one the
// owner sees, and what is out of reach stays untouched.
func TestOfficeManageOthers(t *testing.T) {
	w := newOfficeWorld(t)
	admin, manager, driver := w.users["admin"], w.users["manager"], w.users["driver"]

	// The administrator renames driver's service record and attaches a receipt.
	receipt, err := w.core.Office.UploadFile(admin, "receipt.pdf", "application/pdf", -1, strings.NewReader("%PDF-1.4"))
	w.must(err)
	rec, err := w.core.Office.Admin(admin).UpdateServiceRecord(w.records["driver"], func(r *model.ServiceRecord) error {
		r.Title, r.FileIDs = "S-driver, checked", []model.TextID{receipt.ID}
		return nil
	})
	w.must(err)
	if rec.Owner() != driver.ID {
		t.Errorf("record's owner %d, want driver %d", rec.Owner(), driver.ID)
	}
	own, err := w.core.Office.ServiceRecord(driver, w.records["driver"])
	if err != nil || own.Title != "S-driver, checked" {
		t.Fatalf("driver's record after the change: %+v %v", own, err)
	}
	f, content, err := w.core.Office.OpenFile(driver, int64(receipt.ID))
	w.must(err)
	body, _ := io.ReadAll(content)
	content.Close()
	if f.Owner() != driver.ID || string(body) != "%PDF-1.4" {
		t.Errorf("receipt: owner %d, content %q; want driver's", f.Owner(), body)
	}

	// The vehicle must be one the owner sees: the manager sees van
	// "manager-car", driver does not.
	_, err = w.core.Office.Admin(manager).UpdateDocument(w.docs["driver"], func(d *model.Document) error {
		d.EntityID = model.TextID(w.vehicles["manager"])
		return nil
	})
	if model.ClassOf(err) != model.ClassInvalid || !strings.Contains(err.Error(), "driver can see") {
		t.Errorf("document moved to a vehicle its owner does not see: %v", err)
	}

	// Tickets: the manager answers driver's ticket as support; driver may not.
	desk := w.core.Office.Admin(manager)
	if _, err := desk.Respond(w.tickets["driver"], "On it.", nil); err != nil {
		t.Fatal(err)
	}
	tk, err := w.core.Office.Ticket(driver, w.tickets["driver"])
	w.must(err)
	if moves := office.TicketMoves(manager, tk); !slices.Contains(moves, office.TicketInProgress) {
		t.Errorf("manager's moves on driver's ticket: %v", moves)
	}
	if _, err := desk.SetTicketStatus(w.tickets["driver"], office.TicketInProgress); err != nil {
		t.Fatal(err)
	}
	if _, err := w.core.Office.SetTicketStatus(driver, w.tickets["driver"], office.TicketResolved); model.ClassOf(err) != model.ClassForbidden {
		t.Errorf("the creator resolving its own ticket: %v", err)
	}
	if moves := office.TicketMoves(manager, mustTicket(t, w, manager, "manager")); !slices.Equal(moves, []string{office.TicketClosed}) {
		t.Errorf("manager's moves on its own open ticket: %v", moves)
	}

	// Out of reach: the manager cannot respond to, change or delete other's records.
	_, errRespond := desk.Respond(w.tickets["other"], "hello", nil)
	_, errStatus := desk.SetTicketStatus(w.tickets["other"], office.TicketClosed)
	_, errUpdate := desk.UpdateServiceRecord(w.records["other"], func(r *model.ServiceRecord) error { r.Title = "x"; return nil })
	errDelete := desk.DeleteDocument(w.docs["other"])
	for what, err := range map[string]error{"respond": errRespond, "status": errStatus, "update": errUpdate, "delete": errDelete} {
		if model.ClassOf(err) != model.ClassNotFound {
			t.Errorf("%s on other's record: %v, want not found", what, err)
		}
	}
	if _, err := w.core.Office.Document(w.users["other"], w.docs["other"]); err != nil {
		t.Errorf("other's document after the refused delete: %v", err)
	}

	// In reach: the manager deletes driver's document.
	w.must(desk.DeleteDocument(w.docs["driver"]))
	if _, err := w.core.Office.Document(driver, w.docs["driver"]); model.ClassOf(err) != model.ClassNotFound {
		t.Errorf("driver's document after the manager deleted it: %v", err)
	}
}

func mustTicket(t *testing.T, w *officeWorld, actor *model.User, filer string) *model.Ticket {
	t.Helper()
	tk, err := w.core.Office.Admin(actor).Ticket(w.tickets[filer])
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// Maintenance due on the administrative path counts every service record
// in reach; on the owner path only the caller's own.
func TestOfficeServicesDue(t *testing.T) {
	w := newOfficeWorld(t)
	admin := w.users["admin"]
	reasons := func(list []office.ServiceDue) map[string]string {
		out := map[string]string{}
		for _, due := range list {
			out[due.DeviceName] = due.Reason
		}
		return out
	}
	byAdmin, err := w.core.Office.Admin(admin).ServicesDue(t0)
	w.must(err)
	byOwner, err := w.core.Office.ServicesDue(admin, t0)
	w.must(err)
	for _, name := range officeFilers {
		car := name + "-car"
		if got := reasons(byAdmin)[car]; got != office.DueByDate {
			t.Errorf("administrative path, %s: %q, want %q", car, got, office.DueByDate)
		}
		want := office.DueNoService
		if name == "admin" {
			want = office.DueByDate
		}
		if got := reasons(byOwner)[car]; got != want {
			t.Errorf("owner path, %s: %q, want %q", car, got, want)
		}
	}
	if got := slices.Sorted(maps.Keys(reasons(byAdmin))); len(got) != len(officeFilers) {
		t.Errorf("vehicles listed: %v", got)
	}
}
