package app_test

import (
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
	"golang.org/x/crypto/bcrypt"
)

// TestDeviceCounts: the counts of a users list are the totals each user's
// device list has (straight links, groups and their sub-groups, no deleted
// device), under the list's access rules.
func TestDeviceCounts(t *testing.T) {
	core := app.New(storagetest.Open(t), app.Options{BcryptCost: bcrypt.MinCost})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "admin-secret")
	must(err)
	user := func(actor *model.User, email string, userLimit int) *model.User {
		u, err := core.Accounts.CreateUser(actor, func(u *model.User) error {
			u.Email, u.Password, u.UserLimit = email, "secret", userLimit
			return nil
		})
		must(err)
		return u
	}
	manager := user(admin, "manager@example.com", 5)
	driver := user(manager, "driver@example.com", 0)
	other := user(admin, "other@example.com", 0)
	group := func(parent int64) int64 {
		g, err := core.Fleet.Groups.Create(admin, func(g *model.Group) error { g.Name, g.GroupID = "g", parent; return nil })
		must(err)
		return g.ID
	}
	vans := group(0)
	smallVans := group(vans)
	device := func(name string, groupID int64) int64 {
		d, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error {
			d.Name, d.UniqueID, d.GroupID = name, name, groupID
			return nil
		})
		must(err)
		return d.ID
	}
	own, gone := device("own", 0), device("gone", 0)
	device("van", vans)
	device("small van", smallVans)
	link := func(owner *model.User, kind string, id int64) model.Permission {
		return model.Permission{OwnerKind: model.KindUser, OwnerID: owner.ID, PropKind: kind, PropID: id}
	}
	must(core.Fleet.Link(admin, link(driver, model.KindDevice, own), link(driver, model.KindDevice, gone),
		link(driver, model.KindGroup, vans), link(other, model.KindDevice, own)))
	must(core.Fleet.Devices.Delete(admin, gone))

	counts, err := core.Fleet.DeviceCounts(admin, []int64{manager.ID, driver.ID, other.ID})
	must(err)
	for _, u := range []*model.User{manager, driver, other} {
		_, total, err := core.Fleet.Devices.Page(admin, model.Query{UserID: u.ID, Limit: 1})
		must(err)
		if counts[u.ID] != total {
			t.Errorf("%s: %d devices counted, the list has %d", u.Email, counts[u.ID], total)
		}
	}
	if counts[driver.ID] != 3 {
		t.Errorf("driver: %d devices, want 3 (own, van, small van)", counts[driver.ID])
	}
	for _, tc := range []struct {
		name  string
		actor *model.User
		users []int64
		class model.Class
	}{
		{"a manager, a user it does not manage", manager, []int64{driver.ID, other.ID}, model.ClassNotFound},
		{"a plain user, another user", driver, []int64{other.ID}, model.ClassForbidden},
	} {
		if _, err := core.Fleet.DeviceCounts(tc.actor, tc.users); model.ClassOf(err) != tc.class {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.class)
		}
	}
	if counts, err := core.Fleet.DeviceCounts(driver, []int64{driver.ID}); err != nil || counts[driver.ID] != 3 {
		t.Errorf("the driver's own count: %v, %v", counts, err)
	}
}
