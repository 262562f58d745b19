// Command genrelease writes storage/testdata/release-v3.db.gz: a store as
// the release with schema 3 leaves it, with records in every collection,
// made through that release's own services. TestUpgradeRelease opens a
// copy and checks that the migration keeps every record.
//
// It compiles against the commit that made the fixture (e505b23, the last
// one at schema 3), not necessarily against later code: being under
// testdata, it is not built by ./... . To make it again, check that commit
// out and run, from the module root:
//
//	go run ./storage/testdata/genrelease storage/testdata/release-v3.db.gz
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/storage"
	"golang.org/x/crypto/bcrypt"
)

// outbox keeps the OTPs the accounts send.
type outbox struct {
	mu   sync.Mutex
	last map[string]string
}

var sixDigits = regexp.MustCompile(`\b\d{6}\b`)

func (o *outbox) Send(_ context.Context, to, _, text string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.last[to] = sixDigits.FindString(text)
	return nil
}

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: genrelease OUT.db.gz")
	}
	if err := run(os.Args[1]); err != nil {
		log.Fatal(err)
	}
}

func run(out string) error {
	dir, err := os.MkdirTemp("", "genrelease")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "fleetd.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		return err
	}
	now := time.Date(2025, 5, 1, 9, 30, 0, 0, time.UTC)
	mail := &outbox{last: map[string]string{}}
	core := app.New(db, app.Options{
		Version: "release-v3", BcryptCost: bcrypt.MinCost, Now: func() time.Time { return now },
		Accounts: accounts.Options{Mail: mail, SMS: mail},
		Office:   office.Options{FilesDir: filepath.Join(dir, "files")},
		Logger:   slog.New(slog.DiscardHandler),
	})
	if err := fill(db, core, mail, now); err != nil {
		db.Close()
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(data)
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, gz.Bytes(), 0o644)
}

// note is a collection the release's code would make for any new kind
// (model.RecordTable with a name of the caller's choosing).
type note struct {
	model.Base
	Text string `json:"text"`
}

