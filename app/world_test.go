package app_test

import (
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
	"golang.org/x/crypto/bcrypt"
)

// world is a core on a fresh store with its first administrator, for the
// tests that build a small fleet of users, groups and devices.
type world struct {
	t     *testing.T
	core  *app.Core
	admin *model.User
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, core: app.New(storagetest.Open(t), app.Options{BcryptCost: bcrypt.MinCost})}
	admin, _, err := w.core.Accounts.Bootstrap("admin@example.com", "admin-secret")
	w.must(err)
	w.admin = admin
	return w
}

func (w *world) must(err error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatal(err)
	}
}

// user adds a user as actor (a manager when userLimit is not 0).
func (w *world) user(actor *model.User, email string, userLimit int) *model.User {
	w.t.Helper()
	u, err := w.core.Accounts.CreateUser(actor, func(u *model.User) error {
		u.Email, u.Password, u.UserLimit = email, "secret", userLimit
		return nil
	})
	w.must(err)
	return u
}

// group adds a group (in parent, 0: none) and returns its id.
func (w *world) group(name string, parent int64) int64 {
	w.t.Helper()
	g, err := w.core.Fleet.Groups.Create(w.admin, func(g *model.Group) error { g.Name, g.GroupID = name, parent; return nil })
	w.must(err)
	return g.ID
}

// device adds a device (in group, 0: none) named and identified by name.
func (w *world) device(name string, group int64) int64 {
	w.t.Helper()
	d, err := w.core.Fleet.Devices.Create(w.admin, func(d *model.Device) error {
		d.Name, d.UniqueID, d.GroupID = name, name, group
		return nil
	})
	w.must(err)
	return d.ID
}
