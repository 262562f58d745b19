package dashboard_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/prefs"
	"github.com/fleetd/fleetd/web/httpx"
	"github.com/fleetd/fleetd/web/internal/webtest"
)

func TestProfilePage(t *testing.T) {
	run(t, []scenario{
		{Name: "administrator", As: "admin", Method: "GET", Path: "/dashboard/profile", Status: 200,
			Want: []string{"Your profile", `value="Ada Admin"`, "Current password", "Send a code", "Server defaults",
				`<option value="Asia/Tokyo">`, `<option value="mph">mph</option>`, "Server default (km/h)"}},
		{Name: "manager: no server defaults", As: "manager", Method: "GET", Path: "/dashboard/profile", Status: 200,
			Want: []string{`value="Max Manager"`}, Absent: []string{"Server defaults"}},
		{Name: "the code form", As: "driver1", Method: "GET", Path: "/dashboard/profile?verify=email&value=dora%40new.example", Status: 200,
			Want: []string{"The code sent to dora@new.example", `name="code"`}},
		{Name: "no code form for another field", As: "driver1", Method: "GET", Path: "/dashboard/profile?verify=login&value=x", Status: 200,
			Absent: []string{`name="code"`}},
		{Name: "the name in the top bar links here", As: "manager", Method: "GET", Path: "/dashboard/fleet", Status: 200,
			Want: []string{`<a class="who" href="/dashboard/profile"`}},
	})
}

// The own password changes only with the right current one; the browser
// stays signed in, other sessions end.
func TestProfilePassword(t *testing.T) {
	e := newEnv(t)
	dora := e.as("driver1")
	other := e.as("driver1")
	form := func(current, next, repeat string) url.Values {
		return url.Values{"currentPassword": {current}, "newPassword": {next}, "repeatPassword": {repeat}}
	}
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"wrong current password", form("not-it", "new-secret-1", "new-secret-1"), 403, "does not match"},
		{"too short", form(password, "short", "short"), 422, "at least 8 characters"},
		{"repetition differs", form(password, "new-secret-1", "new-secret-2"), 422, "differ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.sameStore(t, tc.name, func() {
				res := dora.post("/dashboard/profile/password", tc.form)
				if res.Status != tc.status || !strings.Contains(res.Body, tc.want) || !strings.Contains(res.Body, `id="profile-password"`) {
					t.Errorf("%d, want %d with %q: %.300s", res.Status, tc.status, tc.want, res.Body)
				}
			})
		})
	}
	if err := e.signIn("driver1@example.com", password); err != nil {
		t.Fatalf("a refused change changed the password: %v", err)
	}

	res := dora.post("/dashboard/profile/password", form(password, "new-secret-1", "new-secret-1"))
	if res.Status != 303 || res.Header.Get("Location") != "/dashboard/profile?done=password" {
		t.Fatalf("change: %d %q %.300s", res.Status, res.Header.Get("Location"), res.Body)
	}
	if err := e.signIn("driver1@example.com", "new-secret-1"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	if err := e.signIn("driver1@example.com", password); err == nil {
		t.Error("the old password still works")
	}
	cookie := res.Cookie(httpx.SessionCookie)
	if cookie == nil || cookie.Value == "" {
		t.Fatal("no new session for the browser that changed the password")
	}
	if page := (&client{e: e, session: cookie.Value}).get("/dashboard/profile?done=password"); page.Status != 200 ||
		!strings.Contains(page.Body, "Password changed") {
		t.Errorf("with the new session: %d", page.Status)
	}
	if page := other.get("/dashboard/profile"); page.Status != 303 {
		t.Errorf("another session survived the change: %d", page.Status)
	}
}

var sixDigits = regexp.MustCompile(`\b\d{6}\b`)