func fill(db *storage.DB, core *app.Core, mail *outbox, now time.Time) error {
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "admin-secret")
	if err != nil {
		return err
	}
	alice, err := core.Accounts.CreateUser(admin, func(u *model.User) error {
		u.Name, u.Email, u.Phone, u.Password = "Alice", "alice@example.com", "+15550001", "alice-secret"
		exp := now.AddDate(1, 0, 0)
		u.ExpirationTime, u.DeviceLimit, u.Attributes = &exp, 5, model.Attributes{"lang": "de"}
		return nil
	})
	if err != nil {
		return err
	}
	if _, err := core.Accounts.UpdateServer(admin, func(s *model.Server) error {
		s.Registration, s.Map, s.Announcement = true, "osm", "release v3"
		return nil
	}); err != nil {
		return err
	}
	if _, _, err := core.Accounts.CreateSession(alice, ""); err != nil {
		return err
	}

	// Fleet: devices, groups, geofences, commands, drivers, computed
	// attributes, an installation, positions, events and a queued command.
	group, err := core.Groups.Create(admin, func(g *model.Group) error { g.Name = "Trucks"; return nil })
	if err != nil {
		return err
	}
	truck, err := core.Devices.Create(admin, func(d *model.Device) error {
		d.Name, d.UniqueID, d.GroupID, d.Category = "Truck 1", "356307042441013", group.ID, "truck"
		return nil
	})
	if err != nil {
		return err
	}
	installed, err := core.InstallDevice(alice, func(d *model.Device) error {
		d.Name, d.UniqueID, d.Phone, d.Contact = "Van", "864893030000001", "+15550009", "Alice"
		return nil
	}, app.InstallationDetails{Location: "Depot", Notes: "under the seat"})
	if err != nil {
		return err
	}
	if _, err := core.Geofences.Create(admin, func(g *model.Geofence) error {
		g.Name, g.Area = "Depot", "CIRCLE (52.5 13.4, 300)"
		return nil
	}); err != nil {
		return err
	}
	if _, err := core.Commands.Create(admin, func(c *model.Command) error {
		c.Description, c.Type, c.DeviceID = "Stop", "engineStop", truck.ID
		return nil
	}); err != nil {
		return err
	}
	driver, err := core.Drivers.Create(admin, func(d *model.Driver) error { d.Name, d.UniqueID = "Dana", "rfid-0042"; return nil })
	if err != nil {
		return err
	}
	if _, err := core.ComputedAttributes.Create(admin, func(a *model.ComputedAttribute) error {
		a.Description, a.Attribute, a.Expression, a.Type = "Fast", "fast", "speed > 50", "boolean"
		return nil
	}); err != nil {
		return err
	}
	err = db.Update(func(tx model.Tx) error {
		addr := "Main St 1"
		for i, p := range []*model.Position{
			{DeviceID: truck.ID, Protocol: "teltonika", ServerTime: now, DeviceTime: now, FixTime: now.Add(-time.Minute),
				Valid: true, Latitude: 52.5, Longitude: 13.4, Speed: 12, Address: &addr, Attributes: model.Attributes{"ignition": true}},
			{DeviceID: truck.ID, Protocol: "teltonika", ServerTime: now, DeviceTime: now, FixTime: now,
				Valid: true, Latitude: 52.51, Longitude: 13.41, Attributes: model.Attributes{}},
		} {
			if err := tx.AddPosition(p); err != nil {
				return err
			}
			if err := tx.AddEvent(&model.Event{Type: model.EventIgnitionOn, EventTime: now.Add(time.Duration(i) * time.Second),
				DeviceID: truck.ID, PositionID: p.ID, Attributes: model.Attributes{}}); err != nil {
				return err
			}
		}
		return tx.QueuedCommands().Create(&model.QueuedCommand{Queued: now,
			Command: model.Command{DeviceID: installed.Device.ID, Type: "positionSingle", Attributes: model.Attributes{}}})
	})
	if err != nil {
		return err
	}

	// Office: a file on a ticket, a response, a document, a service record,
	// the public service tasks and one of alice's, a payment.
	file, err := core.Office.UploadFile(alice, "receipt.pdf", "application/pdf", -1, strings.NewReader("%PDF-1.4\n% fixture\n"))
	if err != nil {
		return err
	}
	ticket, err := core.Office.CreateTicket(alice, func(t *office.Ticket) error {
		t.Title, t.Description, t.Category, t.FileIDs = "GPS drops", "The van loses its fix.", "tracking", []model.TextID{file.ID}
		t.Device = &office.TicketDevice{Value: fmt.Sprint(installed.Device.ID), Name: "Van"}
		return nil
	})
	if err != nil {
		return err
	}
	if _, err := core.Office.Respond(admin, int64(ticket.ID), "Please check the antenna.", nil); err != nil {
		return err
	}
	amount := 120.5
	if _, err := core.Office.CreateDocument(alice, func(d *office.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType, d.IdentificationNo = office.DocumentOfVehicle, model.TextID(installed.Device.ID), "Insurance", "POL-1"
		d.Amount, d.IssuedDate, d.ExpiryDate = &amount, model.Date{Time: now.AddDate(0, -1, 0)}, model.Date{Time: now.AddDate(0, 0, 20)}
		return nil
	}); err != nil {
		return err
	}
	if _, err := core.Office.CreateDocument(admin, func(d *office.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType = office.DocumentOfDriver, model.TextID(driver.ID), "Licence"
		return nil
	}); err != nil {
		return err
	}
	odo, cost := 88000.0, 412.5
	if _, err := core.Office.CreateServiceRecord(alice, func(r *office.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate = "Spring service", model.TextID(installed.Device.ID), model.Date{Time: now.AddDate(0, 0, -3)}
		r.Odometer, r.Expenditure, r.ServiceTasks = &odo, &cost, []string{"Oil change"}
		return nil
	}); err != nil {
		return err
	}
	if _, err := core.Office.CreateServiceTask(alice, "Tachograph check"); err != nil {
		return err
	}
	if _, err := core.Office.CreatePayment(admin, func(p *office.Payment) error {
		p.UserID, p.Method, p.Amount, p.Currency, p.Status, p.Reference = model.TextID(alice.ID), "card", 49, "EUR", office.PaymentCompleted, "INV-7"
		return nil
	}); err != nil {
		return err
	}

	// Accounts: a pending registration OTP, a verified demo OTP (its demo
	// account and token), maintenance mode.
	if err := core.Accounts.StartRegistration("new@example.com", "", "192.0.2.1"); err != nil {
		return err
	}
	if err := core.Accounts.StartDemo("+15550077", "Demo Dave", "192.0.2.1"); err != nil {
		return err
	}
	if _, err := core.Accounts.VerifyOTP(mail.last["+15550077"], "+15550077", accounts.PurposeDemo); err != nil {
		return err
	}
	if err := core.Accounts.StartDemo("+15550078", "Demo Erin", "192.0.2.1"); err != nil {
		return err
	}
	if err := core.Accounts.SetMaintenance(true); err != nil {
		return err
	}

	// Notify: switches and push tokens.
	if err := core.Notify.SetNotification(alice, "ignition", false); err != nil {
		return err
	}
	for _, tok := range []string{"fcm-token-a", "fcm-token-b"} {
		if err := core.Notify.AddPushToken(alice, tok); err != nil {
			return err
		}
	}
	if err := core.Notify.AddPushToken(admin, "fcm-token-admin"); err != nil {
		return err
	}

	// A collection of a kind this release does not know.
	return db.Update(func(tx model.Tx) error {
		n := &note{Text: "first"}
		if err := model.RecordTable[note](tx, "notes", "note").Create(n); err != nil {
			return err
		}
		return tx.Keys("notes_by_text").Put(n.Text, n.ID)
	})
}
