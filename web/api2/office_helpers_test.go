package api2_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime/multipart"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"golang.org/x/crypto/bcrypt"
)

// The office tests (tickets, documents, files, maintenance) share this
// fixture; names carry an "office" prefix because the package's other
// areas keep helpers of their own.

// officeNow is the fixture's clock at start: documents' expiry and the
// reminder job are computed against it.
var officeNow = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// officeMaxFile is the fixture's upload limit, small so tests can exceed it.
const officeMaxFile = 1024

// officeEnv is one scenario's world (webtest.World: a fresh store, core
// and app, the fixture's ids by name), its files directory and its clock.
type officeEnv struct {
	*webtest.World
	t     testing.TB
	files string

	mu  sync.Mutex
	now time.Time
}

// officeScenario is one API call on a fresh office fixture and what must
// come of it; Unchanged compares the office records and the files on disk.
type officeScenario = webtest.Scenario[*officeEnv]

// runOffice runs scenarios, each on a fresh office fixture.
var runOffice = webtest.Runner(newOfficeEnv)

// officeLogins are the fixture's users, who sign in through POST
// /api/session, once per fixture.
var officeLogins = map[string]webtest.Credentials{
	"admin": {Email: "admin@example.com", Password: "admin-secret"},
	"alice": {Email: "alice@example.com", Password: "alice-secret"},
	"bob":   {Email: "bob@example.com", Password: "bob-secret"},
}

// newOfficeEnv builds:
//
//	admin              administrator
//	alice              sees device car and driver drv
//	bob                sees device van
func newOfficeEnv(t testing.TB) *officeEnv { return buildOfficeEnv(t, nil, nil) }

// buildOfficeEnv builds the fixture with a core over store(db) (nil: db
// itself) whose options with adjusts (nil: none).
func buildOfficeEnv(t testing.TB, store func(*storage.DB) model.Store, with func(*app.Options)) *officeEnv {
	t.Helper()
	e := &officeEnv{t: t, files: filepath.Join(t.TempDir(), "files"), now: officeNow}
	opts := app.Options{
		Version: "test", BcryptCost: bcrypt.MinCost, Now: e.clock,
		Office: office.Options{FilesDir: e.files, MaxFileSize: officeMaxFile},
		Logger: slog.New(slog.DiscardHandler),
	}
	if with != nil {
		with(&opts)
	}
	e.World = newWorld(t, opts, store)
	e.Users, e.Auth = officeLogins, webtest.AuthLogin
	e.Snapshot = func(testing.TB) string { return e.snapshot() }

	admin, _, err := e.Core.Accounts.Bootstrap(officeLogins["admin"].Email, officeLogins["admin"].Password)
	e.must(err)
	e.IDs["admin"] = admin.ID
	for _, name := range []string{"alice", "bob"} {
		u, err := e.Core.Accounts.CreateUser(admin, func(u *model.User) error {
			u.Name, u.Email, u.Password = strings.ToUpper(name[:1])+name[1:], officeLogins[name].Email, officeLogins[name].Password
			return nil
		})
		e.must(err)
		e.IDs[name] = u.ID
	}
	e.device("car", "alice")
	e.device("van", "bob")
	drv, err := e.Core.Fleet.Drivers.Create(model.System(), func(d *model.Driver) error {
		d.Name, d.UniqueID = "Dana", "drv-1"
		return nil
	})
	e.must(err)
	e.IDs["drv"] = drv.ID
	e.link("alice", model.KindDriver, drv.ID)
	return e
}

func (e *officeEnv) clock() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

func (e *officeEnv) setNow(t time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now = t
}

func (e *officeEnv) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *officeEnv) link(user, kind string, id int64) {
	e.t.Helper()
	e.must(e.Core.Fleet.Link(model.System(), model.Permission{OwnerKind: model.KindUser, OwnerID: e.IDs[user], PropKind: kind, PropID: id}))
}

// user is the stored fixture user, as the core sees it.
func (e *officeEnv) user(name string) *model.User {
	e.t.Helper()
	u, err := e.Core.Accounts.User(model.System(), e.IDs[name])
	e.must(err)
	return u
}

// device creates a device of owner through the core (no installation
// record) and names it.
func (e *officeEnv) device(name, owner string) {
	e.t.Helper()
	d, err := e.Core.Fleet.Devices.Create(model.System(), func(d *model.Device) error {
		d.Name, d.UniqueID = name, "imei-"+name
		return nil
	})
	e.must(err)
	e.IDs[name] = d.ID
	e.link(owner, model.KindDevice, d.ID)
}

// upload posts content as the multipart field "file" (fileType sets the
// part's Content-Type when not empty).
func (e *officeEnv) upload(as, name, fileType string, content []byte) *webtest.Response {
	e.t.Helper()
	body, contentType := multipartBody(e.t, name, fileType, content)
	return e.Send(e.t, as, webtest.NewRequest("POST", "/api2/files", contentType, body.String()))
}