// E-mail and phone change with the code sent to the new address or number.
func TestProfileContact(t *testing.T) {
	box := &outbox{}
	e := newEnv(t, withOutbox(box))
	dora := e.as("driver1")
	for _, tc := range []struct{ field, value, to string }{
		{"email", "dora@new.example", "dora@new.example"},
		{"phone", "+49 171 555 0101", "+491715550101"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			res := dora.post("/dashboard/profile/contact", url.Values{"field": {tc.field}, "value": {tc.value}})
			verify := "/dashboard/profile?" + url.Values{"verify": {tc.field}, "value": {tc.value}}.Encode()
			if res.Status != 303 || res.Header.Get("Location") != verify {
				t.Fatalf("start: %d %q %.300s", res.Status, res.Header.Get("Location"), res.Body)
			}
			code := sixDigits.FindString(box.last(tc.to))
			if code == "" {
				t.Fatalf("no code sent to %s: %v", tc.to, box.sent)
			}
			webtest.Contains(t, "code form", dora.get(verify).Body, "The code sent to "+tc.value)
			wrong := "000000"
			if code == wrong {
				wrong = "111111"
			}
			res = dora.post("/dashboard/profile/contact/verify", url.Values{"field": {tc.field}, "value": {tc.value}, "code": {wrong}})
			if res.Status != 422 || !strings.Contains(res.Body, "Invalid OTP") || !strings.Contains(res.Body, `name="code"`) {
				t.Fatalf("wrong code: %d %.300s", res.Status, res.Body)
			}
			res = dora.post("/dashboard/profile/contact/verify", url.Values{"field": {tc.field}, "value": {tc.value}, "code": {code}})
			if res.Status != 303 || res.Header.Get("Location") != "/dashboard/profile?done="+tc.field {
				t.Fatalf("verify: %d %q %.300s", res.Status, res.Header.Get("Location"), res.Body)
			}
		})
	}
	if got := e.user(e.IDs["driver1"]); got.Email != "dora@new.example" || got.Phone != "+491715550101" {
		t.Errorf("after the changes: %q %q", got.Email, got.Phone)
	}
	// Taken by another account: refused before any code is sent.
	res := dora.post("/dashboard/profile/contact", url.Values{"field": {"email"}, "value": {"admin@example.com"}})
	if res.Status != 422 || !strings.Contains(res.Body, "Account already exists") || box.last("admin@example.com") != "" {
		t.Errorf("taken e-mail: %d %.300s", res.Status, res.Body)
	}
}

// The viewer's preferences change what the pages show; the server's apply
// to those who chose none.
func TestProfilePreferences(t *testing.T) {
	e := newEnv(t)
	admin := e.as("admin")
	truck := "/dashboard/fleet/devices/" + itoa(e.IDs["truck1"])
	webtest.Contains(t, "vehicle before", admin.get(truck).Body, `>50 km/h<`, ` UTC<`)
	res := admin.post("/dashboard/profile", url.Values{"name": {"Ada A."}, "timezone": {"Asia/Tokyo"}, "speedUnit": {"mph"},
		"distanceUnit": {"mi"}, "twelveHourFormat": {"on"}})
	if res.Status != 303 {
		t.Fatalf("save: %d %.300s", res.Status, res.Body)
	}
	page := admin.get(truck).Body
	webtest.Contains(t, "vehicle in mph and Tokyo time", page, `>31 mph<`, ` JST<`, "Ada A.")
	if strings.Contains(page, " PM JST") == strings.Contains(page, " AM JST") {
		t.Errorf("twelve-hour clock: %.300s", page)
	}

	for _, tc := range []struct{ name, field, value, want string }{
		{"bad time zone", "timezone", "Mars/Olympus", "not a valid time zone"},
		{"bad speed unit", "speedUnit", "furlongs", "not a valid speed unit"},
	} {
		e.sameStore(t, tc.name, func() {
			res := admin.post("/dashboard/profile", url.Values{"name": {"Ada"}, tc.field: {tc.value}})
			if res.Status != 422 || !strings.Contains(res.Body, tc.want) {
				t.Errorf("%s: %d %.300s", tc.name, res.Status, res.Body)
			}
		})
	}

	// Server defaults: the manager has none of its own.
	manager := e.as("manager")
	e.sameStore(t, "a bad currency", func() {
		res := admin.post("/dashboard/profile/server", url.Values{"currency": {"EURO"}, "speedUnit": {"kn"}})
		if res.Status != 422 || !strings.Contains(res.Body, "not a valid currency") || !strings.Contains(res.Body, `value="EURO"`) {
			t.Errorf("bad currency: %d %.300s", res.Status, res.Body)
		}
	})
	e.sameStore(t, "a manager's server defaults", func() {
		if res := manager.post("/dashboard/profile/server", url.Values{"speedUnit": {"kn"}}); res.Status != 403 {
			t.Errorf("manager: %d", res.Status)
		}
	})
	if res := admin.post("/dashboard/profile/server", url.Values{"currency": {"EUR"}, "speedUnit": {"kn"}, "timezone": {"Asia/Kolkata"}}); res.Status != 303 {
		t.Fatalf("server defaults: %d %.300s", res.Status, res.Body)
	}
	srv, err := e.Core.Accounts.Server()
	if err != nil || srv.Attributes[prefs.CurrencyAttribute] != "EUR" {
		t.Fatalf("server: %v %v", srv, err)
	}
	webtest.Contains(t, "manager's vehicle in knots, India time", manager.get("/dashboard/fleet/devices/"+itoa(e.IDs["van3"])).Body, `>0 kn<`, ` IST<`)
	webtest.Contains(t, "admin's own choice wins", admin.get(truck).Body, `>31 mph<`)
	webtest.Contains(t, "manager's profile names the defaults", manager.get("/dashboard/profile").Body, "Server default (kn)", "Server default (Asia/Kolkata)")

	// Clearing a preference falls back to the server's.
	if res := admin.post("/dashboard/profile", url.Values{"name": {"Ada A."}}); res.Status != 303 {
		t.Fatalf("clear: %d", res.Status)
	}
	if got := e.user(e.IDs["admin"]); len(got.Attributes) != 0 || got.TwelveHourFormat {
		t.Errorf("cleared preferences: %v %v", got.Attributes, got.TwelveHourFormat)
	}
	webtest.Contains(t, "admin's vehicle after clearing", admin.get(truck).Body, `>27 kn<`)
}

