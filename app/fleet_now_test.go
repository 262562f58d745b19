package app_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// FleetNow is the device list and the latest positions in one read: for
// an administrator, a manager who sees some vehicles through a group and
// a user who sees one, it gives what Devices.List and each device's
// history give.
func TestFleetNowIsTheListAndTheLatestPositions(t *testing.T) {
	w := newWorld(t)
	depot := w.group("Depot", 0)
	van, truck, car := w.device("van", depot), w.device("truck", depot), w.device("car", 0)
	manager := w.user(w.admin, "manager@example.com", 5)
	driver := w.user(w.admin, "driver@example.com", 0)
	w.must(w.core.Fleet.Link(w.admin,
		model.Permission{OwnerKind: model.KindUser, OwnerID: manager.ID, PropKind: model.KindGroup, PropID: depot},
		model.Permission{OwnerKind: model.KindUser, OwnerID: driver.ID, PropKind: model.KindDevice, PropID: car}))
	at := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	for i, id := range []int64{van, car, van} {
		p := &model.Position{Protocol: "osmand", Valid: true, Latitude: 52, Longitude: 13 + float64(i)/100,
			FixTime: at.Add(time.Duration(i) * time.Minute), DeviceTime: at, Attributes: model.Attributes{}}
		w.must(w.core.Ingest.Ingest(id, []*model.Position{p}))
	}
	for _, tc := range []struct {
		actor *model.User
		sees  []int64 // in id order; truck has no position yet
	}{{w.admin, []int64{van, truck, car}}, {manager, []int64{van, truck}}, {driver, []int64{car}}} {
		actor := tc.actor
		now, err := w.core.Fleet.FleetNow(actor)
		w.must(err)
		var ids []int64
		for _, n := range now {
			ids = append(ids, n.Device.ID)
		}
		if !reflect.DeepEqual(ids, tc.sees) {
			t.Errorf("%s sees %v, want %v", actor.Email, ids, tc.sees)
		}
		devices, err := w.core.Fleet.Devices.List(actor, model.Query{})
		w.must(err)
		// The latest of each device's history, read apart from FleetNow
		// (Positions without a device is FleetNow's).
		latest := map[int64]*model.Position{}
		for _, d := range devices {
			history, err := w.core.Fleet.Positions(actor, fleet.PositionQuery{DeviceID: d.ID, From: at.Add(-time.Hour), To: at.Add(time.Hour)})
			w.must(err)
			if len(history) > 0 {
				latest[d.ID] = history[len(history)-1]
			}
		}
		if len(now) != len(devices) {
			t.Fatalf("%s: FleetNow has %d devices, the list %d", actor.Email, len(now), len(devices))
		}
		for i, n := range now {
			if !reflect.DeepEqual(n.Device, devices[i]) || !reflect.DeepEqual(n.Position, latest[n.Device.ID]) {
				t.Errorf("%s: %s: %+v with %+v, want %+v with %+v", actor.Email, n.Device.Name, n.Device, n.Position, devices[i], latest[n.Device.ID])
			}
		}
	}
}
