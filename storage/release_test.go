package storage

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
	bolt "go.etcd.io/bbolt"
)

// releaseFixture is a store as the release at schema 3 left it, with
// records in every collection, made through that release's services by
// testdata/genrelease.
const (
	releaseFixture = "testdata/release-v3.db.gz"
	releaseSchema  = 3
)

// bucketDump is one bucket's sequence and entries.
type bucketDump struct {
	seq     uint64
	entries map[string]string
}

// dumpBuckets reads every top-level bucket of tx, and those nested in
// bucketCollections as if they were top-level (as the release had them).
func dumpBuckets(tx *bolt.Tx) map[string]bucketDump {
	out := map[string]bucketDump{}
	var dump func(name []byte, b *bolt.Bucket) error
	dump = func(name []byte, b *bolt.Bucket) error {
		if bytes.Equal(name, bucketCollections) {
			return b.ForEachBucket(func(k []byte) error { return dump(k, b.Bucket(k)) })
		}
		d := bucketDump{seq: b.Sequence(), entries: map[string]string{}}
		b.ForEach(func(k, v []byte) error {
			d.entries[string(k)] = string(v)
			return nil
		})
		out[string(name)] = d
		return nil
	}
	tx.ForEach(dump)
	return out
}

// unpackRelease writes the fixture to a new store file and returns its
// path and every bucket as the release wrote it.
func unpackRelease(t *testing.T) (string, map[string]bucketDump) {
	t.Helper()
	f, err := os.Open(releaseFixture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fleetd.db")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	raw, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var before map[string]bucketDump
	raw.View(func(tx *bolt.Tx) error {
		if v, err := readSchema(tx); v != releaseSchema || err != nil {
			t.Fatalf("fixture schema %d, %v; want %d", v, err, releaseSchema)
		}
		before = dumpBuckets(tx)
		return nil
	})
	return path, before
}

// TestUpgradeRelease opens a store made by the release at schema 3 and
// checks that Open upgrades it in place keeping every record: every key,
// value and sequence of every bucket is still there, and the records read
// back through the store's interface as that release wrote them.
func TestUpgradeRelease(t *testing.T) {
	path, before := unpackRelease(t)
	db := openStill(t, path)
	if up := db.Upgraded(); up.From != releaseSchema || up.To != CurrentSchema {
		t.Errorf("Upgraded() = %+v, want from %d to %d", up, releaseSchema, CurrentSchema)
	}
	var after map[string]bucketDump
	db.bolt.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			t.Errorf("upgraded file: %v", err)
		}
		if tx.Bucket([]byte("records/drivers")) != nil {
			t.Error("a collection's bucket is still top-level")
		}
		after = dumpBuckets(tx)
		return nil
	})
	for name, b := range before {
		if name == string(bucketMeta) {
			continue // the schema version changes
		}
		if adhoc, ok := unregistered(name); ok {
			checkAdopted(t, db, name, adhoc, b)
			continue
		}
		got, ok := after[name]
		if !ok {
			t.Errorf("bucket %s is gone", name)
			continue
		}
		if got.seq != b.seq {
			t.Errorf("bucket %s: sequence %d, want %d", name, got.seq, b.seq)
		}
		for k, v := range b.entries {
			if got.entries[k] != v {
				t.Errorf("bucket %s key %q: %q, want %q", name, k, got.entries[k], v)
			}
		}
		if len(got.entries) != len(b.entries) {
			t.Errorf("bucket %s: %d entries, want %d", name, len(got.entries), len(b.entries))
		}
	}
	if got := after[string(bucketMeta)].entries[string(metaServer)]; got != before[string(bucketMeta)].entries[string(metaServer)] {
		t.Errorf("server settings = %s", got)
	}
	mustView(t, db, func(tx model.Tx) error {
		checkReleaseTables(t, tx, before)
		return nil
	})
	// The fixture has records in every collection and key set schema 4
	// moved its records into; later ones are new.
	for _, name := range slices.Concat(collectionBuckets(1), collectionBuckets(2), collectionBuckets(3), collectionBuckets(4)) {
		if len(before[string(name)].entries) == 0 {
			t.Errorf("the fixture has nothing in %s", name)
		}
	}
}

