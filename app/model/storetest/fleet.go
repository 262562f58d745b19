package storetest

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// fleet checks model.FleetTx: installation records under their device's
// id, and the drivers' unique uniqueId (Tx.Drivers refuses a taken one,
// DriverByUniqueID finds the holder).
func (s *suite) fleet(t *testing.T) {
	inst := func(device int64, notes string) *model.Installation {
		return &model.Installation{DeviceID: device, InstalledAt: at(int(device)), InstalledBy: 7,
			InstallerName: "Ann", Location: "Depot", Notes: notes}
	}
	listed := func(t *testing.T, tx model.Tx) []*model.Installation {
		t.Helper()
		var out []*model.Installation
		if err := tx.Fleet().Installations().List(func(i *model.Installation) bool { out = append(out, i); return true }); err != nil {
			t.Errorf("Installations().List: %v", err)
		}
		return out
	}

	t.Run("an installation is found by its device id, replaced by Put, gone after Delete", func(t *testing.T) {
		st := s.open(t)
		view(t, st, func(tx model.Tx) error {
			_, err := tx.Fleet().Installations().Get(1)
			wantIs(t, err, model.ErrNotFound, "Get of a device without a record")
			wantIs(t, tx.Fleet().Installations().Delete(1), model.ErrNotFound, "Delete of a device without a record")
			return nil
		})
		update(t, st, func(tx model.Tx) error {
			return model.FirstError(tx.Fleet().Installations().Put(inst(5, "a")), tx.Fleet().Installations().Put(inst(2, "b")))
		})
		view(t, st, func(tx model.Tx) error {
			got, err := tx.Fleet().Installations().Get(5)
			if err != nil {
				t.Fatalf("Get(5): %v", err)
			}
			same(t, "Get(5)", got, inst(5, "a"))
			same(t, "List", listed(t, tx), []*model.Installation{inst(2, "b"), inst(5, "a")})
			return nil
		})
		update(t, st, func(tx model.Tx) error { return tx.Fleet().Installations().Put(inst(5, "changed")) })
		update(t, st, func(tx model.Tx) error { return tx.Fleet().Installations().Delete(2) })
		view(t, st, func(tx model.Tx) error {
			_, err := tx.Fleet().Installations().Get(2)
			wantIs(t, err, model.ErrNotFound, "Get after Delete")
			same(t, "List", listed(t, tx), []*model.Installation{inst(5, "changed")})
			return nil
		})
	})

	t.Run("an installation needs a device id", func(t *testing.T) {
		st := s.open(t)
		err := st.Update(func(tx model.Tx) error { return tx.Fleet().Installations().Put(inst(0, "")) })
		wantIs(t, err, model.ErrInvalid, "Put with device id 0")
	})

	// Every driver case starts from drivers 1 "d1" and 2 "d2".
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			return model.FirstError(tx.Drivers().Create(driver(0, "d1")), tx.Drivers().Create(driver(0, "d2")))
		})
		return st
	}
	holder := func(t *testing.T, st model.Store, uid string, want int64) {
		t.Helper()
		view(t, st, func(tx model.Tx) error {
			d, err := tx.Fleet().DriverByUniqueID(uid)
			lookedUp(t, fmt.Sprintf("DriverByUniqueID(%q)", uid), d, err, want)
			return nil
		})
	}

	conflicts := []struct {
		name string
		op   func(model.Tx) error
	}{
		{"Create of a driver with a taken uniqueId", func(tx model.Tx) error { return tx.Drivers().Create(driver(0, "d1")) }},
		{"Create of a driver with a taken uniqueId in spaces", func(tx model.Tx) error { return tx.Drivers().Create(driver(0, " d1\t")) }},
		{"Put of a driver with another's uniqueId", func(tx model.Tx) error { return tx.Drivers().Put(driver(2, "d1")) }},
		{"Create of two drivers with one uniqueId in one transaction", func(tx model.Tx) error {
			if err := tx.Drivers().Create(driver(0, "d3")); err != nil {
				return fmt.Errorf("first Create: %v", err) // not a conflict
			}
			return tx.Drivers().Create(driver(0, "d3"))
		}},
	}
	for _, c := range conflicts {
		t.Run(c.name+" is a conflict", func(t *testing.T) {
			st := setup(t)
			wantIs(t, st.Update(c.op), model.ErrConflict, c.name)
			holder(t, st, "d1", 1)
			holder(t, st, "d2", 2)
			holder(t, st, "d3", 0)
		})
	}

	t.Run("a changed uniqueId frees the old one", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error { return tx.Drivers().Put(driver(1, "d9")) })
		holder(t, st, "d1", 0)
		holder(t, st, "d9", 1)
		update(t, st, func(tx model.Tx) error { return tx.Drivers().Create(driver(0, "d1")) })
		holder(t, st, "d1", 3)
	})

	t.Run("a deleted driver frees its uniqueId", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error { return tx.Drivers().Delete(2) })
		holder(t, st, "d2", 0)
		update(t, st, func(tx model.Tx) error { return tx.Drivers().Put(driver(1, "d2")) })
		holder(t, st, "d2", 1)
	})

	t.Run("a driver keeps its own uniqueId on Put", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			return tx.Drivers().Put(&model.Driver{Base: model.Base{ID: 1}, Name: "renamed", UniqueID: "d1"})
		})
		holder(t, st, "d1", 1)
		holder(t, st, "", 0)
	})
}

func driver(id int64, uid string) *model.Driver {
	return &model.Driver{Base: model.Base{ID: id}, Name: uid, UniqueID: uid, Attributes: model.Attributes{}}
}
