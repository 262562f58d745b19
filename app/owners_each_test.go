package app_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// TestOwnersOfEach: the owners of many objects read at once are those
// Owners gives for each, under the same access rules.
func TestOwnersOfEach(t *testing.T) {
	w := newWorld(t)
	core, admin, must, device := w.core, w.admin, w.must, w.device
	manager := w.user(admin, "manager@example.com", 5)
	group := w.group("Vans", 0)
	own, hidden, grouped := device("own", 0), device("hidden", 0), device("grouped", group)
	geofence := func(owner *model.User) int64 {
		g, err := core.Fleet.Geofences.Create(owner, func(g *model.Geofence) error {
			g.Name, g.Area = owner.Email, "CIRCLE (52.5 13.4, 100)"
			return nil
		})
		must(err)
		return g.ID
	}
	mine, admins := geofence(manager), geofence(admin)
	links := []model.Permission{
		{OwnerKind: model.KindUser, OwnerID: manager.ID, PropKind: model.KindDevice, PropID: own},
		{OwnerKind: model.KindUser, OwnerID: manager.ID, PropKind: model.KindGroup, PropID: group},
		{OwnerKind: model.KindGroup, OwnerID: group, PropKind: model.KindGeofence, PropID: mine},
	}
	for _, g := range []int64{mine, admins} {
		for _, d := range []int64{own, hidden, grouped} {
			links = append(links, model.Permission{OwnerKind: model.KindDevice, OwnerID: d, PropKind: model.KindGeofence, PropID: g})
		}
	}
	must(core.Fleet.Link(admin, links...))

	tests := []struct {
		name       string
		actor      *model.User
		ids        []int64
		ownerKind  string
		want       map[int64][]int64
		errorClass model.Class
	}{
		{"a manager, the devices it sees", manager, []int64{mine}, model.KindDevice, map[int64][]int64{mine: {own, grouped}}, 0},
		{"a manager, groups", manager, []int64{mine}, model.KindGroup, map[int64][]int64{mine: {group}}, 0},
		{"an administrator, every one", admin, []int64{mine, admins}, model.KindDevice,
			map[int64][]int64{mine: {own, hidden, grouped}, admins: {own, hidden, grouped}}, 0},
		{"not another's geofence", manager, []int64{mine, admins}, model.KindDevice, nil, model.ClassNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := core.Fleet.OwnersOfEach(tt.actor, model.KindGeofence, tt.ids, tt.ownerKind)
			if model.ClassOf(err) != tt.errorClass {
				t.Fatalf("error %v, want class %v", err, tt.errorClass)
			}
			if !maps.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("owners %v, want %v", got, tt.want)
			}
			for id, want := range tt.want {
				if one, err := core.Fleet.Owners(tt.actor, model.KindGeofence, id, tt.ownerKind); err != nil || !slices.Equal(one, want) {
					t.Errorf("Owners of %d: %v %v, want %v", id, one, err, want)
				}
			}
		})
	}
}