// unregistered reports whether bucket is a collection or key set the
// registry does not know, which the migration moves to the ad hoc buckets.
func unregistered(bucket string) (string, bool) {
	if n, ok := strings.CutPrefix(bucket, "records/"); ok && collectionsByName[n] == nil {
		return n, true
	}
	if n, ok := strings.CutPrefix(bucket, "keys/"); ok && !keySetsByName[n] {
		return n, true
	}
	return "", false
}

// checkAdopted checks that the unregistered collection or key set name,
// once in bucket b, reads back the same through Records or Keys, and its
// sequence goes on.
func checkAdopted(t *testing.T, db *DB, bucket, name string, b bucketDump) {
	t.Helper()
	got := map[string]string{}
	if strings.HasPrefix(bucket, "keys/") {
		mustView(t, db, func(tx model.Tx) error {
			return tx.Keys(name).Scan("", func(k string, id int64) bool { got[k] = string(idKey(id)); return true })
		})
	} else {
		mustView(t, db, func(tx model.Tx) error {
			return tx.Records(name).List(false, func(id int64, v []byte) bool { got[string(idKey(id))] = string(v); return true })
		})
		errRollback := errors.New("roll back")
		err := db.Update(func(tx model.Tx) error {
			if id, err := tx.Records(name).NextID(); err != nil || id != int64(b.seq)+1 {
				t.Errorf("%s: next id %d, %v; want %d", bucket, id, err, b.seq+1)
			}
			return errRollback
		})
		if err != errRollback {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(got, b.entries) || len(got) == 0 {
		t.Errorf("%s reads back as %q, the release stored %q", bucket, got, b.entries)
	}
}

// storedJSON decodes a stored value for comparison, without the fields
// in drop (kept by the store, never in the API JSON).
func storedJSON(t *testing.T, data string, drop ...string) any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("stored %s: %v", data, err)
	}
	for _, f := range drop {
		delete(v, f)
	}
	return v
}

// sameAsStored checks that v, read through the store, has the JSON the
// release stored.
func sameAsStored(t *testing.T, what string, v any, stored string, drop ...string) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var got any
	json.Unmarshal(data, &got)
	if want := storedJSON(t, stored, drop...); !reflect.DeepEqual(got, want) {
		t.Errorf("%s reads back as\n %s\nstored\n %s", what, data, stored)
	}
}

// checkTable reads every record of table and compares it with the
// release's bucket.
func checkTable[T any](t *testing.T, what string, table model.Table[T], b bucketDump, drop ...string) []*T {
	t.Helper()
	var list []*T
	if err := table.List(func(v *T) bool { list = append(list, v); return true }); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(list) != len(b.entries) || len(list) == 0 {
		t.Errorf("%s: %d records, the release stored %d", what, len(list), len(b.entries))
	}
	for _, v := range list {
		id := any(v).(model.Entity).GetID()
		sameAsStored(t, what, v, b.entries[string(idKey(id))], drop...)
	}
	return list
}

