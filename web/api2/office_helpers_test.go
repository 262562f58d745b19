package api2_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
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
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
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

// officeEnv is one scenario's world: a fresh store, core, app and files
// directory, and the fixture's ids by name.
type officeEnv struct {
	t     *testing.T
	db    *storage.DB
	core  *app.Core
	app   *fiber.App
	files string
	ids   map[string]int64

	mu      sync.Mutex
	now     time.Time
	cookies map[string]*http.Cookie
}

var officeLogins = map[string][2]string{
	"admin": {"admin@example.com", "admin-secret"},
	"alice": {"alice@example.com", "alice-secret"},
	"bob":   {"bob@example.com", "bob-secret"},
}

// newOfficeEnv builds:
//
//	admin              administrator
//	alice              sees device car and driver drv
//	bob                sees device van
func newOfficeEnv(t *testing.T) *officeEnv {
	t.Helper()
	db := webtest.OpenStore(t)
	e := &officeEnv{t: t, db: db, files: filepath.Join(t.TempDir(), "files"), ids: map[string]int64{},
		now: officeNow, cookies: map[string]*http.Cookie{}}
	e.core = app.New(db, app.Options{
		Version: "test", BcryptCost: bcrypt.MinCost, Now: e.clock,
		Office: office.Options{FilesDir: e.files, MaxFileSize: officeMaxFile},
		Logger: slog.New(slog.DiscardHandler),
	})
	e.app = web.New(e.core, web.Options{Logger: slog.New(slog.DiscardHandler)})

	admin, _, err := e.core.Bootstrap(officeLogins["admin"][0], officeLogins["admin"][1])
	e.must(err)
	e.ids["admin"] = admin.ID
	for _, name := range []string{"alice", "bob"} {
		u, err := e.core.CreateUser(admin, func(u *model.User) error {
			u.Name, u.Email, u.Password = strings.ToUpper(name[:1])+name[1:], officeLogins[name][0], officeLogins[name][1]
			return nil
		})
		e.must(err)
		e.ids[name] = u.ID
	}
	e.device("car", "alice")
	e.device("van", "bob")
	drv, err := e.core.Drivers.Create(app.System(), func(d *model.Driver) error {
		d.Name, d.UniqueID = "Dana", "drv-1"
		return nil
	})
	e.must(err)
	e.ids["drv"] = drv.ID
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
	e.must(e.core.Link(app.System(), model.Permission{OwnerKind: model.KindUser, OwnerID: e.ids[user], PropKind: kind, PropID: id}))
}

// user is the stored fixture user, as the core sees it.
func (e *officeEnv) user(name string) *model.User {
	e.t.Helper()
	u, err := e.core.User(app.System(), e.ids[name])
	e.must(err)
	return u
}

// expand replaces {name} with the fixture id of name.
func (e *officeEnv) expand(s string) string {
	e.t.Helper()
	return webtest.Expand(e.t, e.ids, s)
}

// call sends a JSON request as the fixture user as ("" anonymous), with
// the session cookie from POST /api/session.
func (e *officeEnv) call(as, method, path, body string) *webtest.Response {
	e.t.Helper()
	return e.send(as, webtest.NewJSONRequest(method, e.expand(path), e.expand(body)))
}

func (e *officeEnv) send(as string, req *http.Request) *webtest.Response {
	e.t.Helper()
	if as != "" {
		req.AddCookie(e.cookie(as))
	}
	return webtest.Do(e.t, e.app, req)
}

// cookie is the session cookie of the fixture user name, signed in once
// per fixture.
func (e *officeEnv) cookie(name string) *http.Cookie {
	e.t.Helper()
	if c, ok := e.cookies[name]; ok {
		return c
	}
	e.cookies[name] = webtest.Login(e.t, e.app, officeLogins[name][0], officeLogins[name][1])
	return e.cookies[name]
}

// device creates a device of owner through the core (no installation
// record) and names it.
func (e *officeEnv) device(name, owner string) {
	e.t.Helper()
	d, err := e.core.Devices.Create(app.System(), func(d *model.Device) error {
		d.Name, d.UniqueID = name, "imei-"+name
		return nil
	})
	e.must(err)
	e.ids[name] = d.ID
	e.link(owner, model.KindDevice, d.ID)
}

