package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// The registry of the extended (v2) collections: every collection of
// records and every key set this build reads or writes, with the record
// kind and the key sets that index it. A collection keeps its records in
// bucket "records/<name>" under 8-byte ids from that bucket's sequence; a
// key set maps strings to ids in "keys/<name>". The migration of schema
// since creates their buckets, so a write never has to, and Open refuses
// a file that lacks one.
//
// Those buckets, and the ad hoc ones, are nested in the one top-level
// bucket "collections", not top-level themselves: bbolt rewrites the root
// node (one entry per top-level bucket) in every commit that writes any
// top-level bucket, so the 30-odd registered buckets at the top made every
// ingest commit (positions) rewrite a root node three times as big. Nested,
// they cost only the commits that write a collection.
//
// Names are the file's layout: a shipped one is never renamed nor its
// since changed. A new collection is added here with the next schema and a
// migration createCollections(that schema).

// collection is one registered collection of records.
type collection struct {
	name string
	what string // the record kind, for messages
	// keys are the key sets that index it (kept with it, also registered).
	keys  []string
	since int
}

// keySetDef is a key set of its own, indexing no collection of records.
type keySetDef struct {
	name  string
	what  string // what it maps, for the documentation
	since int
}

func (c *collection) bucket() []byte  { return []byte("records/" + c.name) }
func keySetBucket(name string) []byte { return []byte("keys/" + name) }

// The collections, by area.
var (
	// Fleet: drivers with their unique uniqueId (the drivers' table keeps
	// the key set, entities.go), computed attributes, and devices'
	// installation records (under the device's id, fleet.go).
	colDrivers      = &collection{name: "drivers", what: "driver", keys: []string{"drivers_by_unique_id"}, since: 4}
	colComputed     = &collection{name: "computed_attributes", what: "Attribute", since: 4}
	colInstallation = &collection{name: "installations", what: "Installation", since: 4}
	// Schema 6: Traccar's calendars and maintenance reminders.
	colCalendars    = &collection{name: "calendars", what: "Calendar", since: 6}
	colMaintenances = &collection{name: "maintenances", what: "Maintenance", since: 6}
	// Traccar's notifications, with the calendars (schema 6 has shipped
	// in no release yet).
	colNotifications = &collection{name: "notifications", what: "Notification", since: 6}
	colReports       = &collection{name: "reports", what: "Report", since: 6}
	// The audit log and the daily usage statistics, keyed by time
	// (audit.go).
	colAudit      = &collection{name: "audit", what: "Audit entry", since: 6}
	colStatistics = &collection{name: "statistics", what: "Statistics", since: 6}

	// Office: each kind's records with a key set "<group>/<id>" by owner
	// (responses: by ticket), kept by the tables of office.go.
	colTickets        = officeCollection("tickets", "Ticket")
	colResponses      = officeCollection("ticket_responses", "Response")
	colDocuments      = officeCollection("documents", "Document")
	colFiles          = officeCollection("files", "File")
	colServiceRecords = officeCollection("service_records", "Service record")
	colServiceTasks   = officeCollection("service_tasks", "Task")
	colPayments       = officeCollection("payments", "Payment")

	// Accounts: pending one-time codes by purpose and subject, the tokens
	// verified codes give by their hash, and the maintenance switch.
	colOTPs        = &collection{name: "otps", what: "OTP", keys: []string{"otpKeys"}, since: 4}
	colOTPTokens   = &collection{name: "otpTokens", what: "token", keys: []string{"otpTokenKeys"}, since: 4}
	colServerState = &collection{name: "serverState", what: "server state", since: 4}

	// Notify: each user's switches and push tokens, under the user's id,
	// and the tokens' owners.
	colNotifySettings = &collection{name: "notificationSettings", what: "notification settings", since: 4}
	colPushTokens     = &collection{name: "pushTokens", what: "push tokens", keys: []string{"pushTokenOwners"}, since: 4}
)

func officeCollection(name, what string) *collection {
	return &collection{name: name, what: what, keys: []string{name + "_by_group"}, since: 4}
}