// checkReleaseTables reads the release's records through model.Tx.
func checkReleaseTables(t *testing.T, tx model.Tx, before map[string]bucketDump) {
	users := checkTable(t, "users", tx.Users(), before["users"], "passwordHash")
	sameEncoding(t, "users", &usersSpec, before["users"])
	for _, u := range users {
		want := storedJSON(t, before["users"].entries[string(idKey(u.ID))]).(map[string]any)["passwordHash"]
		if u.PasswordHash == "" || u.PasswordHash != want {
			t.Errorf("user %d password hash %q, stored %q", u.ID, u.PasswordHash, want)
		}
		if byEmail, err := tx.UserByEmail(u.Email); err != nil || byEmail.ID != u.ID {
			t.Errorf("UserByEmail(%s) = %v, %v", u.Email, byEmail, err)
		}
	}
	devices := checkTable(t, "devices", tx.Devices(), before["devices"])
	for _, d := range devices {
		if byUID, err := tx.DeviceByUniqueID(d.UniqueID); err != nil || byUID.ID != d.ID {
			t.Errorf("DeviceByUniqueID(%s) = %v, %v", d.UniqueID, byUID, err)
		}
	}
	checkTable(t, "groups", tx.Groups(), before["groups"])
	checkTable(t, "commands", tx.Commands(), before["commands"])
	checkTable(t, "geofences", tx.Geofences(), before["geofences"])
	checkTable(t, "queued commands", tx.QueuedCommands(), before["command_queue"])
	checkTable(t, "drivers", tx.Drivers(), before["records/drivers"])
	checkTable(t, "computed attributes", tx.ComputedAttributes(), before["records/computed_attributes"])

	office := tx.Office()
	checkFiling(t, "tickets", office.Tickets(), before, colTickets)
	checkFiling(t, "ticket responses", office.TicketResponses(), before, colResponses)
	checkFiling(t, "documents", office.Documents(), before, colDocuments)
	checkFiling(t, "files", office.Files(), before, colFiles)
	checkFiling(t, "service records", office.ServiceRecords(), before, colServiceRecords)
	checkFiling(t, "service tasks", office.ServiceTasks(), before, colServiceTasks)
	checkFiling(t, "payments", office.Payments(), before, colPayments)
	if seeded, err := office.TasksSeeded(); !seeded || err != nil {
		t.Errorf("TasksSeeded() = %v, %v", seeded, err)
	}

	accounts := tx.Accounts()
	checkKeyed(t, "OTPs", accounts.OTPs(), before, colOTPs)
	checkKeyed(t, "OTP tokens", accounts.OTPTokens(), before, colOTPTokens)
	for phone, id := range before[string(ksDemoUsers.bucket())].entries {
		if got, ok, err := accounts.DemoUser(phone); got != keyID([]byte(id)) || !ok || err != nil {
			t.Errorf("DemoUser(%s) = %d, %v, %v; stored %d", phone, got, ok, err, keyID([]byte(id)))
		}
	}
	if on, err := accounts.Maintenance(); !on || err != nil {
		t.Errorf("Maintenance() = %v, %v; the release stored it on", on, err)
	}

	notify := tx.Notify()
	for id, data := range before[string(colNotifySettings.bucket())].entries {
		got, err := notify.NotificationSettings(keyID([]byte(id)))
		if err != nil || len(got) == 0 {
			t.Errorf("NotificationSettings(%d) = %v, %v", keyID([]byte(id)), got, err)
		}
		sameAsStored(t, "notification settings", got, data)
	}
	holders, err := notify.PushTokenHolders()
	if err != nil || len(holders) != len(before[string(colPushTokens.bucket())].entries) || len(holders) == 0 {
		t.Errorf("PushTokenHolders() = %v, %v", holders, err)
	}
	for _, id := range holders {
		got, err := notify.PushTokens(id)
		if err != nil {
			t.Fatal(err)
		}
		sameAsStored(t, "push tokens", map[string]any{"tokens": got}, before[string(colPushTokens.bucket())].entries[string(idKey(id))])
	}
	for token, id := range before[string(keySetBucket(colPushTokens.keys[0]))].entries {
		if got, ok, err := notify.PushTokenOwner(token); got != keyID([]byte(id)) || !ok || err != nil {
			t.Errorf("PushTokenOwner(%s) = %d, %v, %v; stored %d", token, got, ok, err, keyID([]byte(id)))
		}
	}

	server, err := tx.Server()
	if err != nil {
		t.Fatal(err)
	}
	sameAsStored(t, "server", server, before["meta"].entries["server"])
	for token, stored := range before["sessions"].entries {
		s, err := tx.Session(token)
		if err != nil {
			t.Fatalf("session: %v", err)
		}
		sameAsStored(t, "session", s, stored)
	}
	if len(before["sessions"].entries) == 0 {
		t.Error("the release stored no session")
	}
	var positions, events int
	for _, d := range devices {
		tx.Positions(d.ID, time.Time{}, maxKeyTime, func(p *model.Position) bool {
			positions++
			idx := before["position_ids"].entries[string(idKey(p.ID))]
			sameAsStored(t, "position", p, before["positions"].entries[idx])
			return true
		})
		tx.Events(d.ID, time.Time{}, maxKeyTime, func(e *model.Event) bool {
			events++
			idx := before["event_ids"].entries[string(idKey(e.ID))]
			sameAsStored(t, "event", e, before["events"].entries[idx])
			return true
		})
	}
	if positions != len(before["positions"].entries) || events != len(before["events"].entries) || positions == 0 || events == 0 {
		t.Errorf("%d positions and %d events read, the release stored %d and %d",
			positions, events, len(before["positions"].entries), len(before["events"].entries))
	}
	for k := range before["permissions"].entries {
		ownerKind, ownerID, rest, _ := splitObjKey([]byte(k))
		propKind, propID, _, _ := splitObjKey(rest)
		linked, err := tx.Linked(ownerKind, ownerID, propKind)
		if err != nil || !slices.Contains(linked, propID) {
			t.Errorf("link %s %d -> %s %d: read %v, %v", ownerKind, ownerID, propKind, propID, linked, err)
		}
	}
	if len(before["permissions"].entries) == 0 {
		t.Error("the release stored no link")
	}
}

