package storetest

import (
	"fmt"
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// Unique indexes: a User's e-mail (compared as model.NormalizeEmail gives
// it) and a Device's uniqueId. A taken value is ErrConflict on Create and on
// Put; a changed or deleted record frees its value; the lookups find the
// record holding a value.

func (s *suite) uniqueIndexes(t *testing.T) {
	// Every case starts from users 1 ann@example.com and 2
	// bob@example.com, devices 1 "111" and 2 "222".
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error {
			for _, e := range []string{"ann@example.com", "bob@example.com"} {
				if err := tx.Users().Create(&model.User{Name: e, Email: e}); err != nil {
					return err
				}
			}
			for _, uid := range []string{"111", "222"} {
				if err := tx.Devices().Create(&model.Device{Name: uid, UniqueID: uid}); err != nil {
					return err
				}
			}
			return nil
		})
		return st
	}
	user := func(id int64, email string) *model.User {
		return &model.User{Base: model.Base{ID: id}, Name: email, Email: email}
	}
	device := func(id int64, uid string) *model.Device {
		return &model.Device{Base: model.Base{ID: id}, Name: uid, UniqueID: uid}
	}

	conflicts := []struct {
		name string
		op   func(model.Tx) error
	}{
		{"Create of a user with a taken e-mail", func(tx model.Tx) error { return tx.Users().Create(user(0, "ann@example.com")) }},
		{"Create of a user with a taken e-mail in another case", func(tx model.Tx) error { return tx.Users().Create(user(0, "Ann@EXAMPLE.com")) }},
		{"Create of a user with a taken e-mail in spaces", func(tx model.Tx) error { return tx.Users().Create(user(0, "  ann@example.com\t")) }},
		{"Put of a user with another's e-mail", func(tx model.Tx) error { return tx.Users().Put(user(2, "ann@example.com")) }},
		{"Put of a user with another's e-mail, normalised", func(tx model.Tx) error { return tx.Users().Put(user(2, " ANN@example.COM ")) }},
		{"Create of a device with a taken uniqueId", func(tx model.Tx) error { return tx.Devices().Create(device(0, "111")) }},
		{"Put of a device with another's uniqueId", func(tx model.Tx) error { return tx.Devices().Put(device(2, "111")) }},
		{"Create of two users with one e-mail in one transaction", func(tx model.Tx) error {
			if err := tx.Users().Create(user(0, "new@example.com")); err != nil {
				return fmt.Errorf("first Create: %v", err) // not a conflict
			}
			return tx.Users().Create(user(0, "NEW@example.com"))
		}},
		{"Create of two devices with one uniqueId in one transaction", func(tx model.Tx) error {
			if err := tx.Devices().Create(device(0, "333")); err != nil {
				return fmt.Errorf("first Create: %v", err)
			}
			return tx.Devices().Create(device(0, "333"))
		}},
		{"Put of a user to an e-mail another took in the same transaction", func(tx model.Tx) error {
			if err := tx.Users().Put(user(1, "ann2@example.com")); err != nil {
				return fmt.Errorf("first Put: %v", err)
			}
			return tx.Users().Put(user(2, "ann2@example.com"))
		}},
		{"Put of a device to a uniqueId a Create took in the same transaction", func(tx model.Tx) error {
			if err := tx.Devices().Create(device(0, "333")); err != nil {
				return fmt.Errorf("Create: %v", err)
			}
			return tx.Devices().Put(device(1, "333"))
		}},
	}
	for _, c := range conflicts {
		t.Run(c.name+" is ErrConflict", func(t *testing.T) {
			st := setup(t)
			before := state(t, st)
			err := st.Update(c.op)
			wantIs(t, err, model.ErrConflict, "the write")
			diffState(t, "a refused write", state(t, st), before)
		})
	}

	allowed := []struct {
		name string
		op   func(model.Tx) error
		// emails and uids map looked-up values to the id found after the
		// write, 0 for none.
		emails map[string]int64
		uids   map[string]int64
	}{
		{"Put of a user keeping its e-mail in another form",
			func(tx model.Tx) error { return tx.Users().Put(user(1, "ANN@example.com")) },
			map[string]int64{"ann@example.com": 1, "Ann@Example.com": 1}, nil},
		{"Put of a device keeping its uniqueId",
			func(tx model.Tx) error { return tx.Devices().Put(device(1, "111")) },
			nil, map[string]int64{"111": 1}},
		{"a changed e-mail frees the old one",
			func(tx model.Tx) error {
				if err := tx.Users().Put(user(1, "ann2@example.com")); err != nil {
					return err
				}
				return tx.Users().Create(user(0, "ann@example.com"))
			},
			map[string]int64{"ann@example.com": 3, "ann2@example.com": 1, "bob@example.com": 2}, nil},
		{"a changed e-mail frees the old one for another's Put",
			func(tx model.Tx) error {
				if err := tx.Users().Put(user(1, "ann2@example.com")); err != nil {
					return err
				}
				return tx.Users().Put(user(2, "ann@example.com"))
			},
			map[string]int64{"ann@example.com": 2, "ann2@example.com": 1, "bob@example.com": 0}, nil},
		{"a changed uniqueId frees the old one",
			func(tx model.Tx) error {
				if err := tx.Devices().Put(device(1, "111-b")); err != nil {
					return err
				}
				return tx.Devices().Create(device(0, "111"))
			},
			nil, map[string]int64{"111": 3, "111-b": 1, "222": 2}},
		{"a deleted user frees its e-mail",
			func(tx model.Tx) error {
				if err := tx.Users().Delete(1); err != nil {
					return err
				}
				return tx.Users().Create(user(0, "Ann@example.com"))
			},
			map[string]int64{"ann@example.com": 3}, nil},
		{"a deleted device frees its uniqueId",
			func(tx model.Tx) error {
				if err := tx.Devices().Delete(1); err != nil {
					return err
				}
				return tx.Devices().Create(device(0, "111"))
			},
			nil, map[string]int64{"111": 3}},
		{"two devices swap uniqueIds in one transaction",
			func(tx model.Tx) error {
				for _, d := range []*model.Device{device(1, "tmp"), device(2, "111"), device(1, "222")} {
					if err := tx.Devices().Put(d); err != nil {
						return err
					}
				}
				return nil
			},
			nil, map[string]int64{"111": 2, "222": 1, "tmp": 0}},
		{"two users swap e-mails in one transaction",
			func(tx model.Tx) error {
				for _, u := range []*model.User{user(1, "tmp@example.com"), user(2, "ann@example.com"), user(1, "bob@example.com")} {
					if err := tx.Users().Put(u); err != nil {
						return err
					}
				}
				return nil
			},
			map[string]int64{"ann@example.com": 2, "bob@example.com": 1, "tmp@example.com": 0}, nil},
		{"e-mails and uniqueIds are separate indexes",
			func(tx model.Tx) error {
				if err := tx.Users().Create(user(0, "333")); err != nil {
					return err
				}
				return tx.Devices().Create(device(0, "ann@example.com"))
			},
			map[string]int64{"333": 3}, map[string]int64{"ann@example.com": 3}},
		{"other tables have no unique index (drivers have their own, see Fleet)",
			func(tx model.Tx) error {
				for range 2 {
					if err := tx.Groups().Create(&model.Group{Name: "ann@example.com"}); err != nil {
						return err
					}
				}
				return nil
			},
			map[string]int64{"ann@example.com": 1}, map[string]int64{"111": 1}},
	}
	for _, c := range allowed {
		t.Run(c.name, func(t *testing.T) {
			st := setup(t)
			update(t, st, c.op)
			checkLookups(t, st, c.emails, c.uids)
		})
	}

	t.Run("UserByEmail looks up by NormalizeEmail", func(t *testing.T) {
		st := setup(t)
		checkLookups(t, st, map[string]int64{
			"ann@example.com": 1, "ANN@EXAMPLE.COM": 1, "  Ann@Example.com \n": 1, "bob@example.com": 2,
			"carl@example.com": 0, "ann@example.co": 0, "": 0,
		}, nil)
	})
	t.Run("DeviceByUniqueID finds the device", func(t *testing.T) {
		st := setup(t)
		checkLookups(t, st, nil, map[string]int64{"111": 1, "222": 2, "333": 0, "11": 0, "1111": 0, "": 0})
	})
	t.Run("the lookups return the whole record", func(t *testing.T) {
		st := setup(t)
		u := &model.User{Base: model.Base{ID: 1}, Name: "Ann", Email: "Ann@Example.com", PasswordHash: "h", Attributes: model.Attributes{"a": "b"}}
		d := &model.Device{Base: model.Base{ID: 2}, Name: "Two", UniqueID: "222", Phone: "+1", Attributes: model.Attributes{"n": 1.5}}
		update(t, st, func(tx model.Tx) error { return firstErr(tx.Users().Put(u), tx.Devices().Put(d)) })
		view(t, st, func(tx model.Tx) error {
			gu, err := tx.UserByEmail("ann@example.com")
			if err != nil {
				return err
			}
			same(t, "UserByEmail", gu, u)
			gd, err := tx.DeviceByUniqueID("222")
			if err != nil {
				return err
			}
			same(t, "DeviceByUniqueID", gd, d)
			return nil
		})
	})
	t.Run("the lookups see the transaction's own writes", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			if err := firstErr(tx.Users().Put(user(1, "ann2@example.com")), tx.Devices().Delete(2),
				tx.Devices().Create(device(0, "333"))); err != nil {
				return err
			}
			for email, want := range map[string]int64{"ann2@example.com": 1, "ann@example.com": 0} {
				u, err := tx.UserByEmail(email)
				lookedUp(t, "UserByEmail("+email+") in the writing transaction", u, err, want)
			}
			for uid, want := range map[string]int64{"222": 0, "333": 3} {
				d, err := tx.DeviceByUniqueID(uid)
				lookedUp(t, "DeviceByUniqueID("+uid+") in the writing transaction", d, err, want)
			}
			return nil
		})
	})
	t.Run("a rolled-back change keeps the old values taken", func(t *testing.T) {
		st := setup(t)
		err := st.Update(func(tx model.Tx) error {
			if err := firstErr(tx.Users().Put(user(1, "ann2@example.com")), tx.Devices().Delete(1)); err != nil {
				return err
			}
			return errRollback
		})
		wantIs(t, err, errRollback, "Update")
		checkLookups(t, st, map[string]int64{"ann@example.com": 1, "ann2@example.com": 0}, map[string]int64{"111": 1})
		wantIs(t, st.Update(func(tx model.Tx) error { return tx.Users().Create(user(0, "ann@example.com")) }),
			model.ErrConflict, "Create with the e-mail a rolled-back Put gave up")
		wantIs(t, st.Update(func(tx model.Tx) error { return tx.Devices().Create(device(0, "111")) }),
			model.ErrConflict, "Create with the uniqueId of a rolled-back Delete")
	})
}

// checkLookups checks that each e-mail and uniqueId finds the record with
// the wanted id, or ErrNotFound where the wanted id is 0.
func checkLookups(t *testing.T, st model.Store, emails, uids map[string]int64) {
	t.Helper()
	view(t, st, func(tx model.Tx) error {
		for email, want := range emails {
			u, err := tx.UserByEmail(email)
			lookedUp(t, fmt.Sprintf("UserByEmail(%q)", email), u, err, want)
		}
		for uid, want := range uids {
			d, err := tx.DeviceByUniqueID(uid)
			lookedUp(t, fmt.Sprintf("DeviceByUniqueID(%q)", uid), d, err, want)
		}
		return nil
	})
}

func lookedUp[P interface {
	model.Entity
	comparable
}](t *testing.T, what string, v P, err error, want int64) {
	t.Helper()
	var zero P
	switch {
	case want == 0:
		wantIs(t, err, model.ErrNotFound, what)
	case err != nil:
		t.Errorf("%s: %v, want id %d", what, err, want)
	case v == zero || v.GetID() != want:
		t.Errorf("%s = %s, want id %d", what, show(v), want)
	}
}

// firstErr returns the first non-nil error of steps run in order.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
