package app_test

import (
	"math"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/app/office"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// dueNow is the "now" the maintenance tests ask about; positions are
// dated before it, so the ingest (whose clock is t0+1h) accepts them.
var dueNow = t0

// serviced stores a service record of vehicle daysAgo days before dueNow.
func serviced(tb testing.TB, core *app.Core, actor *model.User, vehicle int64, daysAgo int, odometer float64) {
	tb.Helper()
	_, err := core.Office.CreateServiceRecord(actor, func(r *model.ServiceRecord) error {
		r.Title, r.VehicleID, r.Odometer = "service", model.TextID(vehicle), &odometer
		r.ServiceDate = model.Date{Time: dueNow.AddDate(0, 0, -daysAgo)}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// fix is a position daysAgo days before dueNow at latitude lat.
type fix struct {
	daysAgo int
	lat     float64
	attrs   model.Attributes
}

func km(v float64) *float64 { return &v }

func TestServicesDue(t *testing.T) {
	type record struct {
		daysAgo  int
		odometer float64
	}
	tests := []struct {
		name     string
		records  []record
		fixes    []fix
		state    string
		reason   string
		daysLeft int
		kmLeft   *float64 // nil: unknown
	}{
		{"never serviced", nil, nil, office.ServiceDueSoon, office.DueNoService, 0, nil},
		{"overdue by date", []record{{200, 1000}}, nil, office.ServiceOverdue, office.DueByDate, -20, nil},
		{"due soon by date", []record{{170, 1000}}, nil, office.ServiceDueSoon, office.DueByDate, 10, nil},
		{"the latest record counts", []record{{300, 1000}, {10, 2000}}, nil, office.ServiceOK, office.DueByDate, 170, nil},
		{"due soon by km", []record{{30, 50000}},
			[]fix{{1, 54, model.Attributes{"odometer": 59_700_000.0}}}, office.ServiceDueSoon, office.DueByKm, 150, km(300)},
		{"overdue by km before the date", []record{{30, 50000}},
			[]fix{{1, 54, model.Attributes{"odometer": 61_000_000.0}}}, office.ServiceOverdue, office.DueByKm, 150, km(-1000)},
		{"ok by both", []record{{30, 50000}},
			[]fix{{1, 54, model.Attributes{"odometer": 52_000_000.0}}}, office.ServiceOK, office.DueByDate, 150, km(8000)},
		// totalDistance starts at 0 when tracking begins: only the 0.1° (11.1
		// km) driven after the service counts, not the 1° (111 km) before.
		{"totalDistance counts from the service date", []record{{30, 50000}},
			[]fix{{40, 54, nil}, {20, 55, nil}, {10, 55.1, nil}}, office.ServiceOK, office.DueByDate, 150, km(10000 - 11.12)},
		{"no position since the service", []record{{5, 50000}},
			[]fix{{40, 54, nil}, {20, 55, nil}}, office.ServiceOK, office.DueByDate, 175, km(10000)},
	}
	f := newFixture(t)
	for _, tt := range tests {
		d, err := f.core.Fleet.Devices.Create(f.admin, func(d *model.Device) error { d.Name, d.UniqueID = tt.name, tt.name; return nil })
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range tt.records {
			serviced(t, f.core, f.admin, d.ID, r.daysAgo, r.odometer)
		}
		for _, x := range tt.fixes {
			p := &model.Position{FixTime: dueNow.AddDate(0, 0, -x.daysAgo), Valid: true, Latitude: x.lat, Longitude: 24, Attributes: x.attrs}
			if p.Attributes == nil {
				p.Attributes = model.Attributes{}
			}
			if err := f.core.Ingest.Ingest(d.ID, []*model.Position{p}); err != nil {
				t.Fatal(err)
			}
		}
	}
	list, err := f.core.Office.ServicesDue(f.admin, dueNow)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]office.ServiceDue{}
	for _, due := range list {
		byName[due.DeviceName] = due
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := byName[tt.name]
			if !ok {
				t.Fatalf("not listed: %+v", list)
			}
			if got.State != tt.state || got.Reason != tt.reason || got.DaysLeft != tt.daysLeft {
				t.Errorf("state %s by %s, %d days left; want %s by %s, %d", got.State, got.Reason, got.DaysLeft, tt.state, tt.reason, tt.daysLeft)
			}
			if want := dueNow.AddDate(0, 0, tt.daysLeft); !got.DueDate.Equal(want) {
				t.Errorf("due %s, want %s", got.DueDate, want)
			}
			if (got.KmLeft == nil) != (tt.kmLeft == nil) || (got.KmLeft != nil && math.Abs(*got.KmLeft-*tt.kmLeft) > 0.5) {
				t.Errorf("km left %v, want %v", deref(got.KmLeft), deref(tt.kmLeft))
			}
			if (len(tt.records) == 0) != got.LastService.IsZero() {
				t.Errorf("last service %s with %d records", got.LastService, len(tt.records))
			}
			// A vehicle's page asks for its one vehicle: the same answer.
			one, err := f.core.Office.Admin(f.admin).ServiceDueOf(got.DeviceID, dueNow)
			if err != nil || !reflect.DeepEqual(one, got) {
				t.Errorf("ServiceDueOf: %+v (%v), want %+v", one, err, got)
			}
		})
	}
	// Overdue first, then by due date (the fixture's own truck, never
	// serviced, is due now like the other one and was created first).
	var order []string
	for _, due := range list {
		order = append(order, due.DeviceName)
	}
	want := []string{"overdue by date", "overdue by km before the date", f.dev.Name, "never serviced", "due soon by date",
		"due soon by km", "ok by both", "totalDistance counts from the service date", "the latest record counts", "no position since the service"}
	if !slices.Equal(order, want) {
		t.Errorf("order\n%q\nwant\n%q", order, want)
	}
}

func deref(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// A user sees only the devices they may see, and only their own service
// history: the administrator's record of the shared car does not count.
func TestServicesDueVisibility(t *testing.T) {
	f := newFixture(t)
	user, err := f.core.Accounts.CreateUser(f.admin, func(u *model.User) error { u.Email, u.Password = "u@example.com", "pw"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	car, err := f.core.Fleet.Devices.Create(f.admin, func(d *model.Device) error { d.Name, d.UniqueID = "car", "C1"; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := f.core.Fleet.Link(f.admin, model.Permission{OwnerKind: model.KindUser, OwnerID: user.ID, PropKind: model.KindDevice, PropID: car.ID}); err != nil {
		t.Fatal(err)
	}
	serviced(t, f.core, f.admin, car.ID, 10, 100)
	tests := []struct {
		name   string
		actor  *model.User
		states map[string]string
	}{
		{"administrator", f.admin, map[string]string{"truck": office.ServiceDueSoon, "car": office.ServiceOK}},
		{"user", user, map[string]string{"car": office.ServiceDueSoon}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, err := f.core.Office.ServicesDue(tt.actor, dueNow)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, due := range list {
				got[due.DeviceName] = due.State
			}
			if len(got) != len(tt.states) {
				t.Fatalf("listed %v, want %v", got, tt.states)
			}
			for name, state := range tt.states {
				if got[name] != state {
					t.Errorf("%s: %q, want %q", name, got[name], state)
				}
			}
		})
	}
}

// The configured interval replaces the defaults.
func TestServicesDueInterval(t *testing.T) {
	f := newFixture(t)
	serviced(t, f.core, f.admin, f.dev.ID, 40, 100)
	if err := f.core.Ingest.Ingest(f.dev.ID, []*model.Position{{FixTime: dueNow, Valid: true, Latitude: 54, Longitude: 24,
		Attributes: model.Attributes{"odometer": 350_000.0}}}); err != nil {
		t.Fatal(err)
	}
	core := app.New(f.db, app.Options{Servicing: office.ServiceOptions{IntervalDays: 30, IntervalKm: 200}})
	list, err := core.Office.ServicesDue(f.admin, dueNow)
	if err != nil || len(list) != 1 {
		t.Fatalf("%+v, %v", list, err)
	}
	if got := list[0]; got.DaysLeft != -10 || got.KmLeft == nil || *got.KmLeft != -50 || got.State != office.ServiceOverdue {
		t.Fatalf("%+v, want 10 days and 50 km overdue", got)
	}
}

// BenchmarkServicesDue: the overview's cost with 1,000 vehicles, each
// with a service record and a latest position without an odometer (the
// slower path: one more position read per vehicle).
func BenchmarkServicesDue(b *testing.B) {
	db := storagetest.Open(b)
	core := app.New(db, app.Options{BcryptCost: 4})
	admin, _, err := core.Accounts.Bootstrap("admin@example.com", "pw")
	if err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		name := "bench-" + strconv.Itoa(i)
		d, err := core.Fleet.Devices.Create(admin, func(d *model.Device) error { d.Name, d.UniqueID = name, name; return nil })
		if err != nil {
			b.Fatal(err)
		}
		serviced(b, core, admin, d.ID, 30, 1000)
		err = db.Update(func(tx model.Tx) error {
			for _, days := range []int{40, 20, 1} {
				p := &model.Position{DeviceID: d.ID, FixTime: dueNow.AddDate(0, 0, -days), Attributes: model.Attributes{"totalDistance": float64(100_000 - days*1000)}}
				if err := tx.AddPosition(p); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if list, err := core.Office.ServicesDue(admin, dueNow); err != nil || len(list) != 1000 {
			b.Fatalf("%d listed, %v", len(list), err)
		}
	}
}
