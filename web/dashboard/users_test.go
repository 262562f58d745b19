package dashboard_test

import (
	"context"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// outbox keeps the mails and text messages the core sends.
type outbox struct {
	mu   sync.Mutex
	sent []sentMessage
}

type sentMessage struct{ to, text string }

func (o *outbox) Send(_ context.Context, to, _, text string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, sentMessage{to, text})
	return nil
}

// last is the text of the last message sent to to ("" when none).
func (o *outbox) last(to string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := len(o.sent) - 1; i >= 0; i-- {
		if o.sent[i].to == to {
			return o.sent[i].text
		}
	}
	return ""
}

// withOutbox delivers the core's mails and text messages to box.
func withOutbox(box *outbox) func(*app.Options) {
	return func(o *app.Options) { o.Accounts.Mail, o.Accounts.SMS = box, box }
}

// sameStore runs act and fails t when it changed the store.
func (e *env) sameStore(t *testing.T, what string, act func()) {
	t.Helper()
	before := webtest.StoreImage(t, e.DB)
	act()
	if string(webtest.StoreImage(t, e.DB)) != string(before) {
		t.Errorf("%s changed the store", what)
	}
}

// user reads a user as stored.
func (e *env) user(id int64) *model.User {
	e.t.Helper()
	u, err := e.Core.Accounts.User(model.System(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return u
}

// signIn signs in through the core's login as a browser would.
func (e *env) signIn(email, pass string) error {
	_, err := e.Core.Accounts.Login(email, pass, "", "192.0.2.9")
	return err
}

func TestUserList(t *testing.T) {
	past := func(t *testing.T, e *env) {
		_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs["driver1"], func(u *model.User) error {
			expired := e.now.Add(-time.Hour)
			u.ExpirationTime = &expired
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	run(t, []scenario{
		{Name: "administrator: everyone, roles and device counts", As: "admin", Method: "GET", Path: "/dashboard/users", Status: 200,
			Want: []string{"Ada Admin", "Max Manager", "Dora Driver", `role-manager">manager`, `role-administrator">administrator`,
				`<td data-label="Devices">all</td>`, `<td data-label="Devices">1</td>`, `<td data-label="Devices">0</td>`,
				`href="/dashboard/users/{driver1}"`, "Add user"}},
		{Name: "manager: the users it manages", As: "manager", Method: "GET", Path: "/dashboard/users", Status: 200,
			Want: []string{"Dora Driver", "The users you manage."}, Absent: []string{">Ada Admin</a></td>", ">Max Manager</a></td>"}},
		{Name: "search", As: "admin", Method: "GET", Path: "/dashboard/users?q=DORA", Status: 200,
			Want: []string{"Dora Driver"}, Absent: []string{">Ada Admin</a></td>", ">Max Manager</a></td>"}},
		{Name: "expired", As: "admin", Method: "GET", Path: "/dashboard/users?state=expired", Before: past, Status: 200,
			Want: []string{"Dora Driver", `user-expired">expired`}, Absent: []string{">Ada Admin</a></td>"}},
		{Name: "active leaves the expired out", As: "admin", Method: "GET", Path: "/dashboard/users?state=active", Before: past, Status: 200,
			Want: []string{"Ada Admin"}, Absent: []string{"Dora Driver"}},
		{Name: "list fragment", As: "admin", Method: "GET", Path: "/dashboard/users?q=max",
			Header: map[string]string{"HX-Request": "true", "HX-Target": "user-list"}, Status: 200,
			Want: []string{"Max Manager"}, Absent: []string{`<nav class="nav"`, "Dora Driver"}},
		{Name: "bad state", As: "admin", Method: "GET", Path: "/dashboard/users?state=asleep", Status: 400},
	})
}

var createdUser = regexp.MustCompile(`^/dashboard/users/(\d+)\?done=created$`)

// TestUserLifecycle walks an administrator through a new user's life:
// add, limits, a device, a new password, disabled and enabled again.
func TestUserLifecycle(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	res := admin.post("/dashboard/users", url.Values{"name": {"Erin Ops"}, "email": {"erin@example.com"}, "phone": {"+49 30 1234567"},
		"password": {"erin-secret"}, "deviceLimit": {"-1"}, "userLimit": {"0"}})
	m := createdUser.FindStringSubmatch(res.Header.Get("Location"))
	if res.Status != 303 || m == nil {
		t.Fatalf("add: %d %q %.300s", res.Status, res.Header.Get("Location"), res.Body)
	}
	page := "/dashboard/users/" + m[1]
	erin := e.user(int64(atoi(t, m[1])))
	if err := e.signIn("erin@example.com", "erin-secret"); err != nil {
		t.Fatalf("the new user cannot sign in: %v", err)
	}
	webtest.Contains(t, "new user's page", admin.get(page+"?done=created").Body, "User added.", "Erin Ops", "Truck One", "Set password")

	// Limits: one device at most, read-only, expiring in 2031.
	res = admin.post(page, url.Values{"name": {"Erin Ops"}, "email": {"erin@example.com"}, "deviceLimit": {"1"}, "userLimit": {"0"},
		"readonly": {"on"}, "disableReports": {"on"}, "expirationTime": {"2031-01-01"}})
	if res.Status != 303 {
		t.Fatalf("limits: %d %.300s", res.Status, res.Body)
	}
	got := e.user(erin.ID)
	if got.DeviceLimit != 1 || !got.Readonly || !got.DisableReports || got.LimitCommands || got.ExpirationTime == nil ||
		got.ExpirationTime.UTC().Format(time.DateOnly) != "2031-01-01" || got.Phone != "" {
		t.Fatalf("after the limits: %+v", got)
	}
	webtest.Contains(t, "page after the limits", admin.get(page).Body, `value="2031-01-01"`, `name="readonly" checked`)

	// A device: she sees it through the core; a second one is over her limit.
	if res := admin.post(page+"/access", url.Values{"device": {itoa(e.IDs["truck1"])}}); res.Status != 303 {
		t.Fatalf("give truck1: %d %.300s", res.Status, res.Body)
	}
	seen, err := e.Core.Fleet.Devices.List(e.user(erin.ID), model.Query{})
	if err != nil || len(seen) != 1 || seen[0].ID != e.IDs["truck1"] {
		t.Fatalf("erin sees %v, %v", seen, err)
	}
	e.sameStore(t, "a device over the limit", func() {
		res := admin.post(page+"/access", url.Values{"device": {itoa(e.IDs["truck1"]), itoa(e.IDs["van2"])}})
		if res.Status != 422 || !strings.Contains(res.Body, "device limit is reached") || !strings.Contains(res.Body, `id="user-access"`) {
			t.Errorf("over the limit: %d %s", res.Status, res.Body[strings.Index(res.Body, "<main"):])
		}
	})
	// Unticking takes it away.
	if res := admin.post(page+"/access", url.Values{}); res.Status != 303 {
		t.Fatalf("take truck1: %d", res.Status)
	}
	if seen, _ := e.Core.Fleet.Devices.List(e.user(erin.ID), model.Query{}); len(seen) != 0 {
		t.Fatalf("erin still sees %v", seen)
	}

	// A new password: it works, the old one does not, her session ended.
	session := webtest.SessionCookie(t, e.Core, e.user(erin.ID)).Value
	if res := admin.post(page+"/password", url.Values{"newPassword": {"brand-new-secret"}}); res.Status != 303 {
		t.Fatalf("password: %d %.300s", res.Status, res.Body)
	}
	if err := e.signIn("erin@example.com", "brand-new-secret"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	if err := e.signIn("erin@example.com", "erin-secret"); err == nil {
		t.Error("the old password still works")
	}
	if _, err := e.Core.Accounts.SessionUser(session); err == nil {
		t.Error("her session survived the new password")
	}

	// Disabled, she cannot sign in; enabled, she can.
	if res := admin.post(page+"/disabled", url.Values{"disabled": {"1"}}); res.Status != 303 {
		t.Fatalf("disable: %d", res.Status)
	}
	if err := e.signIn("erin@example.com", "brand-new-secret"); err == nil || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("a disabled user signs in: %v", err)
	}
	webtest.Contains(t, "disabled user's page", admin.get(page+"?done=disabled").Body, "The user is disabled", "Enable user")
	if res := admin.post(page+"/disabled", url.Values{"disabled": {"0"}}); res.Status != 303 {
		t.Fatalf("enable: %d", res.Status)
	}
	if err := e.signIn("erin@example.com", "brand-new-secret"); err != nil {
		t.Errorf("enabled again: %v", err)
	}

	// Deleted, she is gone.
	if res := admin.post(page+"/delete", nil); res.Status != 303 {
		t.Fatalf("delete: %d", res.Status)
	}
	if res := admin.get(page); res.Status != 404 {
		t.Errorf("deleted user's page: %d", res.Status)
	}
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("%q is no number", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// Refused input comes back as the form with the problem, and stores nothing.
func TestUserFormRefusals(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	driver := "/dashboard/users/" + itoa(e.IDs["driver1"])
	details := func(email string) url.Values {
		return url.Values{"name": {"Someone"}, "email": {email}, "password": {"long-enough"}, "deviceLimit": {"-1"}, "userLimit": {"0"}}
	}
	with := func(v url.Values, key, value string) url.Values { v.Set(key, value); return v }
	cases := []struct {
		name, path string
		form       url.Values
		status     int
		want       string
	}{
		{"duplicate e-mail", "/dashboard/users", details("DRIVER1@example.com"), 422, "already exists"},
		{"short password", "/dashboard/users", with(details("new@example.com"), "password", "short"), 422, "at least 8 characters"},
		{"no e-mail", "/dashboard/users", details(""), 422, "email is required"},
		{"bad e-mail", "/dashboard/users", details("not an address"), 422, "not a valid address"},
		{"bad limit", "/dashboard/users", with(details("new@example.com"), "deviceLimit", "many"), 422, "Device limit must be a whole number"},
		{"bad expiry", "/dashboard/users", with(details("new@example.com"), "expirationTime", "soon"), 422, "the expiry must be a date"},
		{"edit to a taken e-mail", driver, details("manager@example.com"), 422, "already exists"},
		{"the last administrator", "/dashboard/users/" + itoa(e.IDs["admin"]),
			url.Values{"email": {"admin@example.com"}, "deviceLimit": {"-1"}, "userLimit": {"0"}}, 422, "the last administrator"},
		{"short new password", driver + "/password", url.Values{"newPassword": {"1234567"}}, 422, "at least 8 characters"},
		{"reset link without web.url", driver + "/reset-link", nil, 422, "web.url"},
		{"no such device", driver + "/access", url.Values{"device": {"9999"}}, 404, "device not found"},
		{"no such user", "/dashboard/users/9999", details("x@example.com"), 404, "not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.sameStore(t, tc.name, func() {
				res := admin.post(tc.path, tc.form)
				if res.Status != tc.status || !strings.Contains(res.Body, tc.want) {
					t.Errorf("%d, want %d with %q: %s", res.Status, tc.status, tc.want, res.Body[strings.Index(res.Body, "<main"):])
				}
				if tc.status == 422 && !strings.Contains(res.Body, `class="alert"`) {
					t.Errorf("no problem shown: %.300s", res.Body)
				}
			})
		})
	}
}

// A manager manages the users it manages with what it has, and sets their
// restrictions, not their limits.
func TestUserManager(t *testing.T) {
	e := newEnv(t)
	manager := e.as("manager")
	driver := "/dashboard/users/" + itoa(e.IDs["driver1"])
	adminPage := "/dashboard/users/" + itoa(e.IDs["admin"])

	page := manager.get(driver)
	webtest.Contains(t, "manager's form", page.Body, `name="readonly"`, `name="expirationTime"`, "Van Three")
	webtest.Lacks(t, "manager's form", page.Body, `name="deviceLimit"`, `name="administrator"`, "Truck One")

	for _, tc := range []struct {
		name, path string
		form       url.Values
	}{
		{"edit a user it does not manage", adminPage, url.Values{"name": {"Hijacked"}, "email": {"admin@example.com"}}},
		{"disable one", adminPage + "/disabled", url.Values{"disabled": {"1"}}},
		{"set its password", adminPage + "/password", url.Values{"newPassword": {"hijacked-pass"}}},
		{"give a device it does not have", driver + "/access", url.Values{"device": {itoa(e.IDs["truck1"])}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.sameStore(t, tc.name, func() {
				if res := manager.post(tc.path, tc.form); res.Status != 404 {
					t.Errorf("%d, want 404: %.300s", res.Status, res.Body)
				}
			})
		})
	}
	if res := manager.get(adminPage); res.Status != 404 {
		t.Errorf("a user it does not manage: %d", res.Status)
	}

	// What it may: restrict its user and give it its van; an administrator
	// flag or a device limit it sends is not read.
	res := manager.post(driver, url.Values{"name": {"Dora Driver"}, "email": {"driver1@example.com"}, "limitCommands": {"on"},
		"administrator": {"on"}, "deviceLimit": {"7"}})
	if res.Status != 303 {
		t.Fatalf("restrict: %d %.300s", res.Status, res.Body)
	}
	if got := e.user(e.IDs["driver1"]); !got.LimitCommands || got.Administrator || got.DeviceLimit != -1 {
		t.Errorf("after the manager's edit: %+v", got)
	}
	if res := manager.post(driver+"/access", url.Values{"device": {itoa(e.IDs["van3"])}}); res.Status != 303 {
		t.Fatalf("give van3: %d %.300s", res.Status, res.Body)
	}
	seen, err := e.Core.Fleet.Devices.List(e.user(e.IDs["driver1"]), model.Query{})
	if err != nil || len(seen) != 1 || seen[0].ID != e.IDs["van3"] {
		t.Fatalf("driver1 sees %v, %v", seen, err)
	}

	// A user it adds is one it manages.
	res = manager.post("/dashboard/users", url.Values{"name": {"Finn New"}, "email": {"finn@example.com"}, "password": {"finn-secret"}})
	if res.Status != 303 {
		t.Fatalf("add: %d %.300s", res.Status, res.Body)
	}
	managed, err := e.Core.Accounts.Users(e.users["manager"], 0)
	if err != nil || !slices.ContainsFunc(managed, func(u *model.User) bool { return u.Email == "finn@example.com" }) {
		t.Errorf("managed users %v, %v", managed, err)
	}
}

// With web.url set, a user can be mailed a link to choose a password.
func TestUserResetLink(t *testing.T) {
	box := &outbox{}
	e := newEnv(t, withOutbox(box), func(o *app.Options) { o.Accounts.PublicURL = "https://fleet.example" })
	admin := e.as("admin")
	driver := "/dashboard/users/" + itoa(e.IDs["driver1"])
	webtest.Contains(t, "user page", admin.get(driver).Body, "a link to choose one")
	if res := admin.post(driver+"/reset-link", nil); res.Status != 303 || res.Header.Get("Location") != driver+"?done=link" {
		t.Fatalf("reset link: %d %q", res.Status, res.Header.Get("Location"))
	}
	webtest.Contains(t, "the mail", box.last("driver1@example.com"), "https://fleet.example/reset-password?passwordReset=")
}