// multipartBody is a form with content in the field "file".
func multipartBody(t testing.TB, name, fileType string, content []byte) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
	if fileType != "" {
		h.Set("Content-Type", fileType)
	}
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = part.Write(content)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return &buf, w.FormDataContentType()
}

// pdf is a small valid upload.
var pdf = []byte("%PDF-1.4\n%fixture\n")

// file uploads a fixture file of owner and names its id.
func (e *officeEnv) file(name, owner string) {
	e.t.Helper()
	f, err := e.Core.Office.UploadFile(e.user(owner), name+".pdf", "application/pdf", int64(len(pdf)), bytes.NewReader(pdf))
	e.must(err)
	e.IDs[name] = int64(f.ID)
}

// ticket opens a fixture ticket of owner.
func (e *officeEnv) ticket(name, owner, title string, files ...string) {
	e.t.Helper()
	t, err := e.Core.Office.CreateTicket(e.user(owner), func(t *model.Ticket) error {
		t.Title, t.FileIDs = title, e.textIDs(files)
		return nil
	})
	e.must(err)
	e.IDs[name] = int64(t.ID)
}

// respond adds a fixture response of author to ticket.
func (e *officeEnv) respond(name, author, ticket, message string, files ...string) {
	e.t.Helper()
	r, err := e.Core.Office.Respond(e.user(author), e.IDs[ticket], message, e.textIDs(files))
	e.must(err)
	e.IDs[name] = int64(r.ID)
}

// document stores a fixture document of owner about device car (alice)
// or van (bob), expiring on expiry (zero: none).
func (e *officeEnv) document(name, owner, docType string, expiry time.Time, files ...string) {
	e.t.Helper()
	entity := map[string]string{"alice": "car", "bob": "van"}[owner]
	d, err := e.Core.Office.CreateDocument(e.user(owner), func(d *model.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType = office.DocumentOfVehicle, model.TextID(e.IDs[entity]), docType
		d.ExpiryDate, d.FileIDs = model.Date{Time: expiry}, e.textIDs(files)
		return nil
	})
	e.must(err)
	e.IDs[name] = int64(d.ID)
}

// record stores a fixture service record of owner for its device.
func (e *officeEnv) record(name, owner, title string, serviceDate time.Time, files ...string) {
	e.t.Helper()
	vehicle := map[string]string{"alice": "car", "bob": "van"}[owner]
	odometer := 1000.0
	r, err := e.Core.Office.CreateServiceRecord(e.user(owner), func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate, r.Odometer = title, model.TextID(e.IDs[vehicle]), model.Date{Time: serviceDate}, &odometer
		r.FileIDs = e.textIDs(files)
		return nil
	})
	e.must(err)
	e.IDs[name] = int64(r.ID)
}

func (e *officeEnv) textIDs(names []string) []model.TextID {
	out := make([]model.TextID, len(names))
	for i, n := range names {
		out[i] = model.TextID(e.IDs[n])
	}
	return out
}

// officeSets are the record collections of the office area.
var officeSets = []string{"tickets", "ticket_responses", "documents", "files", "service_records", "service_tasks"}

// snapshot is every office record as stored plus the files on disk, to
// prove a refused request changed nothing.
func (e *officeEnv) snapshot() string {
	e.t.Helper()
	var b strings.Builder
	e.must(e.DB.View(func(tx model.Tx) error {
		for _, name := range officeSets {
			err := tx.Records(name).List(false, func(id int64, data []byte) bool {
				fmt.Fprintf(&b, "%s %d %s\n", name, id, data)
				return true
			})
			if err != nil {
				return err
			}
		}
		return nil
	}))
	fmt.Fprintf(&b, "disk %v\n", e.onDisk())
	return b.String()
}

// onDisk lists the files directory (nothing when it does not exist yet).
func (e *officeEnv) onDisk() []string {
	e.t.Helper()
	entries, err := os.ReadDir(e.files)
	if os.IsNotExist(err) {
		return nil
	}
	e.must(err)
	var names []string
	for _, d := range entries {
		names = append(names, d.Name())
	}
	return names
}

// listTitles checks the titles of the list under key, in order.
func listTitles(key string, want ...string) func(*testing.T, *officeEnv, *webtest.Response) {
	return func(t *testing.T, _ *officeEnv, r *webtest.Response) {
		var out map[string]json.RawMessage
		r.Decode(t, &out)
		var items []struct{ Title string }
		if err := json.Unmarshal(out[key], &items); err != nil {
			t.Fatalf("%s: %v in %s", key, err, r.Body)
		}
		got := make([]string, len(items))
		for i, item := range items {
			got[i] = item.Title
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("titles %v, want %v", got, want)
		}
	}
}
