package dashboard_test

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

// set changes a user through the core, as the system.
func (e *env) set(name string, apply func(u *model.User)) {
	e.t.Helper()
	_, err := e.Core.Accounts.UpdateUser(model.System(), e.IDs[name], func(u *model.User) error { apply(u); return nil })
	if err != nil {
		e.t.Fatal(err)
	}
}

var expiryField = regexp.MustCompile(`name="expirationTime" value="([^"]*)"`)

// shownExpiry is the expiry date the user page shows the client.
func (c *client) shownExpiry(t *testing.T, page string) string {
	t.Helper()
	m := expiryField.FindStringSubmatch(c.get(page).Body)
	if m == nil {
		t.Fatalf("no expiry field on %s", page)
	}
	return m[1]
}

// Saving a user's other fields leaves the expiry instant as stored; a new
// date is the start of that day in the editor's zone.
func TestUserExpiryKept(t *testing.T) {
	e := newEnv(t)
	expiry := time.Date(2030, 6, 15, 3, 30, 0, 0, time.UTC) // still the 14th in Los Angeles
	e.set("admin", func(u *model.User) { u.Attributes["timezone"] = "America/Los_Angeles" })
	e.set("driver1", func(u *model.User) { u.ExpirationTime = &expiry })
	admin := e.as("admin")
	driver := "/dashboard/users/" + itoa(e.IDs["driver1"])
	shown := admin.shownExpiry(t, driver)
	if shown != "2030-06-14" {
		t.Fatalf("shown %q, want the date in Los Angeles", shown)
	}
	form := func(phone, expiry string) url.Values {
		return url.Values{"name": {"Dora Driver"}, "email": {"driver1@example.com"}, "phone": {phone},
			"expirationTime": {expiry}, "deviceLimit": {"-1"}, "userLimit": {"0"}}
	}
	if res := admin.post(driver, form("+49 30 555", shown)); res.Status != 303 {
		t.Fatalf("phone: %d %.300s", res.Status, res.Body)
	}
	if got := e.user(e.IDs["driver1"]); got.Phone != "+49 30 555" || got.ExpirationTime == nil || !got.ExpirationTime.Equal(expiry) {
		t.Errorf("after editing the phone: phone %q, expiry %v, want %v kept", got.Phone, got.ExpirationTime, expiry)
	}
	if res := admin.post(driver, form("+49 30 555", "2030-07-01")); res.Status != 303 {
		t.Fatalf("new date: %d %.300s", res.Status, res.Body)
	}
	want := time.Date(2030, 7, 1, 7, 0, 0, 0, time.UTC) // midnight in Los Angeles (PDT)
	if got := e.user(e.IDs["driver1"]).ExpirationTime; got == nil || !got.Equal(want) {
		t.Errorf("a new date: %v, want %v", got, want)
	}
}

// A manager whose own account expires before its user's still saves the
// user's other fields; extending the user past its own expiry stays refused.
func TestUserExpiryManager(t *testing.T) {
	e := newEnv(t)
	own, users := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2030, 6, 15, 18, 30, 0, 0, time.UTC)
	e.set("manager", func(u *model.User) { u.ExpirationTime = &own })
	e.set("driver1", func(u *model.User) { u.ExpirationTime = &users })
	manager := e.as("manager")
	driver := "/dashboard/users/" + itoa(e.IDs["driver1"])
	form := func(name, expiry string) url.Values {
		return url.Values{"name": {name}, "email": {"driver1@example.com"}, "expirationTime": {expiry}}
	}
	if res := manager.post(driver, form("Dora D.", manager.shownExpiry(t, driver))); res.Status != 303 {
		t.Fatalf("rename: %d %.300s", res.Status, res.Body)
	}
	if got := e.user(e.IDs["driver1"]); got.Name != "Dora D." || !got.ExpirationTime.Equal(users) {
		t.Errorf("after the rename: %q, expiry %v", got.Name, got.ExpirationTime)
	}
	e.sameStore(t, "a later expiry", func() {
		if res := manager.post(driver, form("Dora D.", "2031-01-01")); res.Status != 403 ||
			!strings.Contains(res.Body, "Not allowed to change the expiration time") {
			t.Errorf("a later expiry: %d", res.Status)
		}
	})
}

// One's own password, e-mail and phone change on the profile (the current
// password, a code), not through the users pages.
func TestUserSelf(t *testing.T) {
	e := newEnv(t)
	for _, name := range []string{"admin", "manager"} {
		t.Run(name, func(t *testing.T) {
			c := e.as(name)
			page := "/dashboard/users/" + itoa(e.IDs[name])
			e.sameStore(t, "own password", func() {
				res := c.post(page+"/password", url.Values{"newPassword": {"hijacked-pass"}})
				if res.Status != 403 || !strings.Contains(res.Body, "on your profile") {
					t.Errorf("own password: %d %.300s", res.Status, res.Body)
				}
			})
			body := c.get(page).Body
			webtest.Contains(t, "own page", body, `<a href="/dashboard/profile">your profile</a>`)
			webtest.Lacks(t, "own page", body, `name="email"`, `name="phone"`)

			before := e.user(e.IDs[name])
			res := c.post(page, url.Values{"name": {"Renamed"}, "email": {"stolen@example.com"}, "phone": {"+15550001"},
				"deviceLimit": {strconv.Itoa(before.DeviceLimit)}, "userLimit": {strconv.Itoa(before.UserLimit)}, "administrator": {map[bool]string{true: "on"}[before.Administrator]}})
			if res.Status != 303 || res.Header.Get("Location") != page+"?done=saved" {
				t.Fatalf("own details: %d %q %.300s", res.Status, res.Header.Get("Location"), res.Body)
			}
			if got := e.user(e.IDs[name]); got.Name != "Renamed" || got.Email != before.Email || got.Phone != before.Phone {
				t.Errorf("own details: name %q, e-mail %q, phone %q; want the e-mail and phone kept", got.Name, got.Email, got.Phone)
			}
		})
	}
}
