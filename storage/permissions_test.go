package storage

import (
	"reflect"
	"testing"

	"github.com/fleetd/fleetd/app"
	bolt "go.etcd.io/bbolt"
)

func perm(ok string, oid int64, pk string, pid int64) app.Permission {
	return app.Permission{OwnerKind: ok, OwnerID: oid, PropKind: pk, PropID: pid}
}

func TestPermissions(t *testing.T) {
	db := openTestDB(t)
	mustUpdate(t, db, func(tx app.Tx) error {
		for _, p := range []app.Permission{
			perm(app.KindUser, 1, app.KindDevice, 10),
			perm(app.KindUser, 1, app.KindDevice, 3),
			perm(app.KindUser, 1, app.KindDevice, 3), // idempotent
			perm(app.KindUser, 1, app.KindGroup, 10),
			perm(app.KindUser, 2, app.KindDevice, 10),
			perm(app.KindUser, 256, app.KindDevice, 11), // id with a zero byte
			perm(app.KindGroup, 1, app.KindDevice, 10),
			perm(app.KindUser, 1, app.KindManagedUser, 2),
			perm(app.KindUser, 3, app.KindManagedUser, 1),
			perm(app.KindDevice, 10, app.KindGeofence, 5),
		} {
			if err := tx.Link(p); err != nil {
				return err
			}
		}
		return nil
	})

	type query struct {
		name string
		fn   func(app.Tx) ([]int64, error)
		want []int64
	}
	check := func(t *testing.T, queries []query) {
		t.Helper()
		mustView(t, db, func(tx app.Tx) error {
			for _, q := range queries {
				got, err := q.fn(tx)
				if err != nil || !reflect.DeepEqual(got, q.want) {
					t.Errorf("%s = %v, %v; want %v", q.name, got, err, q.want)
				}
			}
			return nil
		})
	}
	linked := func(ok string, oid int64, pk string) func(app.Tx) ([]int64, error) {
		return func(tx app.Tx) ([]int64, error) { return tx.Linked(ok, oid, pk) }
	}
	owners := func(pk string, pid int64, ok string) func(app.Tx) ([]int64, error) {
		return func(tx app.Tx) ([]int64, error) { return tx.Owners(pk, pid, ok) }
	}
	check(t, []query{
		{"user 1 devices", linked(app.KindUser, 1, app.KindDevice), []int64{3, 10}},
		{"user 1 groups", linked(app.KindUser, 1, app.KindGroup), []int64{10}},
		{"user 1 managed users", linked(app.KindUser, 1, app.KindManagedUser), []int64{2}},
		{"user 256 devices", linked(app.KindUser, 256, app.KindDevice), []int64{11}},
		{"user 9 devices", linked(app.KindUser, 9, app.KindDevice), nil},
		{"device 10 user owners", owners(app.KindDevice, 10, app.KindUser), []int64{1, 2}},
		{"device 10 group owners", owners(app.KindDevice, 10, app.KindGroup), []int64{1}},
		{"user 1 as managed user", owners(app.KindManagedUser, 1, app.KindUser), []int64{3}},
		{"device 10 geofences", linked(app.KindDevice, 10, app.KindGeofence), []int64{5}},
	})

	mustUpdate(t, db, func(tx app.Tx) error {
		if err := tx.Unlink(perm(app.KindUser, 1, app.KindDevice, 3)); err != nil {
			return err
		}
		return tx.Unlink(perm(app.KindUser, 1, app.KindDevice, 3)) // idempotent
	})
	check(t, []query{
		{"user 1 devices after unlink", linked(app.KindUser, 1, app.KindDevice), []int64{10}},
		{"device 3 owners after unlink", owners(app.KindDevice, 3, app.KindUser), nil},
	})

	// Device 10 is a property of users 1, 2 and group 1, and the owner of
	// geofence 5; user 1 is an owner and a managed-user property elsewhere.
	mustUpdate(t, db, func(tx app.Tx) error { return tx.UnlinkAll(app.KindDevice, 10) })
	check(t, []query{
		{"user 1 devices after UnlinkAll", linked(app.KindUser, 1, app.KindDevice), nil},
		{"user 2 devices after UnlinkAll", linked(app.KindUser, 2, app.KindDevice), nil},
		{"group 1 devices after UnlinkAll", linked(app.KindGroup, 1, app.KindDevice), nil},
		{"geofence 5 owners after UnlinkAll", owners(app.KindGeofence, 5, app.KindDevice), nil},
		{"user 1 groups untouched", linked(app.KindUser, 1, app.KindGroup), []int64{10}},
		{"user 256 devices untouched", linked(app.KindUser, 256, app.KindDevice), []int64{11}},
	})
	mustUpdate(t, db, func(tx app.Tx) error { return tx.UnlinkAll(app.KindUser, 1) })
	check(t, []query{
		{"user 1 groups after UnlinkAll", linked(app.KindUser, 1, app.KindGroup), nil},
		{"group 10 owners after UnlinkAll", owners(app.KindGroup, 10, app.KindUser), nil},
		{"user 2 managed-by after UnlinkAll", owners(app.KindManagedUser, 2, app.KindUser), nil},
		// (managedUser, 1) is another object than (user, 1).
		{"user 3 managed users untouched", linked(app.KindUser, 3, app.KindManagedUser), []int64{1}},
	})
	mustUpdate(t, db, func(tx app.Tx) error { return tx.UnlinkAll(app.KindManagedUser, 1) })
	check(t, []query{
		{"user 3 managed users after UnlinkAll", linked(app.KindUser, 3, app.KindManagedUser), nil},
	})
	// Only user 256 -> device 11 is left, in both directions.
	db.bolt.View(func(btx *bolt.Tx) error {
		for _, b := range [][]byte{bucketPermissions, bucketPermsReverse} {
			if n := btx.Bucket(b).Stats().KeyN; n != 1 {
				t.Errorf("bucket %s has %d keys, want 1", b, n)
			}
		}
		return nil
	})
}

func TestPermissionKindValidation(t *testing.T) {
	db := openTestDB(t)
	for _, p := range []app.Permission{
		perm("", 1, app.KindDevice, 1),
		perm(app.KindUser, 1, "", 1),
		perm("us\x00er", 1, app.KindDevice, 1),
	} {
		err := db.Update(func(tx app.Tx) error { return tx.Link(p) })
		wantKind(t, err, app.ErrInvalid)
	}
	err := db.View(func(tx app.Tx) error { _, err := tx.Linked(app.KindUser, 1, ""); return err })
	wantKind(t, err, app.ErrInvalid)
}
