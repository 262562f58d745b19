package storetest

import (
	"testing"

	"github.com/fleetd/fleetd/app/model"
)

// accounts checks model.AccountsTx: keyed tables (a unique key per
// record, looked up by ByKey), the demo accounts and the maintenance
// switch.
func (s *suite) accounts(t *testing.T) {
	otps := func(tx model.Tx) model.Keyed[model.OTP] { return tx.Accounts().OTPs() }
	otp := func(key string) *model.OTP {
		return &model.OTP{Key: key, Purpose: "registration", Sent: t0, Expires: at(10)}
	}
	// setup stores OTPs 1 "a" and 2 "b".
	setup := func(t *testing.T) model.Store {
		st := s.open(t)
		update(t, st, func(tx model.Tx) error { return firstErr(otps(tx).Create(otp("a")), otps(tx).Create(otp("b"))) })
		return st
	}
	byKey := func(t *testing.T, tx model.Tx, key string, want int64) {
		t.Helper()
		got, err := otps(tx).ByKey(key)
		switch {
		case want == 0:
			wantIs(t, err, model.ErrNotFound, "ByKey("+key+")")
		case err != nil:
			t.Errorf("ByKey(%s): %v", key, err)
		case got.ID != want || got.Key != key:
			t.Errorf("ByKey(%s) = record %d with key %q, want %d", key, got.ID, got.Key, want)
		}
	}

	t.Run("ByKey finds the record holding a key, in the transaction and after", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			err := otps(tx).Create(otp("c"))
			byKey(t, tx, "c", 3)
			return err
		})
		view(t, st, func(tx model.Tx) error {
			byKey(t, tx, "a", 1)
			byKey(t, tx, "b", 2)
			byKey(t, tx, "c", 3)
			byKey(t, tx, "d", 0)
			byKey(t, tx, "A", 0) // keys are exact
			got, err := otps(tx).ByKey("a")
			if err == nil {
				want, gerr := otps(tx).Get(1)
				same(t, "ByKey's record is the record", got, want)
				err = gerr
			}
			return err
		})
	})

	t.Run("a taken key is ErrConflict on Create and Put, and nothing changes", func(t *testing.T) {
		st := setup(t)
		before := state(t, st)
		err := st.Update(func(tx model.Tx) error { return otps(tx).Create(otp("a")) })
		wantIs(t, err, model.ErrConflict, "Create with a taken key")
		err = st.Update(func(tx model.Tx) error {
			b := otp("a")
			b.ID = 2
			return otps(tx).Put(b)
		})
		wantIs(t, err, model.ErrConflict, "Put to another record's key")
		diffState(t, "refused writes", state(t, st), before)
	})

	t.Run("Put to a new key frees the old one, Delete frees its key", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			b := otp("b2")
			b.ID = 2
			if err := otps(tx).Put(b); err != nil {
				return err
			}
			if err := otps(tx).Delete(1); err != nil {
				return err
			}
			byKey(t, tx, "b", 0)
			return firstErr(otps(tx).Create(otp("a")), otps(tx).Create(otp("b")))
		})
		view(t, st, func(tx model.Tx) error {
			byKey(t, tx, "a", 3)
			byKey(t, tx, "b", 4)
			byKey(t, tx, "b2", 2)
			return nil
		})
	})

	t.Run("OTP tokens are keyed apart from OTPs", func(t *testing.T) {
		st := setup(t)
		update(t, st, func(tx model.Tx) error {
			return tx.Accounts().OTPTokens().Create(&model.OTPToken{Key: "a", Purpose: "reset", Expires: at(5)})
		})
		view(t, st, func(tx model.Tx) error {
			tok, err := tx.Accounts().OTPTokens().ByKey("a")
			if err != nil || tok.ID != 1 || tok.Purpose != "reset" {
				t.Errorf("token ByKey(a) = %+v, %v", tok, err)
			}
			byKey(t, tx, "a", 1)
			return nil
		})
	})

	t.Run("DemoUser maps a phone to its account", func(t *testing.T) {
		st := s.open(t)
		demo := func(phone string) (id int64, ok bool) {
			t.Helper()
			view(t, st, func(tx model.Tx) (err error) { id, ok, err = tx.Accounts().DemoUser(phone); return err })
			return id, ok
		}
		if id, ok := demo("+1555"); ok || id != 0 {
			t.Errorf("before any: %d, %v", id, ok)
		}
		update(t, st, func(tx model.Tx) error { return tx.Accounts().SetDemoUser("+1555", 7) })
		update(t, st, func(tx model.Tx) error { return tx.Accounts().SetDemoUser("+1666", 8) })
		update(t, st, func(tx model.Tx) error { return tx.Accounts().SetDemoUser("+1555", 9) })
		if id, ok := demo("+1555"); !ok || id != 9 {
			t.Errorf("+1555: %d, %v; want 9 (the last set)", id, ok)
		}
		if id, ok := demo("+1666"); !ok || id != 8 {
			t.Errorf("+1666: %d, %v; want 8", id, ok)
		}
	})

	t.Run("Maintenance is off until set, and keeps what was set", func(t *testing.T) {
		st := s.open(t)
		on := func() (on bool) {
			t.Helper()
			view(t, st, func(tx model.Tx) (err error) { on, err = tx.Accounts().Maintenance(); return err })
			return on
		}
		if on() {
			t.Error("a new store is in maintenance")
		}
		update(t, st, func(tx model.Tx) error { return tx.Accounts().SetMaintenance(true) })
		if !on() {
			t.Error("off after SetMaintenance(true)")
		}
		update(t, st, func(tx model.Tx) error { return tx.Accounts().SetMaintenance(false) })
		if on() {
			t.Error("on after SetMaintenance(false)")
		}
	})
}
