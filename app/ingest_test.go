package app_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage"
	"github.com/fleetd/fleetd/storage/storagetest"
)

var t0 = time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)

type fixture struct {
	t     testing.TB
	core  *app.Core
	db    *storage.DB
	admin *model.User
	dev   *model.Device
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	db := storagetest.Open(t)
	f := &fixture{t: t, db: db}
	f.core = app.New(db, app.Options{BcryptCost: 4, Now: func() time.Time { return t0.Add(time.Hour) }})
	var err error
	if f.admin, _, err = f.core.Accounts.Bootstrap("admin@example.com", "pw"); err != nil {
		t.Fatal(err)
	}
	f.dev, err = f.core.Fleet.Devices.Create(f.admin, func(d *model.Device) error {
		d.Name, d.UniqueID, d.Attributes = "truck", "T1", model.Attributes{"speedLimit": 50.0}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// pos builds a fix m minutes after t0 at (lat, lon).
func pos(m int, lat, lon, speed float64, attrs model.Attributes) *model.Position {
	if attrs == nil {
		attrs = model.Attributes{}
	}
	return &model.Position{FixTime: t0.Add(time.Duration(m) * time.Minute), Valid: true, Latitude: lat, Longitude: lon,
		Speed: speed, Attributes: attrs}
}

func (f *fixture) events() []string {
	var out []string
	f.db.View(func(tx model.Tx) error {
		return tx.Events(f.dev.ID, time.Time{}, t0.Add(48*time.Hour), func(e *model.Event) bool {
			out = append(out, e.Type)
			return true
		})
	})
	return out
}

func TestIngestEvents(t *testing.T) {
	tests := []struct {
		name      string
		fence     string
		setup     func(f *fixture)
		positions [][]*model.Position // one Ingest call each
		want      []string            // event types after the device-online event
	}{
		{"ignition on then off",
			"", nil, [][]*model.Position{
				{pos(0, 54.9, 24.0, 0, model.Attributes{"ignition": false})},
				{pos(1, 54.9, 24.0, 0, model.Attributes{"ignition": true})},
				{pos(2, 54.9, 24.0, 0, model.Attributes{"ignition": false})},
			}, []string{"ignitionOn", "ignitionOff"}},
		{"moving then stopped",
			"", nil, [][]*model.Position{
				{pos(0, 54.9, 24.0, 0, nil)}, {pos(1, 54.91, 24.0, 20, nil)}, {pos(2, 54.92, 24.0, 0, nil)},
			}, []string{"deviceMoving", "deviceStopped"}},
		{"overspeed once when crossing the limit",
			"", nil, [][]*model.Position{
				{pos(0, 54.9, 24.0, 40, nil)}, {pos(1, 54.91, 24.0, 60, nil)}, {pos(2, 54.92, 24.0, 70, nil)},
			}, []string{"deviceOverspeed"}},
		{"alarms, several in one attribute",
			"", nil, [][]*model.Position{
				{pos(0, 54.9, 24.0, 0, model.Attributes{"alarm": "sos"})},
				{pos(1, 54.9, 24.0, 0, model.Attributes{"alarm": "powerCut,vibration"})},
			}, []string{"alarm", "alarm", "alarm"}},
		{"geofence enter and exit",
			"CIRCLE (54.9 24.0, 500)", nil, [][]*model.Position{
				{pos(0, 55.0, 24.0, 0, nil)}, {pos(1, 54.9, 24.0, 0, nil)}, {pos(2, 55.0, 24.0, 0, nil)},
			}, []string{"geofenceEnter", "geofenceExit"}},
		{"a geofence with a calendar exists only while it is active", "", func(f *fixture) {
			// Daily 08:00-08:02 UTC: the device stays inside the circle,
			// the fence ends at 08:02.
			cal := f.mustCreate(f.core.Fleet.Calendars.Create(f.admin, func(c *model.Calendar) error {
				c.Name, c.Data = "two minutes", []byte("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20260301T080000Z\n"+
					"DTEND:20260301T080200Z\nRRULE:FREQ=DAILY\nEND:VEVENT\nEND:VCALENDAR")
				return nil
			}))
			f.linkDevice(model.KindGeofence, f.mustCreate(f.core.Fleet.Geofences.Create(f.admin, func(g *model.Geofence) error {
				g.Name, g.Area, g.CalendarID = "depot", "CIRCLE (54.9 24.0, 500)", cal.GetID()
				return nil
			})))
		}, [][]*model.Position{
			{pos(0, 55.0, 24.0, 0, nil)}, {pos(1, 54.9, 24.0, 0, nil)}, {pos(3, 54.9, 24.0, 0, nil)},
		}, []string{"geofenceEnter", "geofenceExit"}},
		{"maintenance each 1,000 m of totalDistance (Traccar: none while the old value is 0)", "", func(f *fixture) {
			f.linkDevice(model.KindMaintenance, f.mustCreate(f.core.Fleet.Maintenances.Create(f.admin, func(m *model.Maintenance) error {
				m.Name, m.Type, m.Period = "oil", "totalDistance", 1000
				return nil
			})))
		}, [][]*model.Position{ // 0, 556, 1112, 1668, 2224 m
			{pos(0, 54.9, 24.0, 0, nil)}, {pos(1, 54.905, 24.0, 0, nil)}, {pos(2, 54.91, 24.0, 0, nil)},
			{pos(3, 54.915, 24.0, 0, nil)}, {pos(4, 54.92, 24.0, 0, nil)},
		}, []string{"maintenance", "maintenance"}},
		{"maintenance from start on: the first crossing of start counts", "", func(f *fixture) {
			f.linkDevice(model.KindMaintenance, f.mustCreate(f.core.Fleet.Maintenances.Create(f.admin, func(m *model.Maintenance) error {
				m.Name, m.Type, m.Start, m.Period = "oil", "odometer", 10_000, 5_000
				return nil
			})))
		}, [][]*model.Position{
			{pos(0, 54.9, 24.0, 0, model.Attributes{"odometer": 9_000.0})}, {pos(1, 54.9, 24.0, 0, model.Attributes{"odometer": 10_000.0})},
			{pos(2, 54.9, 24.0, 0, model.Attributes{"odometer": 14_999.0})}, {pos(3, 54.9, 24.0, 0, model.Attributes{"odometer": 15_000.0})},
		}, []string{"maintenance", "maintenance"}},
		{"driver changed: a new driverUniqueId, not a repeated one", "", nil, [][]*model.Position{
			{pos(0, 54.9, 24.0, 0, nil)}, {pos(1, 54.9, 24.0, 0, model.Attributes{"driverUniqueId": "A1"})},
			{pos(2, 54.9, 24.0, 0, model.Attributes{"driverUniqueId": "A1"})}, {pos(3, 54.9, 24.0, 0, model.Attributes{"driverUniqueId": "B2"})},
		}, []string{"driverChanged", "driverChanged"}},
		{"fuel drop over the server's threshold, a rise under the group's", "", func(f *fixture) {
			if _, err := f.core.Accounts.UpdateServer(f.admin, func(s *model.Server) error {
				s.Attributes = model.Attributes{"fuelDropThreshold": 10.0, "fuelIncreaseThreshold": 5.0}
				return nil
			}); err != nil {
				f.t.Fatal(err)
			}
			g := f.mustCreate(f.core.Fleet.Groups.Create(f.admin, func(g *model.Group) error {
				g.Name, g.Attributes = "tankers", model.Attributes{"fuelIncreaseThreshold": 50.0}
				return nil
			}))
			if _, err := f.core.Fleet.Devices.Update(f.admin, f.dev.ID, func(d *model.Device) error { d.GroupID = g.GetID(); return nil }); err != nil {
				f.t.Fatal(err)
			}
		}, [][]*model.Position{
			{pos(0, 54.9, 24.0, 0, model.Attributes{"fuel": 80.0})}, {pos(1, 54.9, 24.0, 0, model.Attributes{"fuel": 75.0})},
			{pos(2, 54.9, 24.0, 0, model.Attributes{"fuel": 60.0})}, {pos(3, 54.9, 24.0, 0, model.Attributes{"fuel": 90.0})},
		}, []string{"deviceFuelDrop"}},
		{"a late fix changes no state",
			"", nil, [][]*model.Position{
				{pos(5, 54.9, 24.0, 0, model.Attributes{"ignition": false})},
				{pos(1, 54.9, 24.0, 0, model.Attributes{"ignition": true})},
			}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.setup != nil {
				tt.setup(f)
			}
			if tt.fence != "" {
				g, err := f.core.Fleet.Geofences.Create(f.admin, func(g *model.Geofence) error { g.Name, g.Area = "depot", tt.fence; return nil })
				if err != nil {
					t.Fatal(err)
				}
				if err := f.core.Fleet.Link(f.admin, model.Permission{OwnerKind: model.KindDevice, OwnerID: f.dev.ID, PropKind: model.KindGeofence, PropID: g.ID}); err != nil {
					t.Fatal(err)
				}
			}
			for _, batch := range tt.positions {
				if err := f.core.Ingest.Ingest(f.dev.ID, batch); err != nil {
					t.Fatal(err)
				}
			}
			// The device went online once (at server time, so last in order).
			got := f.events()
			if len(got) == 0 || got[len(got)-1] != "deviceOnline" {
				t.Fatalf("events = %v, want one deviceOnline last", got)
			}
			if !slices.Equal(got[:len(got)-1], tt.want) {
				t.Fatalf("events = %v, want %v", got[:len(got)-1], tt.want)
			}
		})
	}
}

func (f *fixture) mustCreate(v model.Entity, err error) model.Entity {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

// linkDevice links an object of kind to the fixture's device.
func (f *fixture) linkDevice(kind string, v model.Entity) {
	f.t.Helper()
	if err := f.core.Fleet.Link(f.admin, model.Permission{OwnerKind: model.KindDevice, OwnerID: f.dev.ID, PropKind: kind, PropID: v.GetID()}); err != nil {
		f.t.Fatal(err)
	}
}

func TestIngestDistanceLatestAndDrops(t *testing.T) {
	f := newFixture(t)
	batch := []*model.Position{
		pos(0, 0, 0, 0, nil),
		pos(1, 0.001, 0, 0, nil), // ~111 m north
		pos(-30, 1, 1, 0, nil),   // late fix: stored, not latest
		pos(2, 95, 0, 0, nil),    // impossible latitude: dropped
		{FixTime: t0.Add(48 * time.Hour), Valid: true, Attributes: model.Attributes{}}, // future: dropped
		{FixTime: time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC), Attributes: model.Attributes{}},
		{Outdated: true, Attributes: model.Attributes{"batteryLevel": 80.0}}, // status frame: last location
	}
	if err := f.core.Ingest.Ingest(f.dev.ID, batch); err != nil {
		t.Fatal(err)
	}
	var stored []*model.Position
	f.db.View(func(tx model.Tx) error {
		return tx.Positions(f.dev.ID, time.Time{}, t0.Add(48*time.Hour), func(p *model.Position) bool {
			stored = append(stored, p)
			return true
		})
	})
	if len(stored) != 4 {
		t.Fatalf("stored %d positions, want 4 (3 dropped)", len(stored))
	}
	second := stored[2]
	if d := second.Attributes["distance"].(float64); d < 111 || d > 111.3 {
		t.Fatalf("distance = %v, want ~111.2", d)
	}
	if second.Attributes["totalDistance"].(float64) != second.Attributes["distance"].(float64) {
		t.Fatalf("totalDistance = %v", second.Attributes["totalDistance"])
	}
	status := stored[3]
	if !status.Outdated || status.Latitude != 0.001 || !status.FixTime.Equal(t0.Add(time.Minute)) {
		t.Fatalf("status frame = %+v, want last location and fix time", status)
	}
	d, _ := f.core.Fleet.Devices.Get(f.admin, f.dev.ID)
	if d.PositionID != status.ID || d.Status != model.StatusOnline {
		t.Fatalf("device positionId %d status %s, want %d online", d.PositionID, d.Status, status.ID)
	}
	if s := f.core.Stats(); s.PositionsDropped != 3 || s.PositionsStored != 4 {
		t.Fatalf("stats = %+v", s)
	}
}

func TestLiveUpdatesReachOnlyPermittedUsers(t *testing.T) {
	f := newFixture(t)
	user, err := f.core.Accounts.CreateUser(f.admin, func(u *model.User) error { u.Email, u.Password = "u@example.com", "pw"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	adminSub, userSub := f.core.Subscribe(f.admin, ""), f.core.Subscribe(user, "")
	defer adminSub.Close()
	defer userSub.Close()
	if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(0, 1, 1, 0, nil)}); err != nil {
		t.Fatal(err)
	}
	select {
	case u := <-adminSub.C:
		if len(u.Positions) != 1 || len(u.Devices) != 1 {
			t.Fatalf("admin update = %+v", u)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("admin got no update")
	}
	select {
	case u := <-userSub.C:
		t.Fatalf("user without permission got %+v", u)
	default:
	}
	// Once linked, the user sees the device's updates.
	if err := f.core.Fleet.Link(f.admin, model.Permission{OwnerKind: model.KindUser, OwnerID: user.ID, PropKind: model.KindDevice, PropID: f.dev.ID}); err != nil {
		t.Fatal(err)
	}
	f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(1, 1, 1, 0, nil)})
	select {
	case u := <-userSub.C:
		if len(u.Positions) != 1 {
			t.Fatalf("user update = %+v", u)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("linked user got no update")
	}
}

func TestSlowSubscriberIsDropped(t *testing.T) {
	f := newFixture(t)
	sub := f.core.Subscribe(f.admin, "")
	for i := 0; i < 300; i++ { // more than the queue holds; nobody reads
		if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(i, 1, 1, 0, nil)}); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for range sub.C { // drains, then sees the channel closed
		n++
	}
	if n == 0 || n > 256 {
		t.Fatalf("slow subscriber received %d updates before being dropped", n)
	}
}

// The ingest writes the device record only when its status changes (or
// once a minute), yet readers see the live positionId and lastUpdate, and
// FlushDevices stores them.
func TestLiveDeviceStateAndFlush(t *testing.T) {
	f := newFixture(t)
	if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(0, 1, 1, 0, nil)}); err != nil {
		t.Fatal(err)
	}
	if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(1, 1.001, 1, 0, nil)}); err != nil {
		t.Fatal(err)
	}
	latest, _ := f.core.Fleet.Positions(f.admin, fleet.PositionQuery{})
	stored := func() *model.Device {
		var d *model.Device
		f.db.View(func(tx model.Tx) (err error) { d, err = tx.Devices().Get(f.dev.ID); return err })
		return d
	}
	if s := stored(); s.PositionID == latest[0].ID {
		t.Fatalf("stored positionId %d already current: the second position rewrote the device record", s.PositionID)
	}
	live, err := f.core.Fleet.Devices.Get(f.admin, f.dev.ID)
	if err != nil || live.PositionID != latest[0].ID || live.Status != model.StatusOnline {
		t.Fatalf("live device = %+v, %v; want positionId %d online", live, err, latest[0].ID)
	}
	if err := f.core.Ingest.FlushDevices(); err != nil {
		t.Fatal(err)
	}
	if s := stored(); s.PositionID != latest[0].ID || s.LastUpdate == nil {
		t.Fatalf("after flush stored = %+v, want positionId %d", s, latest[0].ID)
	}
}

