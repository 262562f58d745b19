package storage

import (
	"bytes"
	"slices"
	"testing"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// bucketNames lists the top-level buckets of db, then those nested in
// bucketCollections as "collections/<name>".
func bucketNames(t *testing.T, db *DB) []string {
	t.Helper()
	var names []string
	db.bolt.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			names = append(names, string(name))
			if bytes.Equal(name, bucketCollections) {
				return b.ForEachBucket(func(k []byte) error {
					names = append(names, string(bucketCollections)+"/"+string(k))
					return nil
				})
			}
			return nil
		})
	})
	return names
}

// The migrations create the buckets of the current schema and of every
// registered collection and key set, and nothing else; writes through
// Records and Keys, to registered names or not, create none. The
// registry's buckets are nested in one top-level bucket, so the root
// (rewritten by every commit, ingest's too) stays as small as schema 3's.
func TestCollectionsMadeByMigration(t *testing.T) {
	db := openTestDB(t)
	want := []string{string(bucketCollections)}
	for _, b := range currentBuckets {
		want = append(want, string(b))
	}
	for _, b := range registeredBuckets() {
		want = append(want, string(bucketCollections)+"/"+string(b))
	}
	slices.Sort(want)
	if got := bucketNames(t, db); !slices.Equal(got, want) {
		t.Fatalf("a new store has buckets\n %q\nwant\n %q", got, want)
	}
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, c := range collections {
			id, err := tx.Records(c.name).NextID()
			if err != nil {
				return err
			}
			if err := tx.Records(c.name).Put(id, []byte(`{}`)); err != nil {
				return err
			}
			for _, k := range c.keys {
				if err := tx.Keys(k).Put("k", id); err != nil {
					return err
				}
			}
		}
		for _, k := range keySets {
			if err := tx.Keys(k.name).Put("k", 1); err != nil {
				return err
			}
		}
		id, err := tx.Records("not_registered").NextID()
		if err != nil {
			return err
		}
		return model.FirstError(tx.Records("not_registered").Put(id, []byte(`{}`)), tx.Keys("not_registered").Put("k", 1))
	})
	if got := bucketNames(t, db); !slices.Equal(got, want) {
		t.Errorf("after writes the store has buckets\n %q\nwant\n %q", got, want)
	}
	// No two registered names share a bucket.
	seen := map[string]bool{}
	for _, b := range registeredBuckets() {
		if seen[string(b)] {
			t.Errorf("bucket %s is registered twice", b)
		}
		seen[string(b)] = true
	}
}

// A write to a collection in a read transaction fails; it does not panic
// or create anything.
func TestCollectionWriteInView(t *testing.T) {
	db := openTestDB(t)
	err := db.View(func(tx model.Tx) error { return tx.Records(colTickets.name).Put(1, []byte(`{}`)) })
	if err == nil {
		t.Error("Put in a read transaction succeeded")
	}
	err = db.View(func(tx model.Tx) error { return tx.Keys("not_registered").Put("k", 1) })
	if err == nil {
		t.Error("Keys.Put in a read transaction succeeded")
	}
	err = db.View(func(tx model.Tx) error { _, err := tx.Records("not_registered").NextID(); return err })
	if err == nil {
		t.Error("NextID in a read transaction succeeded")
	}
}
