package app_test

import (
	"testing"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// TestGeofenceLinks: a form's device list links each device once however
// often it names it, refuses more than a bulk change may hold, and never
// links a device the manager does not see.
func TestGeofenceLinks(t *testing.T) {
	w := newWorld(t)
	core, admin := w.core, w.admin
	manager := w.user(admin, "manager@example.com", 5)
	device := func(name string) int64 { return w.device(name, 0) }
	mine, theirs := device("mine"), device("theirs")
	if err := core.Fleet.Link(admin, model.Permission{OwnerKind: model.KindUser, OwnerID: manager.ID, PropKind: model.KindDevice, PropID: mine}); err != nil {
		t.Fatal(err)
	}
	area := func(g *model.Geofence) error { g.Name, g.Area = "Depot", "CIRCLE (52.5 13.4, 100)"; return nil }

	repeated := make([]int64, 5000)
	for i := range repeated {
		repeated[i] = mine
	}
	many := make([]int64, fleet.MaxBulkPermissions+1)
	for i := range many {
		many[i] = int64(i + 1)
	}
	tests := []struct {
		name    string
		devices []int64
		class   model.Class
		linked  int
	}{
		{"one device named 5,000 times", repeated, 0, 1},
		{"more than a bulk change", many, model.ClassInvalid, 0},
		{"a device the manager does not see", []int64{mine, theirs}, model.ClassNotFound, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := core.Fleet.SaveGeofence(manager, 0, area, fleet.Links{model.KindDevice: tt.devices})
			if model.ClassOf(err) != tt.class {
				t.Fatalf("got %v, want class %d", err, tt.class)
			}
			if err != nil {
				return
			}
			owners, err := core.Fleet.Owners(admin, model.KindGeofence, g.ID, model.KindDevice)
			if err != nil || len(owners) != tt.linked {
				t.Errorf("linked devices %v (%v), want %d", owners, err, tt.linked)
			}
		})
	}
	// A refused form stores nothing: only the first case's geofence exists.
	if all, err := core.Fleet.Geofences.List(admin, model.Query{}); err != nil || len(all) != 1 {
		t.Errorf("geofences after the refusals: %d (%v), want 1", len(all), err)
	}
}
