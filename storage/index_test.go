package storage

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// checkLookups checks that lookup finds the record with the wanted id for
// each value, or none where the wanted id is 0.
func checkLookups(t *testing.T, db *DB, lookup func(model.Tx, string) (model.Entity, error), want map[string]int64) {
	t.Helper()
	mustView(t, db, func(tx model.Tx) error {
		for value, wantID := range want {
			v, err := lookup(tx, value)
			if wantID == 0 {
				wantKind(t, err, model.ErrNotFound)
			} else if err != nil || v.GetID() != wantID {
				t.Errorf("lookup(%q) = %v, %v; want id %d", value, v, err, wantID)
			}
		}
		return nil
	})
}

// opCase is one Update and the error it must give.
type opCase struct {
	name    string
	op      func(model.Tx) error
	wantErr error  // nil for success, else a sentinel to match
	errHas  string // text the error must contain
}

func runOps(t *testing.T, db *DB, cases []opCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			err := db.Update(tt.op)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantKind(t, err, tt.wantErr)
			if !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("error %q does not contain %q", err, tt.errHas)
			}
		})
	}
}

func TestUserEmailIndex(t *testing.T) {
	db := openTestDB(t)
	// Setup: user 1 ann@example.com, user 2 bob@example.com, users 3 and 4 without e-mail.
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, email := range []string{"ann@example.com", "bob@example.com", "", "  "} {
			if err := tx.Users().Create(&model.User{Email: email}); err != nil {
				return err
			}
		}
		return nil
	})
	runOps(t, db, []opCase{
		{"create taken", func(tx model.Tx) error { return tx.Users().Create(&model.User{Email: "ann@example.com"}) }, model.ErrConflict, `"ann@example.com" already exists`},
		{"create taken other case and spaces", func(tx model.Tx) error { return tx.Users().Create(&model.User{Email: " ANN@Example.com "}) }, model.ErrConflict, "email"},
		{"create another empty", func(tx model.Tx) error { return tx.Users().Create(&model.User{}) }, nil, ""},
		{"update to taken", func(tx model.Tx) error {
			return tx.Users().Put(&model.User{Base: model.Base{ID: 2}, Email: "Ann@example.com"})
		}, model.ErrConflict, "already exists"},
		{"update empty to taken", func(tx model.Tx) error {
			return tx.Users().Put(&model.User{Base: model.Base{ID: 3}, Email: "bob@example.com"})
		}, model.ErrConflict, "already exists"},
		{"update keeping own", func(tx model.Tx) error {
			return tx.Users().Put(&model.User{Base: model.Base{ID: 1}, Email: "ANN@example.com", Name: "Ann"})
		}, nil, ""},
	})

	// Changing an e-mail moves the index; deleting frees it.
	mustUpdate(t, db, func(tx model.Tx) error {
		return tx.Users().Put(&model.User{Base: model.Base{ID: 2}, Email: "robert@example.com"})
	})
	mustUpdate(t, db, func(tx model.Tx) error { return tx.Users().Delete(1) })
	checkLookups(t, db, func(tx model.Tx, email string) (model.Entity, error) { return tx.UserByEmail(email) },
		map[string]int64{"robert@example.com": 2, " Robert@EXAMPLE.com": 2, "bob@example.com": 0, "ann@example.com": 0, "": 0})
	mustUpdate(t, db, func(tx model.Tx) error {
		if err := tx.Users().Create(&model.User{Email: "bob@example.com"}); err != nil {
			return err
		}
		return tx.Users().Create(&model.User{Email: "ann@example.com"})
	})
}

