package live_test

import (
	"errors"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/live"
	"github.com/fleetd/fleetd/app/model"
	"github.com/fleetd/fleetd/storage/storagetest"
)

// TestTrack: every kind of write a committed Update makes reaches the
// listeners once, with the kinds it wrote; reads, rolled-back writes,
// new sessions and the ingest's Batch announce nothing.
func TestTrack(t *testing.T) {
	db := storagetest.Open(t)
	var heard []live.Changes
	store := live.Track(db, time.Now, func(c live.Changes) { heard = append(heard, c) })
	var dev model.Device
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.Update(func(tx model.Tx) error {
		dev = model.Device{Name: "d", UniqueID: "1"}
		return tx.Devices().Create(&dev)
	}))
	tests := []struct {
		name string
		fn   func(model.Tx) error
		want []string // nil: no notification
	}{
		{"a read", func(tx model.Tx) error { _, err := tx.Devices().Get(dev.ID); return err }, nil},
		{"a device", func(tx model.Tx) error { d := dev; d.Name = "e"; return tx.Devices().Put(&d) }, []string{model.KindDevice}},
		{"a user", func(tx model.Tx) error {
			return tx.Users().Create(&model.User{Name: "u", Email: "u@example.com", Attributes: model.Attributes{}})
		}, []string{model.KindUser}},
		{"a group and a link", func(tx model.Tx) error {
			g := model.Group{Name: "g"}
			if err := tx.Groups().Create(&g); err != nil {
				return err
			}
			return tx.Link(model.Permission{OwnerKind: model.KindGroup, OwnerID: g.ID, PropKind: model.KindDevice, PropID: dev.ID})
		}, []string{model.KindGroup, live.ChangedPermissions}},
		{"a geofence", func(tx model.Tx) error {
			return tx.Geofences().Create(&model.Geofence{Name: "f", Area: "CIRCLE (1 2, 3)"})
		}, []string{model.KindGeofence}},
		{"a computed attribute", func(tx model.Tx) error {
			return tx.ComputedAttributes().Create(&model.ComputedAttribute{Attribute: "a", Expression: "1", Type: "number"})
		}, []string{model.KindAttribute}},
		{"the server", func(tx model.Tx) error { return tx.PutServer(&model.Server{}) }, []string{live.ChangedServer}},
		{"a new session", func(tx model.Tx) error {
			return tx.PutSession(&model.Session{Token: "k", UserID: 1, Expires: time.Now().Add(time.Hour)})
		}, nil},
		{"an ended session", func(tx model.Tx) error { return tx.DeleteSession("k") }, []string{live.ChangedSessions}},
		{"no session to end", func(tx model.Tx) error { _, err := tx.DeleteSessions(0, time.Now()); return err }, nil},
		{"rolled back", func(tx model.Tx) error {
			d := dev
			if err := tx.Devices().Put(&d); err != nil {
				return err
			}
			return errors.New("refused")
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			heard = nil
			store.Update(tt.fn)
			if tt.want == nil {
				if len(heard) != 0 {
					t.Fatalf("heard %v, want nothing", heard)
				}
				return
			}
			if len(heard) != 1 || len(heard[0].Kinds) != len(tt.want) || !heard[0].Any(tt.want...) {
				t.Fatalf("heard %v, want one change of %v", heard, tt.want)
			}
			for _, k := range tt.want {
				if !heard[0].Kinds[k] {
					t.Errorf("%s missing from %v", k, heard[0])
				}
			}
			if heard[0].Actor != nil {
				t.Errorf("actor %v, want none (the write did not say)", heard[0].Actor)
			}
		})
	}
	heard = nil
	alice := &model.User{Base: model.Base{ID: 7}, Name: "alice"}
	must(store.As(alice).Update(func(tx model.Tx) error { d := dev; return tx.Devices().Put(&d) }))
	if len(heard) != 1 || heard[0].Actor != alice || !heard[0].Kinds[model.KindDevice] {
		t.Errorf("a write on alice's behalf: heard %v", heard)
	}
	heard = nil
	must(store.Batch(func(tx model.Tx) error { d := dev; return tx.Devices().Put(&d) }))
	if len(heard) != 0 {
		t.Errorf("Batch announced %v", heard)
	}
}