// collections lists every registered collection.
var collections = []*collection{
	colDrivers, colComputed, colInstallation, colCalendars, colMaintenances, colNotifications, colReports, colAudit, colStatistics,
	colTickets, colResponses, colDocuments, colFiles, colServiceRecords, colServiceTasks, colPayments,
	colOTPs, colOTPTokens, colServerState,
	colNotifySettings, colPushTokens,
}

// The key sets of their own.
var (
	ksCounters  = &keySetDef{name: "counters", what: "office counters (ticket_no) -> last number", since: 4}
	ksSeeds     = &keySetDef{name: "seeds", what: "office defaults added once (service_tasks) -> 1", since: 4}
	ksDemoUsers = &keySetDef{name: "demoUsers", what: "verified demo phone -> user id", since: 4}
	// fleetd import traccar: a Traccar object's id -> the fleetd id it got,
	// the spans of history imported per device, and the server imported
	// from (app/traccarimport; schema 6 has shipped in no release yet).
	ksImportedTraccar = &keySetDef{name: model.ImportedTraccar, what: "Traccar ids -> fleetd ids, imported history spans", since: 6}
	// Not id maps: files by name (blobs.go), a device's under "<id>/",
	// and the web files administrators upload (Traccar's web override).
	ksMedia    = &keySetDef{name: "media", what: "<device id>/<file name> -> content type, 0, bytes", since: 6}
	ksWebFiles = &keySetDef{name: "webFiles", what: "path -> content type, 0, bytes", since: 6}
)

// keySets lists the key sets of their own.
var keySets = []*keySetDef{ksCounters, ksSeeds, ksDemoUsers, ksImportedTraccar, ksMedia, ksWebFiles}

func (k *keySetDef) bucket() []byte { return keySetBucket(k.name) }

// bucketCollections is the top-level bucket holding every bucket of the
// registry and the ad hoc ones, under the names below.
var bucketCollections = []byte("collections")

// Unregistered names: Records and Keys of a name not in the registry
// (a kind under development, a test) share three buckets, so they too
// never create one. Keys are the name, 0x00, then the record id (8 bytes)
// or the key; adhoc_sequences holds each collection's last id.
var (
	bucketAdhocRecords   = []byte("adhoc_records")
	bucketAdhocKeys      = []byte("adhoc_keys")
	bucketAdhocSequences = []byte("adhoc_sequences")
)

var (
	collectionsByName = map[string]*collection{}
	keySetsByName     = map[string]bool{}
	// nestedBuckets are the names in bucketCollections (registeredBuckets).
	nestedBuckets = map[string]bool{}
)

func init() {
	for _, b := range registeredBuckets() {
		nestedBuckets[string(b)] = true
	}
	for _, c := range collections {
		collectionsByName[c.name] = c
		for _, k := range c.keys {
			keySetsByName[k] = true
		}
	}
	for _, k := range keySets {
		keySetsByName[k.name] = true
	}
}

// collectionBuckets are the buckets of the registered collections and
// key sets created by the migration to schema since.
func collectionBuckets(since int) [][]byte {
	var out [][]byte
	for _, c := range collections {
		if c.since == since {
			out = append(out, c.bucket())
			for _, k := range c.keys {
				out = append(out, keySetBucket(k))
			}
		}
	}
	for _, k := range keySets {
		if k.since == since {
			out = append(out, keySetBucket(k.name))
		}
	}
	return out
}

// registeredBuckets are the buckets of every registered collection and
// key set, and of the unregistered ones.
func registeredBuckets() [][]byte {
	out := [][]byte{bucketAdhocRecords, bucketAdhocKeys, bucketAdhocSequences}
	for v := 1; v <= CurrentSchema; v++ {
		out = append(out, collectionBuckets(v)...)
	}
	return out
}

// collectionBucket returns the registry's (or ad hoc) bucket name, nested
// in bucketCollections.
func collectionBucket(tx *bolt.Tx, name []byte) *bolt.Bucket {
	return tx.Bucket(bucketCollections).Bucket(name)
}