func TestUnknownDeviceLeavesTheListWhenRegistered(t *testing.T) {
	f := newFixture(t)
	if _, err := f.core.Ingest.Identify("gt06", "359000000000001", "10.0.0.1:1234"); !errors.Is(err, ingest.ErrUnknownDevice) {
		t.Fatalf("Identify = %v, want unknown device", err)
	}
	if list, _ := f.core.Ingest.UnknownDevices(f.admin); len(list) != 1 || list[0].UniqueID != "359000000000001" {
		t.Fatalf("unknown = %+v", list)
	}
	if _, err := f.core.Fleet.Devices.Create(f.admin, func(d *model.Device) error { d.Name, d.UniqueID = "new", "359000000000001"; return nil }); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.core.Ingest.UnknownDevices(f.admin); len(list) != 0 {
		t.Fatalf("registered device still listed as unknown: %+v", list)
	}
}

// The status sweep judges silence by the live lastUpdate: the stored one
// may be up to a minute behind, which must not mark a reporting device
// unknown.
func TestSweepStatusUsesLiveLastUpdate(t *testing.T) {
	now := t0.Add(time.Hour)
	f := newFixture(t)
	f.core = app.New(f.db, app.Options{BcryptCost: 4, Now: func() time.Time { return now }})
	if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(0, 1, 1, 0, nil)}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(50 * time.Second) // reported again; not yet written to the device record
	if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(1, 1.001, 1, 0, nil)}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(30 * time.Second) // 80 s after the stored lastUpdate, 30 s after the live one
	if err := f.core.Ingest.SweepStatus(time.Minute); err != nil {
		t.Fatal(err)
	}
	if d, _ := f.core.Fleet.Devices.Get(f.admin, f.dev.ID); d.Status != model.StatusOnline {
		t.Fatalf("status = %s after 30 s of silence, want online", d.Status)
	}
	now = now.Add(time.Minute) // now silent for 90 s
	if err := f.core.Ingest.SweepStatus(time.Minute); err != nil {
		t.Fatal(err)
	}
	if d, _ := f.core.Fleet.Devices.Get(f.admin, f.dev.ID); d.Status != model.StatusUnknown {
		t.Fatalf("status = %s after 90 s of silence, want unknown", d.Status)
	}
}

