package storage

import (
	"reflect"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

func perm(ok string, oid int64, pk string, pid int64) model.Permission {
	return model.Permission{OwnerKind: ok, OwnerID: oid, PropKind: pk, PropID: pid}
}

func TestPermissions(t *testing.T) {
	db := openTestDB(t)
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, p := range []model.Permission{
			perm(model.KindUser, 1, model.KindDevice, 10),
			perm(model.KindUser, 1, model.KindDevice, 3),
			perm(model.KindUser, 1, model.KindDevice, 3), // idempotent
			perm(model.KindUser, 1, model.KindGroup, 10),
			perm(model.KindUser, 2, model.KindDevice, 10),
			perm(model.KindUser, 256, model.KindDevice, 11), // id with a zero byte
			perm(model.KindGroup, 1, model.KindDevice, 10),
			perm(model.KindUser, 1, model.KindManagedUser, 2),
			perm(model.KindUser, 3, model.KindManagedUser, 1),
			perm(model.KindDevice, 10, model.KindGeofence, 5),
		} {
			if err := tx.Link(p); err != nil {
				return err
			}
		}
		return nil
	})

	type query struct {
		name string
		fn   func(model.Tx) ([]int64, error)
		want []int64
	}
	check := func(t *testing.T, queries []query) {
		t.Helper()
		mustView(t, db, func(tx model.Tx) error {
			for _, q := range queries {
				got, err := q.fn(tx)
				if err != nil || !reflect.DeepEqual(got, q.want) {
					t.Errorf("%s = %v, %v; want %v", q.name, got, err, q.want)
				}
			}
			return nil
		})
	}
	linked := func(ok string, oid int64, pk string) func(model.Tx) ([]int64, error) {
		return func(tx model.Tx) ([]int64, error) { return tx.Linked(ok, oid, pk) }
	}
	owners := func(pk string, pid int64, ok string) func(model.Tx) ([]int64, error) {
		return func(tx model.Tx) ([]int64, error) { return tx.Owners(pk, pid, ok) }
	}
	check(t, []query{
		{"user 1 devices", linked(model.KindUser, 1, model.KindDevice), []int64{3, 10}},
		{"user 1 groups", linked(model.KindUser, 1, model.KindGroup), []int64{10}},
		{"user 1 managed users", linked(model.KindUser, 1, model.KindManagedUser), []int64{2}},
		{"user 256 devices", linked(model.KindUser, 256, model.KindDevice), []int64{11}},
		{"user 9 devices", linked(model.KindUser, 9, model.KindDevice), nil},
		{"device 10 user owners", owners(model.KindDevice, 10, model.KindUser), []int64{1, 2}},
		{"device 10 group owners", owners(model.KindDevice, 10, model.KindGroup), []int64{1}},
		{"user 1 as managed user", owners(model.KindManagedUser, 1, model.KindUser), []int64{3}},
		{"device 10 geofences", linked(model.KindDevice, 10, model.KindGeofence), []int64{5}},
	})

	mustUpdate(t, db, func(tx model.Tx) error {
		if err := tx.Unlink(perm(model.KindUser, 1, model.KindDevice, 3)); err != nil {
			return err
		}
		return tx.Unlink(perm(model.KindUser, 1, model.KindDevice, 3)) // idempotent
	})
	check(t, []query{
		{"user 1 devices after unlink", linked(model.KindUser, 1, model.KindDevice), []int64{10}},
		{"device 3 owners after unlink", owners(model.KindDevice, 3, model.KindUser), nil},
	})

	// Device 10 is a property of users 1, 2 and group 1, and the owner of
	// geofence 5; user 1 is an owner and a managed-user property elsewhere.
	mustUpdate(t, db, func(tx model.Tx) error { return tx.UnlinkAll(model.KindDevice, 10) })
	check(t, []query{
		{"user 1 devices after UnlinkAll", linked(model.KindUser, 1, model.KindDevice), nil},
		{"user 2 devices after UnlinkAll", linked(model.KindUser, 2, model.KindDevice), nil},
		{"group 1 devices after UnlinkAll", linked(model.KindGroup, 1, model.KindDevice), nil},
		{"geofence 5 owners after UnlinkAll", owners(model.KindGeofence, 5, model.KindDevice), nil},
		{"user 1 groups untouched", linked(model.KindUser, 1, model.KindGroup), []int64{10}},
		{"user 256 devices untouched", linked(model.KindUser, 256, model.KindDevice), []int64{11}},
	})
	mustUpdate(t, db, func(tx model.Tx) error { return tx.UnlinkAll(model.KindUser, 1) })
	check(t, []query{
		{"user 1 groups after UnlinkAll", linked(model.KindUser, 1, model.KindGroup), nil},
		{"group 10 owners after UnlinkAll", owners(model.KindGroup, 10, model.KindUser), nil},
		{"user 2 managed-by after UnlinkAll", owners(model.KindManagedUser, 2, model.KindUser), nil},
		// (managedUser, 1) is another object than (user, 1).
		{"user 3 managed users untouched", linked(model.KindUser, 3, model.KindManagedUser), []int64{1}},
	})
	mustUpdate(t, db, func(tx model.Tx) error { return tx.UnlinkAll(model.KindManagedUser, 1) })
	check(t, []query{
		{"user 3 managed users after UnlinkAll", linked(model.KindUser, 3, model.KindManagedUser), nil},
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
	for _, p := range []model.Permission{
		perm("", 1, model.KindDevice, 1),
		perm(model.KindUser, 1, "", 1),
		perm("us\x00er", 1, model.KindDevice, 1),
	} {
		err := db.Update(func(tx model.Tx) error { return tx.Link(p) })
		wantKind(t, err, model.ErrInvalid)
	}
	err := db.View(func(tx model.Tx) error { _, err := tx.Linked(model.KindUser, 1, ""); return err })
	wantKind(t, err, model.ErrInvalid)
}
