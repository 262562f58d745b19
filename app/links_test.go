package app_test

import (
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
	"golang.org/x/crypto/bcrypt"
)

// TestLinks: a user's own links, as the actor may see them; not the
// devices the user reaches through a group.
func TestLinks(t *testing.T) {
	core := app.New(storagetest.Open(t), app.Options{BcryptCost: bcrypt.MinCost})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "admin-secret")
	must(err)
	manager, err := core.Accounts.CreateUser(admin, func(u *model.User) error {
		u.Email, u.Password, u.UserLimit = "manager@example.com", "secret", 5
		return nil
	})
	must(err)
	driver, err := core.Accounts.CreateUser(manager, func(u *model.User) error {
		u.Email, u.Password = "driver@example.com", "secret"
		return nil
	})
	must(err)
	group, err := core.Fleet.Groups.Create(admin, func(g *model.Group) error { g.Name = "Vans"; return nil })
	must(err)
	device := func(name string, groupID int64) int64 {
		d, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error {
			d.Name, d.UniqueID, d.GroupID = name, name, groupID
			return nil
		})
		must(err)
		return d.ID
	}
	own, hidden := device("own", 0), device("hidden", 0)
	device("grouped", group.ID) // the driver reaches it through the group
	link := func(owner, kind string, id int64) model.Permission {
		return model.Permission{OwnerKind: model.KindUser, OwnerID: map[string]int64{"manager": manager.ID, "driver": driver.ID}[owner], PropKind: kind, PropID: id}
	}
	must(core.Fleet.Link(admin, link("manager", model.KindDevice, own), link("driver", model.KindDevice, own),
		link("driver", model.KindDevice, hidden), link("driver", model.KindGroup, group.ID)))

	tests := []struct {
		name       string
		actor      *model.User
		owner      int64
		kind       string
		want       []int64
		errorClass model.Class
	}{
		{"every link, not the group's devices", admin, driver.ID, model.KindDevice, []int64{own, hidden}, 0},
		{"groups", admin, driver.ID, model.KindGroup, []int64{group.ID}, 0},
		{"a manager, of a user it manages", manager, driver.ID, model.KindDevice, []int64{own, hidden}, 0},
		{"a user its own", driver, driver.ID, model.KindGroup, []int64{group.ID}, 0},
		{"not another user's", driver, manager.ID, model.KindDevice, nil, model.ClassNotFound},
		{"no such pair", admin, driver.ID, model.KindUser, nil, model.ClassInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := core.Fleet.Links(tt.actor, model.KindUser, tt.owner, tt.kind)
			if model.ClassOf(err) != tt.errorClass {
				t.Fatalf("error %v, want class %v", err, tt.errorClass)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("links %v, want %v", got, tt.want)
			}
		})
	}
}
