// Package storetest is the contract of model.Store as a test suite: every
// promise the store interfaces make in their doc comments (model.Store,
// model.Tx, model.Table, model.RecordSet, model.KeySet, and the domains'
// parts of a transaction: model.OfficeTx with its model.Filing tables,
// model.AccountsTx with its model.Keyed tables, model.NotifyTx), checked
// exactly against any backend. A second backend is done when Run passes
// on it.
//
// Use it from the backend's own tests:
//
//	func TestContract(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) model.Store { return openEmpty(t) })
//	}
//
// open must return a new, empty store and close it when t ends
// (t.Cleanup); every case opens its own, and cases run in parallel. The
// store may also implement Reopener and BackupOpener, so the suite can
// check what survives Close and what a backup holds; without them those
// checks are skipped.
//
// The suite checks what the interfaces promise and nothing a backend may
// choose: not error texts, input validation, how ids go on after a
// rolled-back transaction, nor the order of Linked and Owners (which the
// interface leaves open; they are compared as sets). Where a comment is
// silent but its neighbours or fleetd's use settle the answer, the suite
// asks for that answer:
//   - a new store's sequences start at 1 (ids are Traccar's API ids);
//   - Table.Delete of a missing id is ErrNotFound, as Get and Put are;
//   - Events gives equal times in id order (EventsNewest is its reverse);
//   - "key order" of KeySet.Scan is byte order (Go's string order), and a
//     prefix is literal ("a_" does not match "ab");
//   - User.Password is not kept, PasswordHash is (model.User's comment);
//   - only the e-mail and uniqueId indexes and a Keyed table's keys are
//     unique; keys are exact (no normalising);
//   - a record read through Filing.Group is the record Get reads; a
//     rolled-back NextTicketNo hands its number out again;
//   - transactions are what the word says: one sees its own writes, a View
//     reads one snapshot, and concurrent Updates and Batches lose no
//     read-modify-write.
package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetd/fleetd/app/model"
)

// Reopener is optionally implemented by the store open returns.
type Reopener interface {
	// Reopen closes the store and opens the same database again; the new
	// store is closed when t ends.
	Reopen(t *testing.T) model.Store
}

// BackupOpener is optionally implemented by the store open returns.
type BackupOpener interface {
	// OpenBackup opens what Backup wrote as a store of its own, closed
	// when t ends.
	OpenBackup(t *testing.T, backup []byte) model.Store
}

// Run runs the whole contract against the stores open returns.
func Run(t *testing.T, open func(t *testing.T) model.Store) {
	s := &suite{newStore: open}
	t.Run("Tables", s.tables)
	t.Run("UniqueIndexes", s.uniqueIndexes)
	t.Run("Server", s.server)
	t.Run("Sessions", s.sessions)
	t.Run("Permissions", s.permissions)
	t.Run("Positions", s.positions)
	t.Run("Events", s.events)
	t.Run("Audit", s.audit)
	t.Run("Statistics", s.statistics)
	t.Run("RecordSets", s.recordSets)
	t.Run("KeySets", s.keySets)
	t.Run("Office", s.office)
	t.Run("Accounts", s.accounts)
	t.Run("Notify", s.notify)
	t.Run("Fleet", s.fleet)
	t.Run("Update", s.update)
	t.Run("View", s.view)
	t.Run("Batch", s.batch)
	t.Run("Durability", s.durability)
	t.Run("Backup", s.backup)
}

type suite struct {
	newStore func(t *testing.T) model.Store
}

// open is the first call of every case: it makes the case parallel, then
// opens its store.
func (s *suite) open(t *testing.T) model.Store {
	t.Helper()
	t.Parallel()
	return s.newStore(t)
}

// errRollback is what a transaction returns to be rolled back.
var errRollback = errors.New("storetest: roll back")

func update(t *testing.T, s model.Store, fn func(model.Tx) error) {
	t.Helper()
	if err := s.Update(fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

func view(t *testing.T, s model.Store, fn func(model.Tx) error) {
	t.Helper()
	if err := s.View(fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// wantIs fails unless err matches target (a sentinel such as
// model.ErrNotFound).
func wantIs(t *testing.T, err, target error, what string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want one matching %v", what, err, describe(target))
	}
}

func describe(target error) string {
	switch target {
	case model.ErrNotFound:
		return "model.ErrNotFound"
	case model.ErrConflict:
		return "model.ErrConflict"
	}
	return fmt.Sprint(target)
}

// protect runs op, turning a panic into an error so one broken operation
// fails its case instead of the whole suite.
func protect(op func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return op()
}

func isPanic(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "panic: ") }

// Times: whole seconds in UTC, which every backend keeps exactly.
var (
	t0 = time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	// beginning and end bound "everything": the zero time and a time
	// beyond any fix.
	beginning time.Time
	end       = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

func at(minutes int) time.Time { return t0.Add(time.Duration(minutes) * time.Minute) }

// same reports whether got and want are deeply equal, for messages.
func same(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %s\nwant %s", what, show(got), show(want))
	}
}

func show(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%+v", v)
	}
	return string(data)
}

// sameIDs compares id lists exactly, nil and empty alike.
func sameIDs(t *testing.T, what string, got, want []int64) {
	t.Helper()
	if len(got) != len(want) || !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// sameSet compares id lists as sets (no repeats allowed in got).
func sameSet(t *testing.T, what string, got, want []int64) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Errorf("%s = %v, want %v in any order", what, got, want)
	}
}

func strp(s string) *string { return &s }

func timep(t time.Time) *time.Time { return &t }
