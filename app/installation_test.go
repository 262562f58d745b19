package app_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/fleet"
	"github.com/fleetd/fleetd/app/model"
)

// TestCreateWithIsOneTransaction: when the extra record cannot be written,
// the device is not stored either (M3's device and installation record
// commit together).
func TestCreateWithIsOneTransaction(t *testing.T) {
	f := newFixture(t)
	before, err := f.core.Fleet.Devices.List(f.admin, model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	failure := errors.New("installation write failed")
	_, err = f.core.Fleet.Devices.CreateWith(f.admin, func(d *model.Device) error {
		d.Name, d.UniqueID = "rolled back", "RB-1"
		return nil
	}, func(tx model.Tx, d *model.Device) error {
		if d.ID == 0 {
			t.Error("the extra step runs before the device has its id")
		}
		return failure
	})
	if !errors.Is(err, failure) {
		t.Fatalf("err %v, want %v", err, failure)
	}
	after, err := f.core.Fleet.Devices.List(f.admin, model.Query{})
	if err != nil || len(after) != len(before) {
		t.Fatalf("%d devices after a failed create, want %d (%v)", len(after), len(before), err)
	}
	// The uniqueId is free: nothing of the failed create is left.
	if _, err := f.core.Fleet.InstallDevice(f.admin, func(d *model.Device) error {
		d.Name, d.UniqueID, d.Phone, d.Contact = "kept", "RB-1", "1", "c"
		return nil
	}, fleet.InstallationDetails{Notes: "n"}); err != nil {
		t.Fatal(err)
	}
}

func TestInstallDeviceRules(t *testing.T) {
	f := newFixture(t)
	install := func(apply func(*model.Device), details fleet.InstallationDetails) error {
		_, err := f.core.Fleet.InstallDevice(f.admin, func(d *model.Device) error {
			d.Name, d.UniqueID, d.Phone, d.Contact = "n", "U-1", "1", "c"
			apply(d)
			return nil
		}, details)
		return err
	}
	tests := []struct {
		name    string
		apply   func(*model.Device)
		details fleet.InstallationDetails
		kind    model.Class
	}{
		{"phone required", func(d *model.Device) { d.Phone = " " }, fleet.InstallationDetails{}, model.ClassInvalid},
		{"contact required", func(d *model.Device) { d.Contact = "" }, fleet.InstallationDetails{}, model.ClassInvalid},
		{"uniqueId taken", func(d *model.Device) { d.UniqueID = f.dev.UniqueID }, fleet.InstallationDetails{}, model.ClassConflict},
		{"notes too long", func(*model.Device) {}, fleet.InstallationDetails{Notes: strings.Repeat("n", model.MaxMessage+1)}, model.ClassInvalid},
		{"location too long", func(*model.Device) {}, fleet.InstallationDetails{Location: strings.Repeat("l", model.MaxText+1)}, model.ClassInvalid},
		{"a missing group", func(d *model.Device) { d.GroupID = 999 }, fleet.InstallationDetails{}, model.ClassInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := install(tt.apply, tt.details); model.ClassOf(err) != tt.kind {
				t.Fatalf("err %v, want kind %d", err, tt.kind)
			}
		})
	}
}

// TestQueryDeviceLimit: E2 and I1 refuse more device ids than they read.
func TestQueryDeviceLimit(t *testing.T) {
	f := newFixture(t)
	ids := make([]int64, fleet.MaxQueryDevices+1)
	for i := range ids {
		ids[i] = f.dev.ID
	}
	_, err := f.core.Fleet.ExtendedEvents(f.admin, fleet.EventQuery{DeviceIDs: ids, From: t0, To: t0, Page: 1, Limit: 1})
	_, err2 := f.core.Fleet.AlarmAnalytics(f.admin, ids, t0, t0)
	if model.ClassOf(err) != model.ClassInvalid || model.ClassOf(err2) != model.ClassInvalid {
		t.Fatalf("E2 %v, I1 %v: want invalid", err, err2)
	}
}
