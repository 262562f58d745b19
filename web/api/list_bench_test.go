package api_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/web"
	"github.com/fleetd/fleetd/web/internal/webtest"
	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"
)

// benchDevices is the fleet size of the measurement (GET
// /api/devices?uniqueId= took 130-180 ms with 29,000 devices).
const benchDevices = 29000

// benchFleet is a real bbolt store with benchDevices devices: the admin
// sees them all, "manager" is linked to every one, "user" to ten of them.
// Callers are identified by session cookies, so no bcrypt check is
// measured.
func benchFleet(b *testing.B) (*fiber.App, map[string]*http.Cookie) {
	b.Helper()
	db := webtest.OpenStore(b)
	core := app.New(db, app.Options{Version: "bench", BcryptCost: bcrypt.MinCost})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "admin-secret")
	must(b, err)
	user, err := core.Accounts.CreateUser(admin, func(u *model.User) error {
		u.Name, u.Email, u.Password = "user", "user@example.com", "user-secret"
		return nil
	})
	must(b, err)
	manager, err := core.Accounts.CreateUser(admin, func(u *model.User) error {
		u.Name, u.Email, u.Password, u.UserLimit = "manager", "manager@example.com", "manager-secret", 10
		return nil
	})
	must(b, err)
	must(b, db.Update(func(tx model.Tx) error {
		for i := range benchDevices {
			d := &model.Device{Name: fmt.Sprintf("Truck %05d", i), UniqueID: fmt.Sprintf("8680%011d", i),
				Phone: fmt.Sprintf("+4917%08d", i), Model: "GT06", Status: model.StatusOffline, Attributes: model.Attributes{}}
			if err := tx.Devices().Create(d); err != nil {
				return err
			}
			err := tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: manager.ID, PropKind: model.KindDevice, PropID: d.ID})
			if err == nil && i%(benchDevices/10) == 0 {
				err = tx.Link(model.Permission{OwnerKind: model.KindUser, OwnerID: user.ID, PropKind: model.KindDevice, PropID: d.ID})
			}
			if err != nil {
				return err
			}
		}
		return nil
	}))
	cookies := map[string]*http.Cookie{}
	for name, u := range map[string]*model.User{"admin": admin, "manager": manager, "user": user} {
		cookies[name] = webtest.SessionCookie(b, core, u)
	}
	return web.New(core, web.Options{Logger: slog.New(slog.DiscardHandler)}), cookies
}

// BenchmarkDeviceLookup is GET /api/devices filtered by uniqueId or id, the
// call a client makes to find one device among many.
func BenchmarkDeviceLookup(b *testing.B) {
	f, cookies := benchFleet(b)
	middle := benchDevices / 2 // device ids count from 1, uniqueIds from 0
	for _, c := range []struct{ name, as, path string }{
		{"admin/uniqueId", "admin", fmt.Sprintf("/api/devices?uniqueId=8680%011d", middle)},
		{"admin/id", "admin", fmt.Sprintf("/api/devices?id=%d", middle+1)},
		{"user/uniqueId", "user", fmt.Sprintf("/api/devices?uniqueId=8680%011d", benchDevices/10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				benchGet(b, f, cookies[c.as], c.path, 1)
			}
		})
	}
}

// BenchmarkDeviceList is GET /api/devices whole, as Traccar's clients ask
// for it, and paged or searched: as the administrator (the whole table is
// read), as a manager linked to every device and as a user linked to ten
// (the linked ids are read).
func BenchmarkDeviceList(b *testing.B) {
	f, cookies := benchFleet(b)
	for _, c := range []struct {
		name, as, path string
		want           int
	}{
		{"admin/all", "admin", "/api/devices", benchDevices},
		{"manager/all", "manager", "/api/devices", benchDevices},
		{"user/all", "user", "/api/devices", 10},
		{"admin/limit50", "admin", "/api/devices?limit=50&offset=14000", 50},
		{"admin/keyword", "admin", "/api/devices?keyword=truck%2014500", 1},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				benchGet(b, f, cookies[c.as], c.path, c.want)
			}
		})
	}
}

// benchGet sends one GET with a session cookie and checks it answers want
// items.
func benchGet(b *testing.B, f *fiber.App, cookie *http.Cookie, path string, want int) {
	req := webtest.NewRequest(http.MethodGet, path, "", "")
	req.AddCookie(cookie)
	r := webtest.Do(b, f, req)
	var list []map[string]any
	if r.Decode(b, &list); r.Status != http.StatusOK || len(list) != want {
		b.Fatalf("GET %s: status %d, %d items, want %d", path, r.Status, len(list), want)
	}
}
