package model

import (
	"io"
	"time"
)

// Store is what the core needs from persistence. All writes a request makes
// happen inside one Update call, so they commit or roll back together.
type Store interface {
	// View runs fn in a read-only transaction.
	View(fn func(Tx) error) error
	// Update runs fn in a read-write transaction; an error from fn rolls back.
	Update(fn func(Tx) error) error
	// Batch is Update with group commit: concurrent callers (device
	// connections) share one transaction and one fsync. fn may run more than
	// once, so it must not have side effects outside tx. It returns only once
	// the transaction is durable.
	Batch(fn func(Tx) error) error
	// Backup writes a consistent copy of the whole database to w while
	// writers go on.
	Backup(w io.Writer) (int64, error)
	// As is the store for writes made on actor's behalf: what observes
	// the writes (change notifications, later the audit log) learns who
	// made them. A backend that keeps no record of it returns itself; a
	// wrapper that changes Update must return a wrapper too.
	As(actor *User) Store
	Close() error
}

// Table is a generic id-keyed collection of one entity type.
// Get returns an error matching ErrNotFound for a missing id.
type Table[T any] interface {
	Get(id int64) (*T, error)
	// List calls fn for every record in id order until fn returns false.
	List(fn func(*T) bool) error
	// Create assigns the next id from the bucket sequence and stores v.
	Create(v *T) error
	// Put overwrites an existing record (ErrNotFound if it does not exist).
	Put(v *T) error
	Delete(id int64) error
	Count() (int, error)
}

// Tx is one store transaction. Unique indexes are kept by the store:
// Create/Put of a User with a taken e-mail, or a Device with a taken
// uniqueId, return an error matching ErrConflict.
type Tx interface {
	Users() Table[User]
	Devices() Table[Device]
	Groups() Table[Group]
	Commands() Table[Command]
	Geofences() Table[Geofence]
	QueuedCommands() Table[QueuedCommand]
	Drivers() Table[Driver]
	// ComputedAttributes are Traccar's /api/attributes/computed.
	ComputedAttributes() Table[ComputedAttribute]
	Calendars() Table[Calendar]
	Maintenances() Table[Maintenance]
	Notifications() Table[Notification]
	Reports() Table[Report]
	// Audit is the log of changes users made; Statistics the daily usage
	// figures.
	Audit() AuditTx
	Statistics() StatisticsTx
	// Media are files of devices, under "<device id>/<name>": the image a
	// user uploads for one. WebFiles are the files administrators upload
	// for the web app (Traccar's web override: a logo).
	Media() BlobsTx
	WebFiles() BlobsTx

	// UserByEmail looks up by NormalizeEmail(email).
	UserByEmail(email string) (*User, error)
	DeviceByUniqueID(uniqueID string) (*Device, error)

	// Server returns the settings singleton (ErrNotFound before the first PutServer).
	Server() (*Server, error)
	PutServer(s *Server) error

	Session(token string) (*Session, error)
	PutSession(s *Session) error
	DeleteSession(token string) error
	// DeleteSessions removes sessions expired before now, and every session
	// of userID when userID > 0 (password change, user deletion).
	DeleteSessions(userID int64, expiredBefore time.Time) (int, error)

	// Link and Unlink are idempotent.
	Link(p Permission) error
	Unlink(p Permission) error
	// Linked lists the ids of propKind objects linked to (ownerKind, ownerID).
	Linked(ownerKind string, ownerID int64, propKind string) ([]int64, error)
	// Owners lists the ids of ownerKind objects linked to (propKind, propID).
	Owners(propKind string, propID int64, ownerKind string) ([]int64, error)
	// UnlinkAll removes every permission where (kind, id) is owner or property.
	UnlinkAll(kind string, id int64) error

	// AddPosition assigns p.ID and stores p under (deviceId, fixTime, id).
	AddPosition(p *Position) error
	Position(id int64) (*Position, error)
	// LatestPosition is the device's position with the newest fixTime; of
	// equal fixTimes, the one stored last.
	LatestPosition(deviceID int64) (*Position, error)
	// Positions calls fn in fixTime order (equal times in id order) for
	// from <= fixTime <= to.
	Positions(deviceID int64, from, to time.Time, fn func(*Position) bool) error
	// PositionsAfter goes on where Positions stopped: the positions of
	// last's device that follow last in that order, up to fixTime to.
	PositionsAfter(last *Position, to time.Time, fn func(*Position) bool) error
	// DeletePositions removes at most limit of a device's positions in
	// [from, to], oldest first, and says how many; the newest remaining
	// one becomes its latest. Callers loop in separate transactions: one
	// huge deletion would hold the single writer (and its dirty pages in
	// memory) for as long as it takes.
	DeletePositions(deviceID int64, from, to time.Time, limit int) (int, error)

	// AddEvent assigns e.ID and stores e under (deviceId, eventTime, id).
	AddEvent(e *Event) error
	Event(id int64) (*Event, error)
	// Events calls fn in eventTime order for from <= eventTime <= to.
	Events(deviceID int64, from, to time.Time, fn func(*Event) bool) error
	// EventsNewest is Events newest first (equal times by id, descending);
	// it reads only as far as fn goes.
	EventsNewest(deviceID int64, from, to time.Time, fn func(*Event) bool) error
	// DeleteEvents removes at most limit of a device's events, oldest first.
	DeleteEvents(deviceID int64, limit int) (int, error)

	// Office is the fleet office's records, Accounts what the accounts
	// keep besides users and sessions, Notify the notifier's settings and
	// push tokens, Fleet the installation records and the drivers'
	// uniqueId index.
	Office() OfficeTx
	Accounts() AccountsTx
	Notify() NotifyTx
	Fleet() FleetTx

	// Records is a named collection of encoded records and Keys a named
	// string -> id map, raw: the store does not know what they hold. No
	// domain uses them any more (every kind has a typed part); they remain
	// for the contract suite and tests. A kind the store should keep gets
	// a typed part of its own. A name the store does not register still
	// works (the store keeps it apart).
	Records(name string) RecordSet
	Keys(name string) KeySet
}