// checkFiling checks an office collection's records and its groups.
func checkFiling[T any, P entity[T]](t *testing.T, what string, f model.Filing[T], before map[string]bucketDump, c *collection) {
	t.Helper()
	checkTable(t, what, f, before[string(c.bucket())])
	sameEncoding(t, what, f.(table[T, P]).spec, before[string(c.bucket())])
	groups := map[int64][]int64{}
	for k, v := range before[string(keySetBucket(c.keys[0]))].entries {
		g, _, _ := strings.Cut(k, "/")
		n, err := strconv.ParseInt(g, 16, 64)
		if err != nil {
			t.Fatalf("%s: group key %q", what, k)
		}
		groups[n] = append(groups[n], keyID([]byte(v)))
	}
	for g, want := range groups {
		slices.Sort(want)
		list, total, err := f.Group(g, model.Query{}, false)
		var got []int64
		for _, v := range list {
			got = append(got, any(v).(model.Entity).GetID())
		}
		if err != nil || total != len(want) || !slices.Equal(got, want) {
			t.Errorf("%s: group %d = %v (total %d), %v; want %v", what, g, got, total, err, want)
		}
	}
}

// openStill opens a store without background compaction, so its buckets
// stay as the upgrade left them.
func openStill(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(path, Options{NoSync: true, Compaction: Compaction{Every: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestUpgradeReleaseMovesPositions follows the release's store through
// the migration of its positions to the log-and-chunks layout: read before
// the move (old rows) and after (chunks), with new positions logged in
// between, every position reads back as the release stored it, by device,
// by id and as the latest, and the old layout ends empty.
func TestUpgradeReleaseMovesPositions(t *testing.T) {
	path, before := unpackRelease(t)
	db := openStill(t, path)
	var devices []int64
	mustView(t, db, func(tx model.Tx) error {
		return tx.Devices().List(func(d *model.Device) bool { devices = append(devices, d.ID); return true })
	})
	// A new position per device, logged before the migration, after all
	// the old ones by id.
	fresh := map[int64]int64{}
	mustUpdate(t, db, func(tx model.Tx) error {
		for _, d := range devices {
			p := model.Position{DeviceID: d, FixTime: time.Now().UTC().Truncate(time.Second), Protocol: "gt06"}
			if err := tx.AddPosition(&p); err != nil {
				return err
			}
			fresh[d] = p.ID
		}
		return nil
	})
	stored := func(id int64) string {
		return before["positions"].entries[before["position_ids"].entries[string(idKey(id))]]
	}
	check := func(stage string) {
		t.Helper()
		n := 0
		mustView(t, db, func(tx model.Tx) error {
			for _, d := range devices {
				var last int64
				err := tx.Positions(d, time.Time{}, maxKeyTime, func(p *model.Position) bool {
					last = p.ID
					if p.ID == fresh[d] {
						return true
					}
					n++
					sameAsStored(t, stage+" position", p, stored(p.ID))
					byID, err := tx.Position(p.ID)
					if err != nil {
						t.Fatalf("%s: Position(%d): %v", stage, p.ID, err)
					}
					sameAsStored(t, stage+" position by id", byID, stored(p.ID))
					return true
				})
				if err != nil {
					return err
				}
				latest, err := tx.LatestPosition(d)
				if err != nil || latest.ID != fresh[d] || last != fresh[d] {
					t.Errorf("%s: device %d: latest %v (%v), last read %d, want %d", stage, d, latest, err, last, fresh[d])
				}
			}
			return nil
		})
		if n != len(before["positions"].entries) || n == 0 {
			t.Errorf("%s: %d positions read, the release stored %d", stage, n, len(before["positions"].entries))
		}
	}
	check("before the move")
	if err := db.Compact(); err != nil {
		t.Fatal(err)
	}
	if n := bucketLen(t, db, bucketPositions); n != 0 {
		t.Errorf("%d rows left in the old layout", n)
	}
	check("after the move")
	db.Close()
	db = openStill(t, path)
	check("after reopening")
}

// The release's ticket counter goes on.
func TestUpgradeReleaseTicketNo(t *testing.T) {
	path, before := unpackRelease(t)
	db := openAt(t, path)
	want := keyID([]byte(before["keys/counters"].entries[counterTicketNo])) + 1
	mustUpdate(t, db, func(tx model.Tx) error {
		if no, err := tx.Office().NextTicketNo(1000); no != want || err != nil {
			t.Errorf("NextTicketNo = %d, %v; want %d", no, err, want)
		}
		return nil
	})
}

// checkKeyed checks that each record of a keyed collection is found by
// its key, and that the store's codec writes back the bytes the release
// wrote (those records have no API JSON to compare).
func checkKeyed[T any, P entity[T]](t *testing.T, what string, k model.Keyed[T], before map[string]bucketDump, c *collection) {
	t.Helper()
	spec := k.(keyed[T, P]).spec
	stored := before[string(c.bucket())]
	for key, id := range before[string(keySetBucket(c.keys[0]))].entries {
		v, err := k.ByKey(key)
		if err != nil || P(v).GetID() != keyID([]byte(id)) {
			t.Errorf("%s: ByKey(%q) = %v, %v; want record %d", what, key, v, err, keyID([]byte(id)))
		}
	}
	n, err := k.Count()
	if err != nil || n != len(stored.entries) || n == 0 {
		t.Errorf("%s: %d records, %v; the release stored %d", what, n, err, len(stored.entries))
	}
	sameEncoding(t, what, spec, stored)
}

// sameEncoding checks that spec decodes each of the release's records
// and encodes it again to the same bytes.
func sameEncoding[T any](t *testing.T, what string, spec *tableSpec[T], stored bucketDump) {
	t.Helper()
	for _, data := range stored.entries {
		v := new(T)
		if err := spec.decode([]byte(data), v); err != nil {
			t.Fatalf("%s: decode %s: %v", what, data, err)
		}
		again, err := spec.encode(v)
		if err != nil || string(again) != data {
			t.Errorf("%s: encodes as\n %s\nthe release stored\n %s", what, again, data)
		}
	}
}
