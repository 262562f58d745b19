package app_test

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
)

// Commands queued by an earlier process are found after a restart, and
// commands queued while others are being taken are never lost.
func TestQueuedCommands(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fleetd.db")
	open := func() (*storage.DB, *app.Core) {
		db, err := storage.Open(path, storage.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		return db, app.New(db, app.Options{BcryptCost: 4, Now: func() time.Time { return t0 }})
	}
	db, core := open()
	admin := model.System()
	car, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "car", "C1"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	van, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = "van", "V1"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	send := func(core *app.Core, device int64, data string) {
		t.Helper()
		if _, queued, err := core.Ingest.SendCommand(model.System(), &model.Command{DeviceID: device, Type: "custom", Attributes: model.Attributes{"data": data}}); err != nil || !queued {
			t.Fatalf("send: queued %v, %v", queued, err)
		}
	}
	send(core, car.ID, "before restart")
	db.Close()

	db, core = open()
	defer db.Close()
	if cmds, err := core.Ingest.TakeQueued(van.ID); err != nil || len(cmds) != 0 {
		t.Fatalf("van: %d commands (%v), want none", len(cmds), err)
	}
	cmds, err := core.Ingest.TakeQueued(car.ID)
	if err != nil || len(cmds) != 1 || cmds[0].Attributes["data"] != "before restart" {
		t.Fatalf("car after restart: %+v (%v), want the queued command", cmds, err)
	}
	if cmds, _ := core.Ingest.TakeQueued(car.ID); len(cmds) != 0 {
		t.Fatalf("taken twice: %+v", cmds)
	}

	// 50 commands queued while the device keeps taking: each arrives once.
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() { send(core, car.ID, string(rune('A'+i))) })
	}
	seen := map[string]int{}
	take := func() {
		cmds, err := core.Ingest.TakeQueued(car.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			seen[c.Attributes["data"].(string)]++
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		take()
	}
	take()
	if len(seen) != 50 {
		t.Fatalf("%d distinct commands taken, want 50", len(seen))
	}
	for data, n := range seen {
		if n != 1 {
			t.Errorf("command %s taken %d times", data, n)
		}
	}
}