// bucketAt returns the bucket name, wherever the layout puts it: nested in
// bucketCollections for the registry's names, top-level for the others.
// Tables use it, as their specs name buckets of either kind.
func bucketAt(tx *bolt.Tx, name []byte) *bolt.Bucket {
	if nestedBuckets[string(name)] {
		return collectionBucket(tx, name)
	}
	return tx.Bucket(name)
}

// createCollections is the migration to schema since: it creates the
// buckets of the collections and key sets registered with it.
func createCollections(since int) func(*bolt.Tx) error {
	return func(tx *bolt.Tx) error { return createNested(tx, collectionBuckets(since)) }
}

// createNested creates the buckets names in bucketCollections, and that
// one if the file has none yet.
func createNested(tx *bolt.Tx, names [][]byte) error {
	parent, err := tx.CreateBucketIfNotExists(bucketCollections)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketCollections, err)
	}
	for _, name := range names {
		if _, err := parent.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s/%s: %w", bucketCollections, name, err)
		}
	}
	return nil
}

// nestCollections is part of migration 4. Before it, a registered
// collection or key set got its top-level bucket on first write; it moves
// each such bucket as it is (records, sequence and all) into
// bucketCollections, under the same name.
func nestCollections(tx *bolt.Tx) error {
	parent, err := tx.CreateBucketIfNotExists(bucketCollections)
	if err != nil {
		return fmt.Errorf("create bucket %s: %w", bucketCollections, err)
	}
	for _, name := range collectionBuckets(4) {
		if tx.Bucket(name) == nil {
			continue
		}
		if err := tx.MoveBucket(name, nil, parent); err != nil {
			return fmt.Errorf("move bucket %s into %s: %w", name, bucketCollections, err)
		}
	}
	return nil
}

// adoptAdhoc is part of migration 4. Before it, a collection or key set
// got its bucket on first write, whatever its name; it creates the shared
// buckets of the unregistered names and moves into them every
// "records/<name>" and "keys/<name>" bucket the registry does not know,
// with its sequence, so no record is lost and no bucket is left that the
// registry does not describe.
func adoptAdhoc(tx *bolt.Tx) error {
	if err := createNested(tx, [][]byte{bucketAdhocRecords, bucketAdhocKeys, bucketAdhocSequences}); err != nil {
		return err
	}
	var strays [][]byte
	err := tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
		s := string(name)
		if n, ok := strings.CutPrefix(s, "records/"); ok && collectionsByName[n] == nil ||
			strings.HasPrefix(s, "keys/") && !keySetsByName[strings.TrimPrefix(s, "keys/")] {
			strays = append(strays, bytes.Clone(name))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, name := range strays {
		if err := adoptBucket(tx, name); err != nil {
			return fmt.Errorf("move %s: %w", name, err)
		}
	}
	return nil
}

func adoptBucket(tx *bolt.Tx, bucket []byte) error {
	from := tx.Bucket(bucket)
	var to *bolt.Bucket
	var name string
	if n, ok := strings.CutPrefix(string(bucket), "records/"); ok {
		to, name = collectionBucket(tx, bucketAdhocRecords), n
		if seq := from.Sequence(); seq > 0 {
			if err := collectionBucket(tx, bucketAdhocSequences).Put([]byte(name), binary.BigEndian.AppendUint64(nil, seq)); err != nil {
				return err
			}
		}
	} else {
		to, name = collectionBucket(tx, bucketAdhocKeys), strings.TrimPrefix(string(bucket), "keys/")
	}
	if !validAdhocName(name) {
		return errors.New("the name has a zero byte")
	}
	prefix := adhocPrefix(name)
	err := from.ForEach(func(k, v []byte) error {
		if v == nil {
			return nil // a nested bucket: none was ever written
		}
		return to.Put(concat(prefix, k), v)
	})
	if err != nil {
		return err
	}
	return tx.DeleteBucket(bucket)
}

func validAdhocName(name string) bool { return strings.IndexByte(name, 0) < 0 }

func adhocPrefix(name string) []byte { return append([]byte(name), 0) }
