package dashboard_test

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// BenchmarkUsersPage: an administrator's users list of about 200 users
// over 500 devices, each user given a few devices and a group of ten.
func BenchmarkUsersPage(b *testing.B) {
	e := newEnv(b)
	admin := e.users["admin"]
	var groups []int64
	for i := range 50 {
		g, err := e.Core.Fleet.Groups.Create(admin, func(g *model.Group) error { g.Name = fmt.Sprintf("Group %d", i); return nil })
		if err != nil {
			b.Fatal(err)
		}
		groups = append(groups, g.ID)
	}
	var devices []int64
	for i := range 500 {
		d, err := e.Core.Fleet.Devices.Create(admin, func(d *model.Device) error {
			d.Name, d.UniqueID, d.GroupID = fmt.Sprintf("Bench %d", i), fmt.Sprintf("bench-%d", i), groups[i%len(groups)]
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		devices = append(devices, d.ID)
	}
	var links []model.Permission
	for i := range 200 {
		u, err := e.Core.Accounts.CreateUser(admin, func(u *model.User) error {
			u.Name, u.Email, u.Password = fmt.Sprintf("Bench %d", i), fmt.Sprintf("bench%d@example.com", i), password
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		link := func(kind string, id int64) model.Permission {
			return model.Permission{OwnerKind: model.KindUser, OwnerID: u.ID, PropKind: kind, PropID: id}
		}
		links = append(links, link(model.KindGroup, groups[i%len(groups)]),
			link(model.KindDevice, devices[i%len(devices)]), link(model.KindDevice, devices[(i*7)%len(devices)]))
	}
	if err := e.Core.Fleet.Link(admin, links...); err != nil {
		b.Fatal(err)
	}
	client := e.as("admin")
	for b.Loop() {
		if res := client.get("/dashboard/users"); res.Status != 200 {
			b.Fatalf("users page: %d", res.Status)
		}
	}
}
