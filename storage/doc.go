// Package storage is fleetd's embedded store: an implementation of
// model.Store on bbolt, a single-file, copy-on-write B+tree with one writer
// and many readers. Everything lives in one file (fleetd.db), so a backup is
// one consistent file copy taken inside a read transaction.
//
// # Layout
//
// Integers in keys are 8-byte big-endian, so keys sort numerically.
// Values are JSON: of a stored type of this package where there is one
// (storedUser, the office's, the accounts' and notify's records: see
// codec.go), else of the model type.
//
//	meta                  "schema" -> uint64 schema version
//	                      "server" -> app.Server settings singleton
//	users                 id -> storedUser (with "passwordHash"; the plaintext
//	                      Password input is never written)
//	users_by_email        app.NormalizeEmail(email) -> id (empty e-mails not indexed)
//	devices               id -> app.Device
//	devices_by_unique_id  trimmed uniqueId -> id (uniqueId is required)
//	groups, commands,     id -> record
//	geofences
//	sessions              token -> app.Session
//	permissions           ownerKind 0x00 ownerID propKind 0x00 propID -> empty
//	permissions_reverse   propKind 0x00 propID ownerKind 0x00 ownerID -> empty
//	positions_log         id -> deviceID, fixTime, chunk.Record of the position:
//	                      positions as they arrive
//	position_chunks       deviceID lastFixTime lastId -> a chunk of the
//	                      device's positions (storage/chunk)
//	position_blocks       id >> 8 -> device and fix time of 256 consecutive ids
//	positions             deviceID fixTime id -> app.Position: schema 4's
//	                      layout, emptied by the background migration
//	position_ids          id -> positions key (schema 4; kept for the
//	                      migrated positions, found by id through it)
//	events                deviceID eventTime id -> app.Event
//	event_ids             id -> events key
//	command_queue         id -> app.QueuedCommand
//	collections           nested buckets only:
//	  records/<name>      id -> record of a registered collection
//	  keys/<name>         string -> id (8 bytes), a registered key set
//	  adhoc_records       name 0x00 id -> record of an unregistered collection
//	  adhoc_keys          name 0x00 key -> id, an unregistered key set
//	  adhoc_sequences     name -> last id of an unregistered collection
//
// The registry's buckets are nested in "collections" rather than top-level
// because bbolt rewrites the root node, one entry per top-level bucket, in
// every commit that writes a top-level bucket: kept at the top, the 30-odd
// registered buckets tripled the root that every ingest commit rewrites.
// So the top level stays the few buckets above, and a new collection adds
// nothing there.
//
// The registry in collections.go lists every collection and key set of
// the extended (v2) kinds: its name, its record kind and the key sets
// that index it. The domains reach theirs through typed parts of the
// transaction (model.OfficeTx, AccountsTx, NotifyTx: office.go,
// accounts.go, notify.go), whose key sets are indexes this package keeps.
//
// # Adding a kind
//
// A new kind of record gets a type in the kernel (app/model) and a method
// on model.Tx or a domain's part, not a name chosen by its caller. Here it
// gets a collection in the registry with the next schema version, a
// migration createCollections(that version), a stored type with a
// conversion (storedAs) and a table spec, and cases in app/model/storetest.
// Renaming a field of the kernel's type or of the API changes only the
// conversion; changing a stored field is a migration.
//
// Entity ids come from each bucket's NextSequence; position ids from the
// sequence of positions_log (schema 5 carried it on from positions'), event
// ids from that of events. Times in keys are
// UnixNano with the sign bit flipped, so times before 1970 sort correctly;
// times outside the UnixNano range (years 1678..2262) are rejected.
//
// Events are keyed deviceID, time, id: a device's history is one contiguous
// range, read with a cursor seek and a forward scan.
//
// # Positions
//
// Positions are nearly all the writes and nearly all the bytes, so they
// have a layout of their own (positions.go, compact.go):
//
//   - AddPosition appends to positions_log under the next id and extends
//     that id's block in position_blocks: whatever the number of devices in
//     a commit, it writes a few pages at the end of two buckets.
//   - An in-memory tail (postail.go) lists each device's logged positions
//     in order; Open rebuilds it from the log rows' heads.
//   - The compactor moves a device's logged positions into chunks once
//     it has 256, or the oldest has waited 10 minutes, or the log holds
//     more than 40,000 (the devices with most first). It merges them with
//     the chunks they overlap (an upload of old positions); a few at a
//     time make a small chunk, and small chunks merge once together they
//     hold 128. It reads and encodes in a read transaction, then
//     writes the chunks and deletes the log rows in one transaction of the
//     ingest's group commit, after checking that nothing it read changed.
//     A crash therefore leaves each position in exactly one place.
//   - Batch callers (the ingest) wait while the log holds more than twice
//     its limit: a compactor that falls behind slows acknowledgements
//     instead of filling the disk. Update (the API) does not wait.
//   - Reads merge the log, the chunks and the old rows in the device's
//     order (fix time, then id). Position(id) looks in the log, then
//     finds the device and fix time in the id blocks (or schema 4's index)
//     and decodes the one chunk that can hold it. Deletions and retention
//     drop whole chunks when they can and rewrite the chunks they cut.
//   - Schema 4's JSON rows move into chunks in the background, a device
//     at a time, while the server runs; reads see both meanwhile.
//
// # Schema
//
// The schema version is stored in meta. Open runs the migrations the file
// has not seen yet, all in one write transaction, and refuses files written
// by a newer fleetd. See migrations in schema.go. Every bucket is created
// by a migration, none by a write: Open checks that a file has every bucket
// of the current schema and of the registry.
//
// # Concurrency
//
// bbolt allows one process at a time: Open takes an exclusive flock on the
// file and fails with ErrLocked when another process (or another Open in
// this process) holds it. Inside the process, View transactions run in
// parallel with each other and with the single writer.
package storage