// A position resent after a lost ACK is acknowledged (no error) and not
// stored again; what only looks alike is stored.
func TestIngestResends(t *testing.T) {
	sent := func() []*model.Position { // what the device sent first
		return []*model.Position{pos(0, 54.1, 25.1, 10, model.Attributes{"sat": 7, "ignition": true}),
			pos(1, 54.2, 25.2, 12, model.Attributes{"sat": 8, "ignition": true})}
	}
	tests := []struct {
		name   string
		again  *model.Position
		stored int // positions after the second call
		resent uint64
	}{
		{"the latest, again", pos(1, 54.2, 25.2, 12, model.Attributes{"sat": 8, "ignition": true}), 2, 1},
		{"an older one, again", pos(0, 54.1, 25.1, 10, model.Attributes{"sat": uint8(7), "ignition": true}), 2, 1},
		{"same time, other place", pos(1, 54.3, 25.2, 12, model.Attributes{"sat": 8, "ignition": true}), 3, 0},
		{"same fix, other attribute", pos(1, 54.2, 25.2, 12, model.Attributes{"sat": 8, "ignition": false}), 3, 0},
		{"same fix, an attribute more", pos(1, 54.2, 25.2, 12, model.Attributes{"sat": 8, "ignition": true, "rssi": 3}), 3, 0},
		{"an alarm is never a resend", pos(1, 54.2, 25.2, 12, model.Attributes{"sat": 8, "ignition": true, "alarm": "sos"}), 3, 0},
		{"a status frame is never a resend", &model.Position{Outdated: true, Attributes: model.Attributes{}}, 3, 0},
		{"a newer fix", pos(2, 54.2, 25.2, 12, model.Attributes{"sat": 8, "ignition": true}), 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if err := f.core.Ingest.Ingest(f.dev.ID, sent()); err != nil {
				t.Fatal(err)
			}
			if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{tt.again}); err != nil {
				t.Fatal(err)
			}
			n := 0
			f.db.View(func(tx model.Tx) error {
				return tx.Positions(f.dev.ID, time.Time{}, t0.Add(time.Hour), func(*model.Position) bool { n++; return true })
			})
			if s := f.core.Stats(); n != tt.stored || s.PositionsResent != tt.resent || s.PositionsStored != uint64(tt.stored) {
				t.Fatalf("stored %d positions, %d resent (stats %+v); want %d, %d", n, s.PositionsResent, s, tt.stored, tt.resent)
			}
		})
	}
}