func TestDeviceUniqueIDIndex(t *testing.T) {
	db := openTestDB(t)
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, uid := range []string{"111", "222"} {
			if err := tx.Devices().Create(&model.Device{UniqueID: uid}); err != nil {
				return err
			}
		}
		return nil
	})
	runOps(t, db, []opCase{
		{"create taken", func(tx model.Tx) error { return tx.Devices().Create(&model.Device{UniqueID: "111"}) }, model.ErrConflict, `device with uniqueId "111" already exists`},
		{"create taken padded", func(tx model.Tx) error { return tx.Devices().Create(&model.Device{UniqueID: " 111\t"}) }, model.ErrConflict, ""},
		{"create empty", func(tx model.Tx) error { return tx.Devices().Create(&model.Device{UniqueID: "  "}) }, model.ErrInvalid, "device uniqueId is required"},
		{"update to taken", func(tx model.Tx) error {
			return tx.Devices().Put(&model.Device{Base: model.Base{ID: 2}, UniqueID: "111"})
		}, model.ErrConflict, ""},
		{"update to empty", func(tx model.Tx) error { return tx.Devices().Put(&model.Device{Base: model.Base{ID: 2}}) }, model.ErrInvalid, ""},
		{"uniqueId is case sensitive", func(tx model.Tx) error { return tx.Devices().Create(&model.Device{UniqueID: "abc"}) }, nil, ""},
		{"other case is another device", func(tx model.Tx) error { return tx.Devices().Create(&model.Device{UniqueID: "ABC"}) }, nil, ""},
	})
	mustUpdate(t, db, func(tx model.Tx) error {
		return tx.Devices().Put(&model.Device{Base: model.Base{ID: 1}, UniqueID: "333"})
	})
	mustUpdate(t, db, func(tx model.Tx) error { return tx.Devices().Delete(2) })
	checkLookups(t, db, func(tx model.Tx, uid string) (model.Entity, error) { return tx.DeviceByUniqueID(uid) },
		map[string]int64{"333": 1, " 333 ": 1, "111": 0, "222": 0, "abc": 3, "ABC": 4, "": 0})
	mustUpdate(t, db, func(tx model.Tx) error {
		return errors.Join(tx.Devices().Create(&model.Device{UniqueID: "111"}), tx.Devices().Create(&model.Device{UniqueID: "222"}))
	})
}

func TestUserPasswordNotStored(t *testing.T) {
	db := openTestDB(t)
	const plain, hash = "s3cret-plaintext", "$argon2id$v=19$fakehash"
	u := &model.User{Email: "a@example.com", Password: plain, PasswordHash: hash}
	mustUpdate(t, db, func(tx model.Tx) error { return tx.Users().Create(u) })
	u.Password = plain
	mustUpdate(t, db, func(tx model.Tx) error { return tx.Users().Put(u) })

	err := db.bolt.View(func(btx *bolt.Tx) error {
		raw := btx.Bucket(bucketUsers).Get(idKey(u.ID))
		if raw == nil {
			t.Fatal("user record missing")
		}
		if bytes.Contains(raw, []byte(plain)) {
			t.Errorf("stored user contains the plaintext password: %s", raw)
		}
		if !bytes.Contains(raw, []byte(hash)) {
			t.Errorf("stored user lacks the hash: %s", raw)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mustView(t, db, func(tx model.Tx) error {
		got, err := tx.Users().Get(u.ID)
		if err != nil {
			return err
		}
		if got.PasswordHash != hash || got.Password != "" {
			t.Errorf("got PasswordHash %q Password %q; want %q and empty", got.PasswordHash, got.Password, hash)
		}
		return nil
	})
}

// TestKeyTooLarge: a value too long to be a key fails the write with the
// core's invalid-request error (a 400 for the client, not a 500), rolls
// the transaction back, and Update and Batch answer alike.
func TestKeyTooLarge(t *testing.T) {
	long := strings.Repeat("9", bolt.MaxKeySize+1)
	writes := []struct {
		name string
		op   func(model.Tx) error
	}{
		{"device uniqueId", func(tx model.Tx) error { return tx.Devices().Create(&model.Device{UniqueID: long}) }},
		{"user e-mail", func(tx model.Tx) error { return tx.Users().Create(&model.User{Email: long + "@example.com"}) }},
		{"key set", func(tx model.Tx) error { return tx.Keys("otpKeys").Put(long, 1) }},
	}
	for _, w := range writes {
		for _, via := range []struct {
			name  string
			write func(*DB, func(model.Tx) error) error
		}{{"Update", (*DB).Update}, {"Batch", (*DB).Batch}} {
			t.Run(w.name+" "+via.name, func(t *testing.T) {
				db := openTestDB(t)
				err := via.write(db, func(tx model.Tx) error {
					if err := tx.Groups().Create(&model.Group{Name: "written first"}); err != nil {
						return err
					}
					return w.op(tx)
				})
				if model.ClassOf(err) != model.ClassInvalid || !errors.Is(err, ErrKeyTooLarge) || !errors.Is(err, bolt.ErrKeyTooLarge) {
					t.Fatalf("error %v (kind %d), want ErrKeyTooLarge", err, model.ClassOf(err))
				}
				if !strings.Contains(err.Error(), "too long to be stored") {
					t.Errorf("error %q does not say what is wrong", err)
				}
				mustView(t, db, func(tx model.Tx) error {
					for _, count := range []func() (int, error){tx.Groups().Count, tx.Devices().Count, tx.Users().Count} {
						if n, err := count(); err != nil || n != 0 {
							t.Errorf("%d records after a failed write (%v), want none", n, err)
						}
					}
					return nil
				})
			})
		}
	}
}
