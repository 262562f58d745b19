package dashboard_test

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// listWorld is a manager who sees 500 vehicles through a group (so every
// visibility check reads the groups and devices) and has 100 alerts and
// 100 geofences, each linked to three of the vehicles.
func listWorld(b *testing.B) *client {
	e := newEnv(b)
	admin, manager := e.users["admin"], e.users["manager"]
	group, err := e.Core.Fleet.Groups.Create(admin, func(g *model.Group) error { g.Name = "Depot"; return nil })
	if err != nil {
		b.Fatal(err)
	}
	var devices []int64
	for i := range 500 {
		d, err := e.Core.Fleet.Devices.Create(admin, func(d *model.Device) error {
			d.Name, d.UniqueID, d.GroupID = fmt.Sprintf("Vehicle %03d", i), fmt.Sprintf("8700000%08d", i), group.ID
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		devices = append(devices, d.ID)
	}
	links := []model.Permission{{OwnerKind: model.KindUser, OwnerID: manager.ID, PropKind: model.KindGroup, PropID: group.ID}}
	for i := range 100 {
		n, err := e.Core.Fleet.Notifications.Create(manager, func(n *model.Notification) error {
			n.Type, n.Notificators, n.Description = model.EventIgnitionOn, model.NotifyWeb, fmt.Sprintf("Alert %d", i)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		g, err := e.Core.Fleet.Geofences.Create(manager, func(g *model.Geofence) error {
			g.Name, g.Area = fmt.Sprintf("Yard %d", i), "CIRCLE (52.5 13.4, 100)"
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range devices[i*3 : i*3+3] {
			links = append(links,
				model.Permission{OwnerKind: model.KindDevice, OwnerID: d, PropKind: model.KindNotification, PropID: n.ID},
				model.Permission{OwnerKind: model.KindDevice, OwnerID: d, PropKind: model.KindGeofence, PropID: g.ID})
		}
	}
	if err := e.Core.Fleet.Link(admin, links...); err != nil {
		b.Fatal(err)
	}
	return e.as("manager")
}

// BenchmarkAlertsPage and BenchmarkGeofencesPage measure the server side
// of the list pages for listWorld's manager.
func BenchmarkAlertsPage(b *testing.B)    { benchmarkPage(b, "/dashboard/alerts") }
func BenchmarkGeofencesPage(b *testing.B) { benchmarkPage(b, "/dashboard/geofences") }

func benchmarkPage(b *testing.B, path string) {
	manager := listWorld(b)
	for b.Loop() {
		if res := manager.get(path); res.Status != 200 {
			b.Fatal(res.Status, res.Body)
		}
	}
}