// Engine hours count while the ignition stays on (Traccar's
// EngineHoursHandler), and counters set through accumulators go on from
// the value set.
func TestEngineHoursAndAccumulators(t *testing.T) {
	f := newFixture(t)
	ingest := func(ps ...*model.Position) {
		t.Helper()
		if err := f.core.Ingest.Ingest(f.dev.ID, ps); err != nil {
			t.Fatal(err)
		}
	}
	latest := func() *model.Position {
		t.Helper()
		var p *model.Position
		if err := f.db.View(func(tx model.Tx) (err error) { p, err = tx.LatestPosition(f.dev.ID); return err }); err != nil {
			t.Fatal(err)
		}
		return p
	}
	on := func() model.Attributes { return model.Attributes{"ignition": true} } // the ingest adds to it
	ingest(pos(0, 54.9, 24.0, 0, model.Attributes{"ignition": true, "hours": 3_600_000.0}))
	ingest(pos(1, 54.9, 24.0, 0, on()), pos(2, 54.9, 24.0, 0, model.Attributes{"ignition": false}), pos(3, 54.9, 24.0, 0, on()))
	if got := model.Number(latest().Attributes["hours"]); got != 3_600_000+60_000 {
		t.Fatalf("hours after a minute on, one off = %v, want 3,660,000", got)
	}
	if err := f.core.Ingest.SetAccumulators(f.admin, accumulators(f.dev.ID, 1_000_000, 7_200_000)); err != nil {
		t.Fatal(err)
	}
	set := latest()
	if model.Number(set.Attributes["totalDistance"]) != 1_000_000 || model.Number(set.Attributes["hours"]) != 7_200_000 {
		t.Fatalf("latest after setting the counters: %v", set.Attributes)
	}
	if d, _ := f.core.Fleet.Devices.Get(f.admin, f.dev.ID); d.PositionID != set.ID {
		t.Errorf("device positionId %d, want the copy's %d", d.PositionID, set.ID)
	}
	ingest(pos(4, 54.901, 24.0, 0, on())) // 111.19 m north, a minute on
	p := latest()
	if got := model.Number(p.Attributes["totalDistance"]); got < 1_000_111 || got > 1_000_112 {
		t.Errorf("totalDistance = %v, want 1,000,111.19", got)
	}
	if got := model.Number(p.Attributes["hours"]); got != 7_260_000 {
		t.Errorf("hours = %v, want 7,260,000", got)
	}
}

