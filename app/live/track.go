package live

import (
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// What a write transaction changed, beyond the model's entity kinds.
const (
	ChangedSessions    = "session"    // a session ended
	ChangedPermissions = "permission" // a link was made or removed
	ChangedServer      = "server"     // the server settings
)

// Changes are the kinds of records one committed transaction wrote, and
// on whose behalf (nil: the system, a device, or a caller that did not
// say).
type Changes struct {
	Kinds map[string]bool
	Actor *model.User
}

// Any reports whether any of kinds changed.
func (c Changes) Any(kinds ...string) bool {
	for _, k := range kinds {
		if c.Kinds[k] {
			return true
		}
	}
	return false
}

// Track returns store with change notification: after every Update that
// commits, each listener gets the kinds it wrote (users, devices, groups,
// geofences, computed attributes, drivers, commands, permissions, ended
// sessions, the server settings). The write itself is what is observed, so
// no caller can forget to announce a change. Batch, the ingest's path,
// writes positions, events and device status, which change no one's view:
// it is not tracked.
func Track(store model.Store, now func() time.Time, listeners ...func(Changes)) model.Store {
	return &tracked{Store: store, now: now, listeners: listeners}
}

type tracked struct {
	model.Store
	now       func() time.Time
	listeners []func(Changes)
	actor     *model.User
}

// As is the tracked store whose changes name actor, and are logged in the
// audit log as actor's.
func (s *tracked) As(actor *model.User) model.Store {
	return &tracked{Store: s.Store.As(actor), now: s.now, listeners: s.listeners, actor: actor}
}

func (s *tracked) Update(fn func(model.Tx) error) error {
	var kinds map[string]bool
	err := s.Store.Update(func(tx model.Tx) error {
		kinds = map[string]bool{} // a retried fn starts afresh
		return fn(&recordingTx{Tx: tx, changes: kinds, actor: s.actor, now: s.now})
	})
	if err == nil && len(kinds) > 0 {
		for _, l := range s.listeners {
			l(Changes{Kinds: kinds, Actor: s.actor})
		}
	}
	return err
}

// recordingTx notes the kinds its writes touch and, for a write on a
// user's behalf, logs each change in the audit log, in the same
// transaction: a change is logged if and only if it commits.
type recordingTx struct {
	model.Tx
	changes map[string]bool
	actor   *model.User
	now     func() time.Time
}

// changed notes a change of kind and logs it when an actor made it.
func (t *recordingTx) changed(kind, action string, id int64) error {
	t.changes[kind] = true
	return t.audit(action, kind, id)
}

// audit logs an action on object (kind, id) when an actor made it.
func (t *recordingTx) audit(action, kind string, id int64) error {
	if t.actor == nil {
		return nil
	}
	return t.Tx.Audit().Add(&model.AuditEntry{ActionTime: t.now().UTC(), UserID: t.actor.ID, ActionType: action,
		ObjectType: kind, ObjectID: id})
}

func (t *recordingTx) Users() model.Table[model.User] {
	return record(t.Tx.Users(), t, model.KindUser)
}
func (t *recordingTx) Devices() model.Table[model.Device] {
	return record(t.Tx.Devices(), t, model.KindDevice)
}
func (t *recordingTx) Groups() model.Table[model.Group] {
	return record(t.Tx.Groups(), t, model.KindGroup)
}
func (t *recordingTx) Commands() model.Table[model.Command] {
	return record(t.Tx.Commands(), t, model.KindCommand)
}
func (t *recordingTx) Geofences() model.Table[model.Geofence] {
	return record(t.Tx.Geofences(), t, model.KindGeofence)
}
func (t *recordingTx) Drivers() model.Table[model.Driver] {
	return record(t.Tx.Drivers(), t, model.KindDriver)
}
func (t *recordingTx) ComputedAttributes() model.Table[model.ComputedAttribute] {
	return record(t.Tx.ComputedAttributes(), t, model.KindAttribute)
}
func (t *recordingTx) Calendars() model.Table[model.Calendar] {
	return record(t.Tx.Calendars(), t, model.KindCalendar)
}
func (t *recordingTx) Maintenances() model.Table[model.Maintenance] {
	return record(t.Tx.Maintenances(), t, model.KindMaintenance)
}
func (t *recordingTx) Notifications() model.Table[model.Notification] {
	return record(t.Tx.Notifications(), t, model.KindNotification)
}
func (t *recordingTx) Reports() model.Table[model.Report] {
	return record(t.Tx.Reports(), t, model.KindReport)
}

func (t *recordingTx) PutServer(v *model.Server) error {
	if err := t.changed(ChangedServer, model.ActionEdit, v.ID); err != nil {
		return err
	}
	return t.Tx.PutServer(v)
}

// A link is logged as Traccar logs it: on its owner.
func (t *recordingTx) Link(p model.Permission) error {
	t.changes[ChangedPermissions] = true
	if err := t.audit(model.ActionLink, p.OwnerKind, p.OwnerID); err != nil {
		return err
	}
	return t.Tx.Link(p)
}

func (t *recordingTx) Unlink(p model.Permission) error {
	t.changes[ChangedPermissions] = true
	if err := t.audit(model.ActionUnlink, p.OwnerKind, p.OwnerID); err != nil {
		return err
	}
	return t.Tx.Unlink(p)
}

func (t *recordingTx) UnlinkAll(kind string, id int64) error {
	t.changes[ChangedPermissions] = true
	return t.Tx.UnlinkAll(kind, id)
}

// A new session changes no one's view; an ended one drops its live client.
func (t *recordingTx) DeleteSession(token string) error {
	t.changes[ChangedSessions] = true
	return t.Tx.DeleteSession(token)
}

func (t *recordingTx) DeleteSessions(userID int64, expiredBefore time.Time) (int, error) {
	n, err := t.Tx.DeleteSessions(userID, expiredBefore)
	if n > 0 {
		t.changes[ChangedSessions] = true
	}
	return n, err
}

// record wraps a table so that its writes note (and log) a change of kind.
func record[T any](t model.Table[T], tx *recordingTx, kind string) model.Table[T] {
	return recording[T]{t, tx, kind}
}

// recording is a table that notes its writes as a change of kind.
type recording[T any] struct {
	model.Table[T]
	tx   *recordingTx
	kind string
}

func (r recording[T]) Create(v *T) error {
	if err := r.Table.Create(v); err != nil {
		return err
	}
	return r.tx.changed(r.kind, model.ActionCreate, any(v).(model.Entity).GetID())
}

func (r recording[T]) Put(v *T) error {
	if err := r.tx.changed(r.kind, model.ActionEdit, any(v).(model.Entity).GetID()); err != nil {
		return err
	}
	return r.Table.Put(v)
}

func (r recording[T]) Delete(id int64) error {
	if err := r.tx.changed(r.kind, model.ActionRemove, id); err != nil {
		return err
	}
	return r.Table.Delete(id)
}
