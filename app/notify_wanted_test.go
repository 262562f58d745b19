package app_test

import (
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// An event no notification is of costs the ingest no notification job
// (most events of most servers: deviceMoving of every tracker); once a
// notification of its type is created, the next one is queued.
func TestEventsNobodyIsToldOfAreNotQueued(t *testing.T) {
	core := app.New(storagetest.Open(t), app.Options{BcryptCost: 4})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "a long passphrase")
	if err != nil {
		t.Fatal(err)
	}
	d, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "t", "1"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	publish := func(typ string) {
		core.Live.Publish(d.ID, live.Update{Events: []*model.Event{{Type: typ, DeviceID: d.ID, EventTime: time.Now()}}})
	}
	queued := func() uint64 { return core.Notify.PushStats().Queued }

	publish(model.EventDeviceMoving)
	publish(model.EventIgnitionOn)
	if n := queued(); n != 0 {
		t.Fatalf("%d jobs queued without any notification", n)
	}
	if _, err := core.Fleet.Notifications.Create(admin, func(n *model.Notification) error {
		n.Type, n.Always, n.Notificators = model.EventIgnitionOn, true, "web"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	publish(model.EventDeviceMoving)
	publish(model.EventIgnitionOn)
	if n := queued(); n != 1 {
		t.Fatalf("%d jobs queued, want the ignitionOn one", n)
	}
}