func accumulators(device int64, distance, hours float64) ingest.Accumulators {
	return ingest.Accumulators{DeviceID: device, TotalDistance: &distance, Hours: &hours}
}

// A service recorded in the office that names a maintenance reminder
// restarts it for the vehicle: the next reminder falls a whole period
// after the service, not on the reminder's own grid.
func TestServiceRestartsMaintenance(t *testing.T) {
	f := newFixture(t)
	m := f.mustCreate(f.core.Fleet.Maintenances.Create(f.admin, func(m *model.Maintenance) error {
		m.Name, m.Type, m.Period = "Oil change", "totalDistance", 1000
		return nil
	}))
	f.linkDevice(model.KindMaintenance, m)
	ingest := func(from, to int) { // fixes every 0.005° north: 556 m apart
		t.Helper()
		for i := from; i <= to; i++ {
			if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{pos(i, 54.9+0.005*float64(i), 24.0, 0, nil)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	ingest(0, 3) // 0, 556, 1112, 1668 m: due at 1112
	odometer := 1668.0
	_, err := f.core.Office.CreateServiceRecord(f.admin, func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.ServiceDate, r.Odometer = "Service", model.TextID(f.dev.ID), model.Date{Time: t0}, &odometer
		r.ServiceTasks = []string{"oil change"}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := f.core.Fleet.Devices.Get(f.admin, f.dev.ID)
	if got := model.Number(d.Attributes[fleet.MaintenanceStartKey(m.GetID())]); got < 2667 || got > 2669 {
		t.Fatalf("the reminder restarts at %v, want the service's 1668 m plus the period", got)
	}
	ingest(4, 5) // 2224 (the old grid's 2000 is crossed: no longer due), 2780
	var due []float64
	f.db.View(func(tx model.Tx) error {
		return tx.Events(f.dev.ID, time.Time{}, t0.Add(time.Hour), func(e *model.Event) bool {
			if e.Type == model.EventMaintenance {
				due = append(due, model.Number(e.Attributes["totalDistance"]))
			}
			return true
		})
	})
	if len(due) != 2 || due[0] < 1111 || due[0] > 1113 || due[1] < 2779 || due[1] > 2781 {
		t.Errorf("maintenance due at %v m, want 1112 and 2780", due)
	}
}