// A read-only account (or every account of a read-only server) still sets
// its display preferences and password on the profile; the rest of the
// account is refused, and the page says so.
func TestProfileReadonly(t *testing.T) {
	for _, tc := range []struct {
		name         string
		makeReadonly func(e *env)
	}{
		{"read-only user", func(e *env) { e.set("driver1", func(u *model.User) { u.Readonly = true }) }},
		{"read-only server", func(e *env) {
			if _, err := e.Core.Accounts.UpdateServer(model.System(), func(s *model.Server) error { s.Readonly = true; return nil }); err != nil {
				e.t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			tc.makeReadonly(e)
			dora := e.as("driver1")
			webtest.Contains(t, "profile", dora.get("/dashboard/profile").Body, "Your account is read-only")
			details := func(name string) url.Values {
				return url.Values{"name": {name}, prefs.ZoneAttribute: {"Europe/Berlin"}, prefs.SpeedAttribute: {"mph"}, "twelveHourFormat": {"on"}}
			}
			e.sameStore(t, "a new name", func() {
				if res := dora.post("/dashboard/profile", details("Renamed")); res.Status != 403 ||
					!strings.Contains(res.Body, "only its password and display preferences") {
					t.Errorf("a new name: %d %.300s", res.Status, res.Body)
				}
			})
			if res := dora.post("/dashboard/profile", details("Dora Driver")); res.Status != 303 {
				t.Fatalf("preferences: %d %.300s", res.Status, res.Body)
			}
			if got := e.user(e.IDs["driver1"]); got.Attributes[prefs.ZoneAttribute] != "Europe/Berlin" || !got.TwelveHourFormat || got.Name != "Dora Driver" {
				t.Errorf("after the preferences: %+v", got)
			}
			res := dora.post("/dashboard/profile/password",
				url.Values{"currentPassword": {password}, "newPassword": {"new-secret-1"}, "repeatPassword": {"new-secret-1"}})
			if res.Status != 303 {
				t.Fatalf("password: %d %.300s", res.Status, res.Body)
			}
			if err := e.signIn("driver1@example.com", "new-secret-1"); err != nil {
				t.Errorf("the new password: %v", err)
			}
		})
	}
}
