package app_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	"github.com/fleetd/fleetd/app/ingest"
	"github.com/fleetd/fleetd/app/model"
)

// Identifiers are checked before a device is looked up, registered or
// created through the API: a malformed one creates nothing and is not
// listed as an unknown device.
func TestMalformedUniqueIDsAreRefused(t *testing.T) {
	tests := []struct {
		name, id string
		want     string // the uniqueId registered; "" when refused
	}{
		{"IMEI", "359000000000001", "359000000000001"},
		{"trimmed", " \t359000000000002\r\n", "359000000000002"},
		{"printable Unicode and an inner space", "трекер №7 b", "трекер №7 b"},
		{"128 characters", strings.Repeat("7", 128), strings.Repeat("7", 128)},
		{"129 characters", strings.Repeat("7", 129), ""},
		{"control bytes", "35900\x01\x0200001", ""},
		{"DEL", "359000000000003\x7f", ""},
		{"NUL", "359\x00", ""},
		{"invalid UTF-8", "359\xff\xfe", ""},
		{"the replacement character invalid bytes become", "2705171109\ufffdV1", ""},
		{"zero-width space", "35900\u200b0000004", ""},
		{"bidirectional override", "\u202e359000000000005", ""},
		{"only spaces", "   ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.core = app.New(f.db, app.Options{BcryptCost: 4, Ingest: ingest.Options{AutoRegister: true}})
			d, err := f.core.Ingest.Identify("h02", tt.id, "192.0.2.1:4000")
			if tt.want != "" {
				if err != nil || d.UniqueID != tt.want {
					t.Fatalf("Identify = %+v, %v; want %q registered", d, err, tt.want)
				}
				return
			}
			if model.ClassOf(err) != model.ClassInvalid {
				t.Fatalf("Identify = %+v, %v; want invalid", d, err)
			}
			if s := f.core.Stats(); s.InvalidIDs != 1 {
				t.Errorf("invalid ids counted %d, want 1", s.InvalidIDs)
			}
			if _, err := f.core.Fleet.Devices.Create(f.admin, func(d *model.Device) error {
				d.Name, d.UniqueID = "bad", tt.id
				return nil
			}); model.ClassOf(err) != model.ClassInvalid {
				t.Errorf("API create = %v, want invalid", err)
			}
			if list, _ := f.core.Fleet.Devices.List(f.admin, model.Query{All: true}); len(list) != 1 {
				t.Errorf("%d devices, want only the fixture's", len(list))
			}
			// Without auto-registration it is not an unknown device either.
			f.core = app.New(f.db, app.Options{BcryptCost: 4})
			if _, err := f.core.Ingest.Identify("h02", tt.id, "192.0.2.1:4000"); errors.Is(err, ingest.ErrUnknownDevice) {
				t.Errorf("refused as unknown, want invalid")
			}
			if list, _ := f.core.Ingest.UnknownDevices(f.admin); len(list) != 0 {
				t.Errorf("unknown devices = %+v, want none", list)
			}
		})
	}
}
