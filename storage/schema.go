package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// Bucket names; doc.go describes what each holds.
var (
	bucketMeta         = []byte("meta")
	bucketUsers        = []byte("users")
	bucketUserEmails   = []byte("users_by_email")
	bucketDevices      = []byte("devices")
	bucketDeviceUIDs   = []byte("devices_by_unique_id")
	bucketGroups       = []byte("groups")
	bucketCommands     = []byte("commands")
	bucketGeofences    = []byte("geofences")
	bucketSessions     = []byte("sessions")
	bucketPermissions  = []byte("permissions")
	bucketPermsReverse = []byte("permissions_reverse")
	bucketPositions    = []byte("positions")
	bucketPositionIDs  = []byte("position_ids")
	bucketLatest       = []byte("position_latest") // dropped by migration 3
	bucketEvents       = []byte("events")
	bucketEventIDs     = []byte("event_ids")
	bucketQueue        = []byte("command_queue")
	// Schema 5: the position log, chunks and id blocks (positions.go).
	bucketPositionLog    = []byte("positions_log")
	bucketPositionChunks = []byte("position_chunks")
	bucketPositionBlocks = []byte("position_blocks")
)

// schemaV1Buckets are the buckets migration 1 creates.
var schemaV1Buckets = [][]byte{
	bucketMeta, bucketUsers, bucketUserEmails, bucketDevices, bucketDeviceUIDs,
	bucketGroups, bucketCommands, bucketGeofences, bucketSessions,
	bucketPermissions, bucketPermsReverse, bucketPositions, bucketPositionIDs,
	bucketLatest, bucketEvents, bucketEventIDs,
}

// schemaV2Buckets are the buckets migration 2 adds: commands waiting for an
// offline device.
var schemaV2Buckets = [][]byte{bucketQueue}

// currentBuckets are the top-level buckets of the current schema, but for
// bucketCollections (collections.go), which holds the registry's.
var currentBuckets = slices.Concat(
	slices.DeleteFunc(slices.Clone(schemaV1Buckets), func(b []byte) bool { return bytes.Equal(b, bucketLatest) }),
	schemaV2Buckets, schemaV5Buckets)

var (
	metaSchema = []byte("schema")
	metaServer = []byte("server")
)

// migrations[i] upgrades a file from schema i to schema i+1. Append only:
// never edit or reorder a migration that has shipped.
var migrations = [...]func(*bolt.Tx) error{
	createBuckets(schemaV1Buckets),
	createBuckets(schemaV2Buckets),
	dropLatestIndex,
	collectionsV4,
	positionLogV5,
	createCollections(6),
}

// CurrentSchema is the schema version this build writes.
const CurrentSchema = len(migrations)

// ErrNewerSchema is returned for a store written by a newer fleetd.
var ErrNewerSchema = errors.New("store was written by a newer fleetd; upgrade fleetd to open it")

func createBuckets(names [][]byte) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		for _, name := range names {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	}
}

// dropLatestIndex removes the index of each device's latest position: the
// last key of the device's range in positions says the same, and keeping
// the index cost a page write per device in every ingest commit.
func dropLatestIndex(tx *bolt.Tx) error {
	if err := tx.DeleteBucket(bucketLatest); err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
		return fmt.Errorf("drop bucket %s: %w", bucketLatest, err)
	}
	return nil
}

// collectionsV4 puts the buckets of every collection and key set
// registered with schema 4, the ones the extended entity kinds made on
// first write until then (collections.go), in bucket "collections": it
// moves there the ones the file has, creates the others, and moves the
// unregistered ones into the ad hoc buckets.
func collectionsV4(tx *bolt.Tx) error {
	if err := nestCollections(tx); err != nil {
		return err
	}
	if err := createCollections(4)(tx); err != nil {
		return err
	}
	return adoptAdhoc(tx)
}

// schemaV5Buckets hold positions in the layout of issue 14.
var schemaV5Buckets = [][]byte{bucketPositionLog, bucketPositionChunks, bucketPositionBlocks}

// positionLogV5 creates the position log, chunks and id blocks. The log's
// ids go on from the old layout's; its rows move to chunks in the
// background (compact.go), which reads see meanwhile.
func positionLogV5(tx *bolt.Tx) error {
	if err := createBuckets(schemaV5Buckets)(tx); err != nil {
		return err
	}
	return tx.Bucket(bucketPositionLog).SetSequence(tx.Bucket(bucketPositions).Sequence())
}

// readSchema returns the schema version of tx's file: 0 for a file without
// a meta bucket (a new file).
func readSchema(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0, nil
	}
	v := meta.Get(metaSchema)
	if len(v) != 8 {
		return 0, fmt.Errorf("store meta has no valid schema version")
	}
	n := binary.BigEndian.Uint64(v)
	if n > uint64(CurrentSchema) {
		return 0, fmt.Errorf("%w (file schema %d, this build %d)", ErrNewerSchema, n, CurrentSchema)
	}
	return int(n), nil
}

// migrate brings tx's file to CurrentSchema and reports how many migrations
// it ran.
func migrate(tx *bolt.Tx) (int, error) {
	from, err := readSchema(tx)
	if err != nil {
		return 0, err
	}
	for v := from; v < CurrentSchema; v++ {
		if err := migrations[v](tx); err != nil {
			return 0, fmt.Errorf("migrate store to schema %d: %w", v+1, err)
		}
	}
	if from == CurrentSchema {
		return 0, nil
	}
	version := binary.BigEndian.AppendUint64(nil, uint64(CurrentSchema))
	if err := tx.Bucket(bucketMeta).Put(metaSchema, version); err != nil {
		return 0, err
	}
	return CurrentSchema - from, nil
}

// checkCurrent verifies that tx's file is at CurrentSchema and has every
// bucket, so transactions can rely on tx.Bucket never returning nil.
func checkCurrent(tx *bolt.Tx) error {
	v, err := readSchema(tx)
	if err != nil {
		return err
	}
	if v != CurrentSchema {
		return fmt.Errorf("store schema %d is older than %d; open it read-write once to upgrade", v, CurrentSchema)
	}
	for _, name := range currentBuckets {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("store is damaged: bucket %s is missing", name)
		}
	}
	if tx.Bucket(bucketCollections) == nil {
		return fmt.Errorf("store is damaged: bucket %s is missing", bucketCollections)
	}
	for _, name := range registeredBuckets() {
		if collectionBucket(tx, name) == nil {
			return fmt.Errorf("store is damaged: bucket %s/%s is missing", bucketCollections, name)
		}
	}
	return nil
}

// SchemaVersion returns the schema version stored in db.
func SchemaVersion(db *DB) (int, error) {
	var v int
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		v, err = readSchema(tx)
		return err
	})
	return v, err
}
