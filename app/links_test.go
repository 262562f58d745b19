package app_test

import (
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// TestLinks: a user's own links, as the actor may see them; not the
// devices the user reaches through a group.
func TestLinks(t *testing.T) {
	w := newWorld(t)
	core, admin, must, device := w.core, w.admin, w.must, w.device
	manager := w.user(admin, "manager@example.com", 5)
	driver := w.user(manager, "driver@example.com", 0)
	group := w.group("Vans", 0)
	own, hidden := device("own", 0), device("hidden", 0)
	device("grouped", group) // the driver reaches it through the group
	link := func(owner, kind string, id int64) model.Permission {
		return model.Permission{OwnerKind: model.KindUser, OwnerID: map[string]int64{"manager": manager.ID, "driver": driver.ID}[owner], PropKind: kind, PropID: id}
	}
	must(core.Fleet.Link(admin, link("manager", model.KindDevice, own), link("driver", model.KindDevice, own),
		link("driver", model.KindDevice, hidden), link("driver", model.KindGroup, group)))

	tests := []struct {
		name       string
		actor      *model.User
		owner      int64
		kind       string
		want       []int64
		errorClass model.Class
	}{
		{"every link, not the group's devices", admin, driver.ID, model.KindDevice, []int64{own, hidden}, 0},
		{"groups", admin, driver.ID, model.KindGroup, []int64{group}, 0},
		{"a manager, of a user it manages", manager, driver.ID, model.KindDevice, []int64{own, hidden}, 0},
		{"a user its own", driver, driver.ID, model.KindGroup, []int64{group}, 0},
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
