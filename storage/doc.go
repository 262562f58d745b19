// Package storage is fleetd's embedded store: an implementation of
// model.Store on bbolt, a single-file, copy-on-write B+tree with one writer
// and many readers. Everything lives in one file (fleetd.db), so a backup is
// one consistent file copy taken inside a read transaction.
//
// # Layout
//
// Integers in keys are 8-byte big-endian, so keys sort numerically.
// Values are encoding/json of the app types unless stated otherwise.
//
//	meta                  "schema" -> uint64 schema version
//	                      "server" -> app.Server settings singleton
//	users                 id -> app.User (plus "passwordHash"; the plaintext
//	                      Password input is never written)
//	users_by_email        app.NormalizeEmail(email) -> id (empty e-mails not indexed)
//	devices               id -> app.Device
//	devices_by_unique_id  trimmed uniqueId -> id (uniqueId is required)
//	groups, commands,     id -> record
//	geofences
//	sessions              token -> app.Session
//	permissions           ownerKind 0x00 ownerID propKind 0x00 propID -> empty
//	permissions_reverse   propKind 0x00 propID ownerKind 0x00 ownerID -> empty
//	positions             deviceID fixTime id -> app.Position
//	position_ids          id -> positions key
//	events                deviceID eventTime id -> app.Event
//	event_ids             id -> events key
//
// Entity ids come from each bucket's NextSequence; position and event ids
// from the sequence of the positions and events buckets. Times in keys are
// UnixNano with the sign bit flipped, so times before 1970 sort correctly;
// times outside the UnixNano range (years 1678..2262) are rejected.
//
// Because every key of a device's positions starts with its id followed by
// the time, a device's history is one contiguous range: queries are a cursor
// seek and a forward scan, and each device's latest position is the last
// key of its range.
//
// # Schema
//
// The schema version is stored in meta. Open runs the migrations the file
// has not seen yet, all in one write transaction, and refuses files written
// by a newer fleetd. See migrations in schema.go.
//
// # Concurrency
//
// bbolt allows one process at a time: Open takes an exclusive flock on the
// file and fails with ErrLocked when another process (or another Open in
// this process) holds it. Inside the process, View transactions run in
// parallel with each other and with the single writer.
package storage