// upload posts content as the multipart field "file" (fileType sets the
// part's Content-Type when not empty).
func (e *officeEnv) upload(as, name, fileType string, content []byte) *webtest.Response {
	e.t.Helper()
	body, contentType := multipartBody(e.t, name, fileType, content)
	req := httptest.NewRequest("POST", "/api2/files", body)
	req.Header.Set("Content-Type", contentType)
	return e.send(as, req)
}

// multipartBody is a form with content in the field "file".
func multipartBody(t *testing.T, name, fileType string, content []byte) (*bytes.Buffer, string) {
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
	f, err := e.core.Office.UploadFile(e.user(owner), name+".pdf", "application/pdf", int64(len(pdf)), bytes.NewReader(pdf))
	e.must(err)
	e.ids[name] = int64(f.ID)
}

// ticket opens a fixture ticket of owner.
func (e *officeEnv) ticket(name, owner, title string, files ...string) {
	e.t.Helper()
	t, err := e.core.Office.CreateTicket(e.user(owner), func(t *office.Ticket) error {
		t.Title, t.FileIDs = title, e.textIDs(files)
		return nil
	})
	e.must(err)
	e.ids[name] = int64(t.ID)
}

// respond adds a fixture response of author to ticket.
func (e *officeEnv) respond(name, author, ticket, message string, files ...string) {
	e.t.Helper()
	r, err := e.core.Office.Respond(e.user(author), e.ids[ticket], message, e.textIDs(files))
	e.must(err)
	e.ids[name] = int64(r.ID)
}

// document stores a fixture document of owner about device car (alice)
// or van (bob), expiring on expiry (zero: none).
func (e *officeEnv) document(name, owner, docType string, expiry time.Time, files ...string) {
	e.t.Helper()
	entity := map[string]string{"alice": "car", "bob": "van"}[owner]
	d, err := e.core.Office.CreateDocument(e.user(owner), func(d *office.Document) error {
		d.DocumentOf, d.EntityID, d.DocumentType = office.DocumentOfVehicle, model.TextID(e.ids[entity]), docType
		d.ExpiryDate, d.FileIDs = model.Date{Time: expiry}, e.textIDs(files)
		return nil
	})
	e.must(err)
	e.ids[name] = int64(d.ID)
}

// record stores a fixture service record of owner for its device.
func (e *officeEnv) record(name, owner, title string, serviceDate time.Time, files ...string) {
	e.t.Helper()
	vehicle := map[string]string{"alice": "car", "bob": "van"}[owner]
	odometer := 1000.0
	r, err := e.core.Office.CreateServiceRecord(e.user(owner), func(r *office.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate, r.Odometer = title, model.TextID(e.ids[vehicle]), model.Date{Time: serviceDate}, &odometer
		r.FileIDs = e.textIDs(files)
		return nil
	})
	e.must(err)
	e.ids[name] = int64(r.ID)
}

func (e *officeEnv) textIDs(names []string) []model.TextID {
	out := make([]model.TextID, len(names))
	for i, n := range names {
		out[i] = model.TextID(e.ids[n])
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
	e.must(e.db.View(func(tx model.Tx) error {
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

// officeScenario is one API call on a fresh fixture and what must come of it.
type officeScenario struct {
	name    string
	as      string // fixture user; "" anonymous
	method  string
	path    string // {name} expands to a fixture id
	body    string // JSON; {name} expands too
	prepare func(e *officeEnv)
	status  int
	want    []string // fragments the body must contain ({name} expands)
	absent  []string // fragments it must not contain
	// unchanged asserts the store and the files directory are as before.
	unchanged bool
	check     func(t *testing.T, e *officeEnv, r *webtest.Response)
}

func runOfficeScenarios(t *testing.T, scenarios []officeScenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			e := newOfficeEnv(t)
			if s.prepare != nil {
				s.prepare(e)
			}
			before := ""
			if s.unchanged {
				if s.as != "" {
					e.cookie(s.as) // log in first: sessions are not office data
				}
				before = e.snapshot()
			}
			r := e.call(s.as, s.method, s.path, s.body)
			r.Check(t, s.method+" "+s.path, s.status, webtest.ExpandAll(t, e.ids, s.want), webtest.ExpandAll(t, e.ids, s.absent))
			if s.unchanged {
				if after := e.snapshot(); after != before {
					t.Errorf("store changed:\nbefore %s\nafter  %s", before, after)
				}
			}
			if s.check != nil {
				s.check(t, e, r)
			}
		})
	}
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
