package storage

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fleetd/fleetd/app"
	bolt "go.etcd.io/bbolt"
)

func TestUserEmailIndex(t *testing.T) {
	db := openTestDB(t)
	// Setup: user 1 ann@example.com, user 2 bob@example.com, users 3 and 4 without e-mail.
	mustUpdate(t, db, func(tx app.Tx) error {
		for _, email := range []string{"ann@example.com", "bob@example.com", "", "  "} {
			if err := tx.Users().Create(&app.User{Email: email}); err != nil {
				return err
			}
		}
		return nil
	})
	tests := []struct {
		name    string
		op      func(app.Tx) error
		wantErr error  // nil for success
		errHas  string // text the error must contain
	}{
		{"create taken", func(tx app.Tx) error { return tx.Users().Create(&app.User{Email: "ann@example.com"}) }, app.ErrConflict, `"ann@example.com" already exists`},
		{"create taken other case and spaces", func(tx app.Tx) error { return tx.Users().Create(&app.User{Email: " ANN@Example.com "}) }, app.ErrConflict, "email"},
		{"create another empty", func(tx app.Tx) error { return tx.Users().Create(&app.User{}) }, nil, ""},
		{"update to taken", func(tx app.Tx) error { return tx.Users().Put(&app.User{Base: app.Base{ID: 2}, Email: "Ann@example.com"}) }, app.ErrConflict, "already exists"},
		{"update empty to taken", func(tx app.Tx) error { return tx.Users().Put(&app.User{Base: app.Base{ID: 3}, Email: "bob@example.com"}) }, app.ErrConflict, "already exists"},
		{"update keeping own", func(tx app.Tx) error { return tx.Users().Put(&app.User{Base: app.Base{ID: 1}, Email: "ANN@example.com", Name: "Ann"}) }, nil, ""},
	}
	for _, tt := range tests {
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

	// Changing an e-mail moves the index; deleting frees it.
	mustUpdate(t, db, func(tx app.Tx) error {
		return tx.Users().Put(&app.User{Base: app.Base{ID: 2}, Email: "robert@example.com"})
	})
	mustUpdate(t, db, func(tx app.Tx) error { return tx.Users().Delete(1) })
	mustView(t, db, func(tx app.Tx) error {
		for email, wantID := range map[string]int64{"robert@example.com": 2, " Robert@EXAMPLE.com": 2, "bob@example.com": 0, "ann@example.com": 0, "": 0} {
			u, err := tx.UserByEmail(email)
			if wantID == 0 {
				wantKind(t, err, app.ErrNotFound)
			} else if err != nil || u.ID != wantID {
				t.Errorf("UserByEmail(%q) = %v, %v; want id %d", email, u, err, wantID)
			}
		}
		return nil
	})
	mustUpdate(t, db, func(tx app.Tx) error {
		if err := tx.Users().Create(&app.User{Email: "bob@example.com"}); err != nil {
			return err
		}
		return tx.Users().Create(&app.User{Email: "ann@example.com"})
	})
}

func TestDeviceUniqueIDIndex(t *testing.T) {
	db := openTestDB(t)
	mustUpdate(t, db, func(tx app.Tx) error {
		for _, uid := range []string{"111", "222"} {
			if err := tx.Devices().Create(&app.Device{UniqueID: uid}); err != nil {
				return err
			}
		}
		return nil
	})
	tests := []struct {
		name    string
		op      func(app.Tx) error
		wantErr error
	}{
		{"create taken", func(tx app.Tx) error { return tx.Devices().Create(&app.Device{UniqueID: "111"}) }, app.ErrConflict},
		{"create taken padded", func(tx app.Tx) error { return tx.Devices().Create(&app.Device{UniqueID: " 111\t"}) }, app.ErrConflict},
		{"create empty", func(tx app.Tx) error { return tx.Devices().Create(&app.Device{UniqueID: "  "}) }, app.ErrInvalid},
		{"update to taken", func(tx app.Tx) error { return tx.Devices().Put(&app.Device{Base: app.Base{ID: 2}, UniqueID: "111"}) }, app.ErrConflict},
		{"update to empty", func(tx app.Tx) error { return tx.Devices().Put(&app.Device{Base: app.Base{ID: 2}}) }, app.ErrInvalid},
		{"uniqueId is case sensitive", func(tx app.Tx) error { return tx.Devices().Create(&app.Device{UniqueID: "abc"}) }, nil},
		{"other case is another device", func(tx app.Tx) error { return tx.Devices().Create(&app.Device{UniqueID: "ABC"}) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := db.Update(tt.op)
			if tt.wantErr == nil && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != nil {
				wantKind(t, err, tt.wantErr)
			}
		})
	}
	mustUpdate(t, db, func(tx app.Tx) error {
		return tx.Devices().Put(&app.Device{Base: app.Base{ID: 1}, UniqueID: "333"})
	})
	mustUpdate(t, db, func(tx app.Tx) error { return tx.Devices().Delete(2) })
	mustView(t, db, func(tx app.Tx) error {
		for uid, wantID := range map[string]int64{"333": 1, " 333 ": 1, "111": 0, "222": 0, "abc": 3, "ABC": 4, "": 0} {
			d, err := tx.DeviceByUniqueID(uid)
			if wantID == 0 {
				wantKind(t, err, app.ErrNotFound)
			} else if err != nil || d.ID != wantID {
				t.Errorf("DeviceByUniqueID(%q) = %v, %v; want id %d", uid, d, err, wantID)
			}
		}
		return nil
	})
	mustUpdate(t, db, func(tx app.Tx) error {
		return errors.Join(tx.Devices().Create(&app.Device{UniqueID: "111"}), tx.Devices().Create(&app.Device{UniqueID: "222"}))
	})
}

func TestUserPasswordNotStored(t *testing.T) {
	db := openTestDB(t)
	const plain, hash = "s3cret-plaintext", "$argon2id$v=19$fakehash"
	u := &app.User{Email: "a@example.com", Password: plain, PasswordHash: hash}
	mustUpdate(t, db, func(tx app.Tx) error { return tx.Users().Create(u) })
	u.Password = plain
	mustUpdate(t, db, func(tx app.Tx) error { return tx.Users().Put(u) })

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
	mustView(t, db, func(tx app.Tx) error {
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
