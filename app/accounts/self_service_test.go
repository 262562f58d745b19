package accounts_test

import (
	"log/slog"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/accounts"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// A read-only user (or any user of a read-only server) may change their own
// password and display preferences, nothing else of their account, and
// nothing of another account.
func TestReadonlySelfService(t *testing.T) {
	change := func(apply func(*model.User)) func(*model.User) error {
		return func(u *model.User) error { apply(u); return nil }
	}
	prefsOnly := change(func(u *model.User) {
		u.TwelveHourFormat, u.Zoom = true, 9
		u.Attributes["timezone"], u.Attributes["speedUnit"] = "Europe/Berlin", "mph"
	})
	for _, tc := range []struct {
		name           string
		serverReadonly bool
		other          bool // the change is to another account
		demo           bool // the account is a demo login's
		apply          func(*model.User) error
		allowed        bool
	}{
		{name: "password", apply: change(func(u *model.User) { u.Password = "a-new-secret" }), allowed: true},
		{name: "display preferences", apply: prefsOnly, allowed: true},
		{name: "preferences on a read-only server", serverReadonly: true, apply: prefsOnly, allowed: true},
		{name: "a demo account's password", demo: true, apply: change(func(u *model.User) { u.Password = "a-new-secret" })},
		{name: "a demo account's preferences", demo: true, apply: prefsOnly, allowed: true},
		{name: "name", apply: change(func(u *model.User) { u.Name = "Renamed" })},
		{name: "phone", apply: change(func(u *model.User) { u.Phone = "+15551234567" })},
		{name: "another attribute", apply: change(func(u *model.User) { u.Attributes["speedLimit"] = 99.0 })},
		{name: "own restriction", apply: change(func(u *model.User) { u.Readonly = false })},
		{name: "name on a read-only server", serverReadonly: true, apply: change(func(u *model.User) { u.Name = "Renamed" })},
		{name: "another account's preferences", other: true, apply: prefsOnly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc := accounts.New(storagetest.Open(t), accounts.Config{BcryptCost: 4}, time.Now, slog.New(slog.DiscardHandler))
			create := func(actor *model.User, email string, apply func(*model.User)) *model.User {
				u, err := acc.CreateUser(actor, func(u *model.User) error {
					u.Email, u.Password = email, "first-secret"
					apply(u)
					return nil
				})
				must(t, err)
				return u
			}
			create(model.System(), "admin@example.com", func(u *model.User) { u.Administrator = true })
			manager := create(model.System(), "manager@example.com", func(u *model.User) {
				u.UserLimit, u.Attributes = 5, model.Attributes{"demo": tc.demo}
			})
			target := manager
			if tc.other {
				target = create(manager, "driver@example.com", func(*model.User) {})
			}
			var err error
			if tc.serverReadonly {
				_, err = acc.UpdateServer(model.System(), func(s *model.Server) error { s.Readonly = true; return nil })
			} else {
				manager, err = acc.UpdateUser(model.System(), manager.ID, func(u *model.User) error { u.Readonly = true; return nil })
			}
			must(t, err)
			before, _ := acc.User(model.System(), target.ID)
			after, err := acc.UpdateUser(manager, target.ID, tc.apply)
			stored, _ := acc.User(model.System(), target.ID)
			switch {
			case tc.allowed && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.allowed && (stored.PasswordHash != after.PasswordHash || stored.TwelveHourFormat != after.TwelveHourFormat ||
				stored.Attributes["timezone"] != after.Attributes["timezone"]):
				t.Errorf("stored %+v, want %+v", stored, after)
			case !tc.allowed && model.ClassOf(err) != model.ClassForbidden:
				t.Fatalf("got %v, want a refusal", err)
			case !tc.allowed && (stored.Name != before.Name || stored.Phone != before.Phone || stored.Readonly != before.Readonly ||
				stored.TwelveHourFormat != before.TwelveHourFormat || stored.Attributes["speedLimit"] != nil ||
				stored.PasswordHash != before.PasswordHash):
				t.Errorf("refused but stored: %+v", stored)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