// AuditTx is the audit log: entries in time order.
type AuditTx interface {
	// Add assigns e.ID and stores e under its actionTime.
	Add(e *AuditEntry) error
	// Range calls fn in time order for from <= actionTime <= to.
	Range(from, to time.Time, fn func(*AuditEntry) bool) error
	// Prune removes at most limit entries older than before, oldest first.
	Prune(before time.Time, limit int) (int, error)
}

// Blob is a small file: its content type and bytes.
type Blob struct {
	Type string
	Data []byte
}

// BlobsTx keeps small files by name.
type BlobsTx interface {
	Get(name string) (*Blob, error)
	// Put stores b under name, replacing the one there.
	Put(name string, b *Blob) error
	// DeletePrefix removes every file whose name starts with prefix.
	DeletePrefix(prefix string) (int, error)
	// Newest lists the files named from <= name < to, last name first,
	// at most limit, without their bytes.
	Newest(from, to string, limit int) ([]BlobInfo, error)
}

// BlobInfo describes a stored file without its bytes.
type BlobInfo struct {
	Name string
	Type string
	Size int
}

// StatisticsTx keeps one Statistics record per capture time.
type StatisticsTx interface {
	// Put stores s under its captureTime, replacing the one there.
	Put(s *Statistics) error
	Get(captureTime time.Time) (*Statistics, error)
	// Range calls fn in time order for from <= captureTime <= to.
	Range(from, to time.Time, fn func(*Statistics) bool) error
}

// ImportedTraccar is the key set fleetd import traccar keeps
// (app/traccarimport): which fleetd object each Traccar object became,
// and the spans of each device's history already imported.
const ImportedTraccar = "importedTraccar"

// RecordSet is a collection of encoded records under int64 ids with its own
// sequence. Reading a collection that was never written finds nothing.
type RecordSet interface {
	Get(id int64) (data []byte, ok bool, err error)
	NextID() (int64, error)
	Put(id int64, data []byte) error
	Delete(id int64) (ok bool, err error)
	// List calls fn in id order (descending when reverse) until it returns false.
	List(reverse bool, fn func(id int64, data []byte) bool) error
	Count() (int, error)
}

// KeySet maps string keys to ids.
type KeySet interface {
	Get(key string) (id int64, ok bool, err error)
	Put(key string, id int64) error
	Delete(key string) error
	// Scan calls fn for every key with prefix, in key order, until it returns false.
	Scan(prefix string, fn func(key string, id int64) bool) error
}
