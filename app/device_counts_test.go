package app_test

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// TestDeviceCounts: the counts of a users list are the totals each user's
// device list has (straight links, groups and their sub-groups, no deleted
// device), under the list's access rules.
func TestDeviceCounts(t *testing.T) {
	w := newWorld(t)
	core, admin, must, user, device := w.core, w.admin, w.must, w.user, w.device
	manager := user(admin, "manager@example.com", 5)
	driver := user(manager, "driver@example.com", 0)
	other := user(admin, "other@example.com", 0)
	vans := w.group("g", 0)
	smallVans := w.group("g", vans)
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
